"""Boards read from text one line at a time, without the GIL: the common input of a batch.

``parse_lines`` reads the plain lines of a file of boards: one board per line, rows split by
``/`` or the tiles of a square board separated by spaces (or tabs, commas, semicolons), ``_`` or
``0`` for the blank, at most 16 cells. Each such line becomes a packed word (cell i at bits
4i..4i+3). It judges every line on its own and never explains: a line it does not accept is
marked, and the Python reader (``fastpuzzle.formats``) reads that line, or the whole text, the
slow way, which says exactly what is wrong.
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t


cdef enum LineKind:
    # What ``parse_lines`` says of a line.
    EMPTY = 0  # nothing but spaces and tabs
    BOARD = 1  # a board: its word, rows and columns are set
    OTHER_SLASH = 2  # not accepted, and holds a '/'
    OTHER = 3  # not accepted, no '/'


cdef enum CharClass:
    # What a character is to a line this reader accepts.
    C_OTHER  # a control character: it may break lines or tokens as the slow reader reads them
    C_WORD  # any other ASCII character: part of a token that is no tile
    C_DIGIT
    C_BLANK  # '_'
    C_SPACE  # ' ', '\t', ',', ';'
    C_SLASH
    C_NEWLINE
    C_RETURN


#: ``kinds`` values of :func:`parse_lines`, for Python.
LINE_EMPTY, LINE_BOARD, LINE_OTHER_SLASH, LINE_OTHER = EMPTY, BOARD, OTHER_SLASH, OTHER


cdef inline uint8_t char_class(uint8_t c) noexcept nogil:
    if 48 <= c <= 57:
        return C_DIGIT
    if c == 95:
        return C_BLANK
    if c == 32 or c == 9 or c == 44 or c == 59:
        return C_SPACE
    if c == 47:
        return C_SLASH
    if c == 10:
        return C_NEWLINE
    if c == 13:
        return C_RETURN
    if 32 < c < 128:
        return C_WORD
    return C_OTHER


cdef uint8_t parse_line(
    const uint8_t* text,
    Py_ssize_t start,
    Py_ssize_t stop,
    int want_rows,
    int want_cols,
    uint64_t* word,
    uint8_t* rows_out,
    uint8_t* cols_out,
) noexcept nogil:
    """One line (``text[start:stop]``, no line break): LINE_EMPTY, LINE_BOARD or why not."""
    cdef Py_ssize_t i = start
    cdef uint8_t kind
    cdef int slashes = 0, segments = 0, width = -1, in_segment = 0, cells = 0, value
    cdef int rows, cols
    cdef int digits, blanks, bad = 0, punctuation = 0
    cdef uint32_t seen = 0
    cdef uint64_t packed = 0
    while i < stop:
        kind = char_class(text[i])
        if kind == C_SPACE:
            # A line of commas alone is no empty line to the slow reader: a line without tiles.
            punctuation |= text[i] == 44 or text[i] == 59
            i += 1
            continue
        if kind == C_SLASH:
            slashes += 1
            # A segment without tiles ('//', a leading '/', commas alone) is left to Board,
            # which drops some and refuses others.
            if in_segment == 0:
                bad = 1
            elif width < 0:
                width = in_segment
            elif width != in_segment:
                bad = 1
            segments += 1
            in_segment = 0
            i += 1
            continue
        # A token: every character up to the next separator; digits (leading zeros too) or one
        # '_', anything else is left to Board.
        value = 0
        digits = 0
        blanks = 0
        while i < stop:
            kind = char_class(text[i])
            if kind == C_SPACE or kind == C_SLASH:
                break
            if kind == C_DIGIT:
                digits += 1
                if value < 16:
                    value = value * 10 + (text[i] - 48)
            elif kind == C_BLANK:
                blanks += 1
            else:
                bad = 1
            i += 1
        if blanks > 1 or (blanks and digits):
            bad = 1
        if cells < 16:
            if value >= 16 or (seen >> value) & 1:
                bad = 1
            else:
                seen |= (<uint32_t>1) << value
                packed |= (<uint64_t>value) << (4 * cells)
        cells += 1
        in_segment += 1
    if cells == 0:
        return OTHER_SLASH if slashes else (OTHER if punctuation else EMPTY)
    if slashes:
        if in_segment == 0:
            bad = 1  # a trailing '/'
        elif width < 0:
            width = in_segment
        elif width != in_segment:
            bad = 1
        segments += 1
    if bad or cells > 16 or seen != ((<uint32_t>1) << cells) - 1:
        return OTHER_SLASH if slashes else OTHER
    if slashes:
        rows = segments
        cols = width
        if want_rows and (rows != want_rows or cols != want_cols):
            return OTHER_SLASH
        if rows < 2 or cols < 2:
            return OTHER_SLASH
    elif want_rows:
        if cells != want_rows * want_cols:
            return OTHER
        rows = want_rows
        cols = want_cols
    else:
        if cells == 4:
            rows = 2
        elif cells == 9:
            rows = 3
        elif cells == 16:
            rows = 4
        else:
            return OTHER
        cols = rows
    word[0] = packed
    rows_out[0] = rows
    cols_out[0] = cols
    return BOARD


cdef Py_ssize_t parse_all(
    const uint8_t* text,
    Py_ssize_t size,
    int want_rows,
    int want_cols,
    uint64_t* words,
    uint8_t* rows,
    uint8_t* cols,
    uint8_t* kinds,
    Py_ssize_t capacity,
) noexcept nogil:
    cdef Py_ssize_t i, start = 0, stop, line = 0
    cdef uint8_t kind
    for i in range(size):
        kind = char_class(text[i])
        if kind == C_OTHER:
            return -1
        if kind == C_RETURN and not (i + 1 < size and text[i + 1] == 10):
            return -1  # a lone carriage return: a line break to str.splitlines
    while start < size:
        stop = start
        while stop < size and text[stop] != 10:
            stop += 1
        if line >= capacity:
            return -1
        kinds[line] = parse_line(
            text,
            start,
            stop - 1 if stop > start and text[stop - 1] == 13 else stop,
            want_rows,
            want_cols,
            &words[line],
            &rows[line],
            &cols[line],
        )
        line += 1
        start = stop + 1
    return line


def parse_lines(
    const uint8_t[::1] text,
    int want_rows,
    int want_cols,
    uint64_t[::1] words,
    uint8_t[::1] rows,
    uint8_t[::1] cols,
    uint8_t[::1] kinds,
):
    """Read ``text`` (ASCII bytes) line by line; return the number of lines, or -1 where a
    character could change how the text splits into lines or tokens (a control character other
    than tab and newline, a carriage return not before a newline) and only the slow reader can
    say.

    Line ``k`` (0-based, as ``str.splitlines`` numbers them) gets ``kinds[k]`` (``LINE_*``) and,
    for a board, its packed word and shape in ``words``, ``rows``, ``cols``. ``want_rows`` and
    ``want_cols`` (0: any square board, or rows split by ``/``) fix the shape. The arrays hold at
    least one entry more than the text has newlines.
    """
    cdef Py_ssize_t count, size = text.shape[0]
    cdef Py_ssize_t capacity = min(words.shape[0], rows.shape[0], cols.shape[0], kinds.shape[0])
    if size == 0:
        return 0
    with nogil:
        count = parse_all(
            &text[0], size, want_rows, want_cols, &words[0], &rows[0], &cols[0], &kinds[0],
            capacity,
        )
    return count


cdef extern from "Python.h":
    char* PyOS_double_to_string(
        double value, char format_code, int precision, int flags, int* kind
    ) except NULL
    void PyMem_Free(void* p)
    int Py_DTSF_ADD_DOT_0


def float_reprs(const double[::1] values, uint8_t[:, ::1] out):
    """Write ``repr(value)`` of each of ``values`` as ASCII into the rows of ``out``, padded
    with NUL bytes (rows of at least 24 bytes hold any float's repr); the same text as
    ``float.__repr__``, which calls the same function, without a Python object a value."""
    cdef Py_ssize_t row, k
    cdef char* text
    for row in range(values.shape[0]):
        text = PyOS_double_to_string(values[row], b"r", 0, Py_DTSF_ADD_DOT_0, NULL)
        k = 0
        while text[k] != 0 and k < out.shape[1]:
            out[row, k] = text[k]
            k += 1
        while k < out.shape[1]:
            out[row, k] = 0
            k += 1
        PyMem_Free(text)


def integer_texts(const int64_t[::1] values, uint8_t[:, ::1] out):
    """Write each of ``values`` in decimal as ASCII into the rows of ``out``, padded with NUL
    bytes (rows of at least 20 bytes hold any int64)."""
    cdef Py_ssize_t row, k, width = out.shape[1]
    cdef uint64_t magnitude
    cdef uint8_t digits[20]
    cdef int count
    with nogil:
        for row in range(values.shape[0]):
            k = 0
            if values[row] < 0:
                out[row, 0] = 45  # '-'
                k = 1
                magnitude = <uint64_t>(-(values[row] + 1)) + 1
            else:
                magnitude = <uint64_t>values[row]
            count = 0
            while True:
                digits[count] = 48 + magnitude % 10
                magnitude //= 10
                count += 1
                if magnitude == 0:
                    break
            while count > 0 and k < width:
                count -= 1
                out[row, k] = digits[count]
                k += 1
            while k < width:
                out[row, k] = 0
                k += 1

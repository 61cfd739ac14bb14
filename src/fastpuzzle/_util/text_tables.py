"""Tables for people: fixed-width text, Markdown, LaTeX and HTML, cut like a DataFrame's.

:class:`~fastpuzzle.Comparison` and :class:`~fastpuzzle.BatchResult` describe their columns
(a header, which columns are numbers) and give their rows' cells one row at a time, so that a
batch of a million rows shows its first and last rows without formatting the others.
"""

from __future__ import annotations

import csv
import html
import io
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fastpuzzle._util.files import write_text_atomically

__all__ = ["MAX_ROWS", "SHOWN_ROWS", "Table", "TableText", "latex_escape", "rows_csv"]

#: A table of more rows than this shows only its first and last :data:`SHOWN_ROWS` (pandas
#: does the same at 60).
MAX_ROWS = 60
SHOWN_ROWS = 5

Cells = tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """``count`` rows whose cells ``row(i)`` gives, under ``header``.

    ``numeric`` names the columns of numbers (aligned right, as printed tables do); the others
    are text, aligned left.
    """

    header: Cells
    count: int
    row: Callable[[int], Cells]
    numeric: frozenset[int] = frozenset()

    def _shown(self, max_rows: int | None) -> tuple[list[int], list[int]]:
        """The rows shown: all of them, or the first and last few with a gap between."""
        if max_rows is None or self.count <= max_rows:
            return list(range(self.count)), []
        return list(range(SHOWN_ROWS)), list(range(self.count - SHOWN_ROWS, self.count))

    def _footer(self, max_rows: int | None) -> str:
        if max_rows is None or self.count <= max_rows:
            return ""
        return f"[{self.count:,} rows: the first and last {SHOWN_ROWS} shown]"

    def text(self, max_rows: int | None = None) -> str:
        """Fixed-width columns under a rule; past ``max_rows`` rows, a "..." line between the
        first and last rows and a line saying how many there are."""
        head, tail = self._shown(max_rows)
        lines = [self.row(i) for i in head]
        gap = ("...",) + ("",) * (len(self.header) - 1)
        body = [*lines, gap, *(self.row(i) for i in tail)] if tail else lines
        widths = [
            max(len(cells[i]) for cells in [self.header, *body]) for i in range(len(self.header))
        ]

        def line(cells: Sequence[str]) -> str:
            return "  ".join(
                cell.rjust(width) if i in self.numeric and cells is not gap else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(cells, widths))
            ).rstrip()

        rule = "  ".join("-" * width for width in widths)
        out = [line(self.header), rule, *(line(cells) for cells in body)]
        footer = self._footer(max_rows)
        if footer:
            out.append(footer)
        return "\n".join(out)

    def markdown(self) -> str:
        """A GitHub-flavoured Markdown table (every row; ``|`` in a cell escaped)."""

        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

        rule = (
            "|"
            + "|".join("---:" if i in self.numeric else ":---" for i in range(len(self.header)))
            + "|"
        )
        return "\n".join([line(self.header), rule, *(line(self.row(i)) for i in range(self.count))])

    def latex(self) -> str:
        """A LaTeX ``tabular`` with booktabs rules (``\\usepackage{booktabs}``), every row,
        special characters escaped."""
        spec = "".join("r" if i in self.numeric else "l" for i in range(len(self.header)))

        def line(cells: Sequence[str]) -> str:
            return " & ".join(latex_escape(cell) for cell in cells) + r" \\"

        body = [line(self.row(i)) for i in range(self.count)]
        return "\n".join(
            [
                rf"\begin{{tabular}}{{{spec}}}",
                r"\toprule",
                line(self.header),
                r"\midrule",
                *body,
                r"\bottomrule",
                r"\end{tabular}",
            ]
        )

    def html(self, max_rows: int | None = None, caption: str = "") -> str:
        """An HTML ``<table>``; past ``max_rows`` rows, the first and last few and a "..." row."""
        head, tail = self._shown(max_rows)

        def cells(tag: str, values: Sequence[str]) -> str:
            return "".join(
                f'<{tag} style="text-align:{"right" if i in self.numeric else "left"}">'
                f"{html.escape(value)}</{tag}>"
                for i, value in enumerate(values)
            )

        rows = [f"<tr>{cells('td', self.row(i))}</tr>" for i in head]
        if tail:
            rows.append(f'<tr><td colspan="{len(self.header)}">...</td></tr>')
            rows += [f"<tr>{cells('td', self.row(i))}</tr>" for i in tail]
        footer = self._footer(max_rows)
        title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
        note = f"<p>{html.escape(footer)}</p>" if footer else ""
        return (
            f"<table>{title}<thead><tr>{cells('th', self.header)}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>{note}"
        )


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # Outside ASCII: what every LaTeX engine reads.
    "µ": r"$\mu$",
    "±": r"$\pm$",
    "…": r"\ldots{}",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters (and µ, ±, …) written as LaTeX reads them."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


class TableText:
    """The text forms of a class's table (its ``_table()``): ``str()`` and a notebook's HTML cut
    to :data:`MAX_ROWS` rows, :meth:`to_string`, :meth:`to_markdown` and :meth:`to_latex`
    whole. :class:`~fastpuzzle.Comparison` and :class:`~fastpuzzle.DepthStudy` share them."""

    __slots__ = ()

    def _table(self) -> Table:
        raise NotImplementedError

    def to_string(self) -> str:
        """The aligned table with every row (``str()`` shows 60 at most)."""
        return self._table().text()

    def to_markdown(self) -> str:
        """The table in Markdown (GitHub's tables), every row."""
        return self._table().markdown()

    def to_latex(self) -> str:
        """The table as a LaTeX ``tabular`` (needs ``\\usepackage{booktabs}``), every row."""
        return self._table().latex()

    def __str__(self) -> str:
        return self._table().text(MAX_ROWS)

    def _repr_html_(self) -> str:
        return self._table().html(MAX_ROWS)


def rows_csv(
    columns: Sequence[str], rows: Iterable[object], path: str | os.PathLike[str] | None
) -> str:
    """CSV text of ``rows`` (dataclasses), a header of ``columns`` and a column each: None
    empty, a float by its ``repr`` (every digit, read back the same); also written atomically
    to ``path`` when given."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(
            "" if value is None else repr(value) if isinstance(value, float) else value
            for value in (getattr(row, name) for name in columns)
        )
    text = out.getvalue()
    if path is not None:
        write_text_atomically(path, text)
    return text

"""The helpers: what every layer of fastpuzzle uses and no user imports.

Nothing here imports a search, a table or a public module above :mod:`fastpuzzle.errors`:
``checks`` (argument checks and their messages), ``files`` (atomic writes, reads of regular
files only), ``units`` (times and sizes as people read them), ``tables`` (text, Markdown, LaTeX
and HTML tables), ``progress`` (the one progress display), ``optional`` (optional dependencies
and the extra that installs each), ``records`` (frozen records built without their
``__init__``), ``default_shape`` (the one default shape, and the warning where an old one
remains) and ``plot`` (a comparison's bar charts, and the metric names).
"""

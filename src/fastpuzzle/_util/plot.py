"""Bar charts of a comparison (:meth:`fastpuzzle.Comparison.plot`); needs matplotlib.

One chart per metric, bars grouped by board and coloured by method, on a linear scale by
default, so that a bar twice as tall is twice the figure (on a log scale a 4x difference looked
60x); a log scale where asked (``log=True``), for figures of one table that span orders of
magnitude (a random walk's 390,000 moves beside A*'s 20).
Boards are labelled B1, B2, ... under their bars, and the label under the chart says which
board each is: a 4x4 board written out does not fit under its bars; that label breaks lines
between boards, never inside one. Each bar is labelled with its figure: on a linear scale an
informed search's bar beside BFS's is a line at zero, and its label says what it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fastpuzzle._util.optional import require

__all__ = ["METRICS", "Bar", "board_labels", "draw"]

#: The numeric columns a chart can draw, and the axis label of each: the metric names of
#: :meth:`fastpuzzle.Comparison.plot` and of ``fastpuzzle compare --metric``.
METRICS = {
    "expanded": "nodes expanded",
    "generated": "nodes generated",
    "peak_memory_bytes": "memory (nodes stored)",
    "seconds": "time (median of runs)",
    "length": "solution length (moves)",
}

#: The unit families of the metrics that have units: each axis writes every tick in the one
#: unit that fits its largest value (``0.5 ms, 1 ms, 10 ms``, not ``500 µs, 1.00 ms``).
_UNITS: dict[str, tuple[tuple[str, float], ...]] = {
    "seconds": (("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)),
    "peak_memory_bytes": (("B", 1.0), ("KiB", 2.0**10), ("MiB", 2.0**20), ("GiB", 2.0**30)),
}


def plain(value: float) -> str:
    """A tick value as a plain number: ``20``, ``1,500``, ``0.25``; never ``10^x`` or ``2e-05``.

    >>> [plain(v) for v in (20.0, 1500.0, 0.25, 3e-05, 1e6)]
    ['20', '1,500', '0.25', '0.00003', '1,000,000']
    """
    if value >= 1000:
        return f"{value:,.0f}"
    text = f"{value:.3g}"
    if "e" in text:  # below 1e-4: written out, up to three significant digits
        digits = max(0, 2 - math.floor(math.log10(abs(value))))
        text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return text


def _tick_writer(metric: str, top: float) -> Callable[[float], str]:
    """How the ticks of ``metric``'s axis read, its largest value being ``top``."""
    units = _UNITS.get(metric)
    if units is None:
        return plain
    name, scale = units[0]
    for unit, factor in units:
        if top >= factor:
            name, scale = unit, factor
    return lambda value: f"{plain(value / scale)} {name}"


def _label_ticks(ax: Any, ticker: Any, metric: str) -> None:
    """Plain tick labels in one unit on ``ax``'s log axis: the decades, and where the axis spans
    less than two decades the ticks between them too (a short axis has few decades or none)."""
    low, high = ax.get_ylim()
    write = _tick_writer(metric, high)
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: write(y)))
    span = high / low if low > 0 and high > low else 1.0
    if metric == "peak_memory_bytes":
        # Powers of 4 (256 B, 1 KiB, 4 KiB ...; of 2 on a short axis) are round in KiB and MiB,
        # where powers of ten would read 0.977 KiB.
        ax.yaxis.set_major_locator(ticker.LogLocator(base=4.0 if span >= 16 else 2.0))
        ax.yaxis.set_minor_locator(ticker.NullLocator())
        return
    decades = math.log10(span)
    if decades > 2:
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        return
    # Between the decades: every tick (2, 3, ... 9) on an axis of less than a decade, else
    # only 2 and 5 times a power of ten, so that labels do not run into one another.
    wanted = range(2, 10) if decades <= 1 else (2, 5)

    def minor(y: float, _: Any) -> str:
        if y <= 0:
            return ""
        mantissa = round(y / 10 ** math.floor(math.log10(y) + 1e-9))
        return write(y) if mantissa in wanted else ""

    ax.yaxis.set_minor_formatter(ticker.FuncFormatter(minor))


#: Twenty distinct colours (matplotlib's tab20, written out so no colormap is needed); past
#: twenty methods the cycle repeats with a hatch, so every method still looks different.
_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
)  # fmt: skip
_HATCHES = ("", "//", "..", "\\\\", "oo")


def _method_style(k: int) -> tuple[str, str]:
    """Colour and hatch of the ``k``-th method of a chart."""
    return _COLOURS[k % len(_COLOURS)], _HATCHES[(k // len(_COLOURS)) % len(_HATCHES)]


def board_labels(boards: Sequence[str]) -> dict[str, str]:
    """The short label of each board, in order: ``{"5 2 3/4 1 8/_ 7 6": "B1", ...}``."""
    return {board: f"B{i}" for i, board in enumerate(boards, start=1)}


def _caption(labels: dict[str, str], width: int = 110) -> str:
    """Which board each label stands for, in lines of a chart's width broken between boards
    (a board broken across lines reads as two)."""
    lines: list[str] = []
    for entry in (f"{label} = {board}" for board, label in labels.items()):
        if lines and len(lines[-1]) + len(_SEPARATOR) + len(entry) <= width:
            lines[-1] += _SEPARATOR + entry
        else:
            lines.append(entry)
    return "\n".join(lines)


_SEPARATOR = ";   "


def _label_bars(
    ax: Any, bars: list[tuple[float, Any]], write: Callable[[float], str], width: float
) -> None:
    """Each bar's figure above it, upright where bars are too narrow for a line of text."""
    upright = width < 0.2
    for value, container in bars:
        ax.bar_label(
            container,
            labels=[write(value)],
            fontsize="xx-small",
            rotation=90 if upright else 0,
            padding=1,
        )


class Bar(Protocol):
    """What a chart reads of a row (a :class:`fastpuzzle.compare.Row`): its board, its method,
    how it ended, and each metric of :data:`METRICS` as an attribute."""

    @property
    def board(self) -> str: ...

    @property
    def method(self) -> str: ...

    @property
    def status(self) -> str: ...


def draw(
    rows: Sequence[Bar], metrics: Sequence[str], axes: Sequence[Any] | None, *, log: bool = False
) -> list[Any]:
    """One bar chart per metric of ``rows``, on ``axes`` (default: a new figure, one chart under
    another), on a linear scale (``log``: a log scale)."""
    plt = require("matplotlib.pyplot", "Comparison.plot", "plot")
    patches = require("matplotlib.patches", "Comparison.plot", "plot")
    ticker = require("matplotlib.ticker", "Comparison.plot", "plot")
    boards = list(dict.fromkeys(row.board for row in rows))
    methods = list(dict.fromkeys(row.method for row in rows))
    labels = board_labels(boards)
    if axes is None:
        # Constrained layout keeps the caption and the outside legend inside the figure.
        figure = plt.figure(figsize=(10, 1.5 + 3.2 * len(metrics)), constrained_layout=True)
        axes = list(figure.subplots(len(metrics), 1, squeeze=False)[:, 0])
    width = 0.8 / max(len(methods), 1)
    stopped_any = False
    for ax, metric in zip(axes, metrics):
        bars: list[tuple[float, Any]] = []
        for k, method in enumerate(methods):
            color, hatch = _method_style(k)
            by_board = {row.board: row for row in rows if row.method == method}
            for i, board in enumerate(boards):
                row = by_board.get(board)
                if row is None:
                    continue
                stopped = row.status != "solved"
                stopped_any |= stopped
                # A run stopped by a limit: a pale, hatched bar (its height is what it did
                # before it stopped, not what solving would take).
                value = getattr(row, metric) or 0
                bars.append((value, ax.bar(
                    i + k * width,
                    value,
                    width,
                    color=color,
                    alpha=0.35 if stopped else 1.0,
                    hatch=("xx" if stopped else hatch) or None,
                    edgecolor="black" if stopped else "white",
                    linewidth=0.5,
                )))  # fmt: skip
        _label_bars(ax, bars, _tick_writer(metric, max((v for v, _ in bars), default=0)), width)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(boards))])
        ax.set_xticklabels([labels[board] for board in boards])
        ax.set_ylabel(METRICS[metric] + (" (log scale)" if log else ""))
        if log:
            ax.set_yscale("log")
            _label_ticks(ax, ticker, metric)
        else:
            write = _tick_writer(metric, ax.get_ylim()[1])
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _, w=write: w(y)))
    axes[-1].set_xlabel(_caption(labels), fontsize="small", loc="left")
    handles = []
    for k in range(len(methods)):
        color, hatch = _method_style(k)
        style = {"facecolor": color, "hatch": hatch or None, "edgecolor": "white"}
        handles.append(patches.Patch(**style, linewidth=0.5))
    names = list(methods)
    if stopped_any:
        handles.append(
            patches.Patch(facecolor="white", edgecolor="black", hatch="xx", linewidth=0.5)
        )
        names.append("stopped by a limit")
    # Outside the axes, so that no bar is hidden behind it; once, beside the first chart.
    axes[0].legend(
        handles,
        names,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize="small",
        frameon=False,
        ncol=1 if len(names) <= 16 else 2,
    )
    return list(axes)

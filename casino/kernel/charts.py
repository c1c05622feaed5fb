"""Charts, drawn by matplotlib as SVG from figures (no browser JavaScript): the reports',
the count's, the floor view's and a player's pages share them.

Each function takes the figures (decimals as strings) and returns SVG text; the HTML
page shows it as an image and the PDF embeds it. matplotlib's object API is used (no
``pyplot`` state), so charts can be drawn from several threads.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from matplotlib import font_manager, rcParams
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from casino.kernel.money import Grouping, format_money
from casino.kernel.quick_charts import LOSS, WIN, accessible  # noqa: F401 (the pages' name)

# Hour labels ("22:00") look like times to matplotlib, which says so at INFO level.
logging.getLogger("matplotlib.category").setLevel(logging.WARNING)

#: The fonts the charts draw with, each glyph from the first that has it: DejaVu Sans for
#: Latin (Vietnamese's diacritics included), Noto Sans CJK (Debian's ``fonts-noto-cjk``)
#: for Hangul; the same stack as the PDF's (templates/reports/shift_report_pdf.html).
FONTS = ["DejaVu Sans", "Noto Sans CJK KR", "Noto Sans CJK JP"]


def _installed_fonts() -> list[str]:
    """The stack's fonts matplotlib knows; one installed after matplotlib cached its font
    list is added from the system's fonts."""
    known = {font.name for font in font_manager.fontManager.ttflist}
    if not all(name in known for name in FONTS):
        for path in font_manager.findSystemFonts():
            if "NotoSansCJK" in path.rsplit("/", 1)[-1]:
                font_manager.fontManager.addfont(path)
        known = {font.name for font in font_manager.fontManager.ttflist}
    return [name for name in FONTS if name in known] or ["DejaVu Sans"]


# Same input, same SVG bytes: fixed ids, no creation date; glyphs drawn as paths.
rcParams["svg.hashsalt"] = "casino-reports"
rcParams["svg.fonttype"] = "path"
rcParams["font.family"] = _installed_fonts()
rcParams["font.size"] = 9

THEORETICAL = "#8a8f98"
ACCENT = "#1f4e79"
#: Inches: three side by side fill a landscape A4 page of the PDF at a legible size.
SIZE = (5.6, 3.0)
#: The dashboard's trend, a month of days on one page's width.
TREND_SIZE = (7.2, 3.0)


def _number(value: Any) -> float:
    return float(Decimal(value)) if value not in (None, "") else 0.0


def _amounts(ax: Any, currency: str, grouping: Grouping | str) -> None:
    """Amounts on the axis as the report writes them: the currency's decimals (``12.00``
    MOP, ``1.000.000`` VND), in the venue's ``grouping``."""
    ax.yaxis.set_major_formatter(
        FuncFormatter(
            lambda x, _pos: format_money(
                Decimal(str(float(x))), currency, grouping=grouping, computed=True
            )
        )
    )


def _grouping(figures: dict[str, Any]) -> str:
    """The grouping a report was built in (commas for one built before venues had one)."""
    return figures["shift"].get("grouping", Grouping.COMMA)


#: The one rule matplotlib writes in a style element of its own.
_STYLE = '<style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style>'


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    # A page shows the chart inline, under a Content-Security-Policy that refuses style
    # elements: the rule becomes the root's attributes, which every line inherits alike.
    return (
        buffer.getvalue()
        .replace(_STYLE, "")
        .replace("<svg ", '<svg stroke-linejoin="round" stroke-linecap="butt" ', 1)
    )


def _frame(title: str, size: tuple[float, float] = SIZE) -> tuple[Figure, Any]:
    figure = Figure(figsize=size)
    ax = figure.add_subplot()
    ax.set_title(title, loc="left", fontsize=10, fontweight="bold")
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", color="#e5e5e5", linewidth=0.6)
    ax.set_axisbelow(True)
    return figure, ax


def _empty(ax: Any) -> None:
    ax.text(0.5, 0.5, _("no settled rounds"), ha="center", va="center", transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])


def bars(
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    currency: str = "",
    grouping: Grouping | str = Grouping.COMMA,
) -> str:
    """Bars above zero in green, below in red; amounts on the axis in ``grouping``."""
    figure, ax = _frame(f"{title} ({currency})" if currency else title)
    if not labels:
        _empty(ax)
        return _svg(figure)
    ax.bar(labels, values, color=[WIN if v >= 0 else LOSS for v in values], width=0.6)
    ax.axhline(0, color="#444444", linewidth=0.8)
    _amounts(ax, currency, grouping)
    ax.tick_params(axis="x", labelrotation=45 if len(labels) > 10 else 0)
    return _svg(figure)


def win_by_table(figures: dict[str, Any]) -> str:
    tables = figures["tables"]
    return bars(
        _("House win by table"),
        [t["label"] for t in tables],
        [_number(t["house_win"]) for t in tables],
        figures["shift"]["currency"],
        _grouping(figures),
    )


def win_by_hour(figures: dict[str, Any]) -> str:
    hours = figures["hours"]
    return bars(
        _("House win by hour (%(timezone)s)") % {"timezone": figures["shift"]["timezone"]},
        [h["label"] for h in hours],
        [_number(h["house_win"]) for h in hours],
        figures["shift"]["currency"],
        _grouping(figures),
    )


def hold_against_theoretical(figures: dict[str, Any]) -> str:
    """Per table: the hold %, the theoretical hold % and the 95% range around it."""
    tables = figures["tables"]
    # xgettext:no-python-format
    figure, ax = _frame(_("Hold % against theoretical, by table"))
    if not tables:
        _empty(ax)
        return _svg(figure)
    positions = range(len(tables))
    ax.bar(
        [p - 0.18 for p in positions],
        [_number(t["hold_pct"]) for t in tables],
        width=0.36,
        color=ACCENT,
        label=_("hold %"),
    )
    rated = [(p, t) for p, t in zip(positions, tables, strict=True) if t["theoretical_hold_pct"]]
    ax.bar(
        [p + 0.18 for p, _t in rated],
        [_number(t["theoretical_hold_pct"]) for _p, t in rated],
        width=0.36,
        color=THEORETICAL,
        label=_("theoretical hold %"),
    )
    ranged = [(p, t) for p, t in rated if t["hold_low_pct"] is not None]
    if ranged:
        middles = [_number(t["theoretical_hold_pct"]) for _p, t in ranged]
        ax.errorbar(
            [p + 0.18 for p, _t in ranged],
            middles,
            yerr=[
                [
                    m - _number(t["hold_low_pct"])
                    for m, (_p, t) in zip(middles, ranged, strict=True)
                ],
                [
                    _number(t["hold_high_pct"]) - m
                    for m, (_p, t) in zip(middles, ranged, strict=True)
                ],
            ],
            fmt="none",
            ecolor="#333333",
            capsize=3,
            linewidth=0.8,
            # xgettext:no-python-format
            label=_("95% range"),
        )
    ax.axhline(0, color="#444444", linewidth=0.8)
    ax.set_xticks(list(positions), [t["label"] for t in tables])
    ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:.0f}%"))
    # Above the axes, below the title: no bar and no range can cover it.
    ax.set_title(ax.get_title("left"), loc="left", fontsize=10, fontweight="bold", pad=20)
    ax.legend(frameon=False, fontsize=8, ncols=3, loc="lower left", bbox_to_anchor=(0, 1.0))
    return _svg(figure)


def shift_charts(figures: dict[str, Any]) -> dict[str, str]:
    """The shift report's charts by file name."""
    return {
        "win-by-table.svg": win_by_table(figures),
        "hold-vs-theoretical.svg": hold_against_theoretical(figures),
        "win-by-hour.svg": win_by_hour(figures),
    }


def trend(
    days: Sequence[dict[str, Any]],
    currency: str,
    grouping: Grouping | str = Grouping.COMMA,
    *,
    title: str = "",
) -> str:
    """The dashboard's daily house win (bars) with the hold % against theoretical (lines),
    amounts in the venue's ``grouping``; ``title`` for another period than the day."""
    figure, ax = _frame(
        title or _("House win and hold by gaming date (%(currency)s)") % {"currency": currency},
        TREND_SIZE,
    )
    if not days:
        _empty(ax)
        return _svg(figure)
    labels = [d["label"] for d in days]
    ax.bar(
        labels,
        [_number(d["house_win"]) for d in days],
        color=[WIN if _number(d["house_win"]) >= 0 else LOSS for d in days],
        width=0.6,
        label=_("house win"),
    )
    ax.plot(
        labels,
        [_number(d["theoretical_win"]) if d["theoretical_win"] else None for d in days],
        color=THEORETICAL,
        marker="o",
        linewidth=1.2,
        label=_("theoretical win"),
    )
    _amounts(ax, currency, grouping)
    hold = ax.twinx()
    hold.plot(
        labels,
        [_number(d["hold_pct"]) if d["hold_pct"] else None for d in days],
        color=ACCENT,
        marker="s",
        linewidth=1.2,
        label=_("hold %"),
    )
    hold.yaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:.0f}%"))
    hold.spines[["top"]].set_visible(False)
    handles = ax.get_legend_handles_labels()
    more = hold.get_legend_handles_labels()
    ax.legend(
        handles[0] + more[0],
        handles[1] + more[1],
        frameon=False,
        fontsize=8,
        ncols=3,
        loc="lower left",
        bbox_to_anchor=(0, 1.06),
    )
    ax.tick_params(axis="x", labelrotation=45 if len(labels) > 10 else 0)
    return _svg(figure)


def against_theoretical(
    title: str,
    labels: Sequence[str],
    actual: Sequence[Any],
    theoretical: Sequence[Any],
    currency: str = "",
    grouping: Grouping | str = Grouping.COMMA,
) -> str:
    """Bars of an actual win (green above zero, red below) with its theoretical win as
    points, per label; a missing figure is left out."""
    figure, ax = _frame(f"{title} ({currency})" if currency else title, TREND_SIZE)
    if not labels:
        _empty(ax)
        return _svg(figure)
    wins = [_number(value) if value is not None else 0.0 for value in actual]
    # places, not category labels: a label that reads as a date is not parsed as one
    places = list(range(len(labels)))
    ax.bar(places, wins, color=[WIN if v >= 0 else LOSS for v in wins], width=0.6)
    ax.set_xticks(places, labels)
    ax.plot(
        places,
        [_number(value) if value is not None else None for value in theoretical],
        color=THEORETICAL,
        marker="o",
        linestyle="none",
        label=_("theoretical win"),
    )
    ax.axhline(0, color="#444444", linewidth=0.8)
    _amounts(ax, currency, grouping)
    ax.legend(frameon=False, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.02))
    ax.tick_params(axis="x", labelrotation=45 if len(labels) > 6 else 0)
    return _svg(figure)

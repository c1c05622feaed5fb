"""Charts drawn as SVG text by hand, for a page that redraws them on every poll.

matplotlib (``casino.kernel.charts``) lays out text and ticks with care and takes about a
tenth of a second a chart: right for a report, built once, and wrong for the floor view,
which a supervisor's screen asks for every 5 s (its chart was 90% of the request). These
draw the same bars, colours and amounts in about a millisecond, with no font metrics:
labels are placed, not measured.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils.html import escape
from django.utils.translation import gettext as _

from casino.kernel.money import Grouping, format_money

#: The bars' colours: a win above zero, a loss below (the reports' charts use them too).
WIN = "#2f6f4f"
LOSS = "#b03a2e"
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 96, 12, 30, 56


def _amount(value: float, currency: str, grouping: Grouping | str) -> str:
    return format_money(Decimal(str(round(value))), currency, grouping=grouping, computed=True)


def bars(
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    currency: str = "",
    grouping: Grouping | str = Grouping.COMMA,
) -> str:
    """Bars above zero in green, below in red, the zero line and the highest and lowest
    amounts on the axis in ``grouping``; a label under each bar (slanted past 10 bars)."""
    heading = f"{title} ({currency})" if currency else title
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<text x="4" y="16" font-size="13" font-weight="bold">{escape(heading)}</text>',
    ]
    if not labels:
        parts.append(
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">'
            f"{escape(_('no settled rounds'))}</text></svg>"
        )
        return "".join(parts)
    high, low = max(0.0, *values), min(0.0, *values)
    span = (high - low) or 1.0
    plot = HEIGHT - TOP - BOTTOM

    def y(value: float) -> float:
        return round(TOP + plot * (high - value) / span, 1)

    zero = y(0)
    for value in {high, low}:
        text = escape(_amount(value, currency, grouping))
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(value) + 4}" text-anchor="end">{text}</text>'
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value)}" y2="{y(value)}" '
            'stroke="#e5e5e5"/>'
        )
    step = (WIDTH - LEFT - RIGHT) / len(labels)
    slant = len(labels) > 10
    for n, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = LEFT + n * step
        top, bottom = sorted((y(value), zero))
        colour = WIN if value >= 0 else LOSS
        parts.append(
            f'<rect x="{x + step * 0.2:.1f}" y="{top}" width="{step * 0.6:.1f}" '
            f'height="{max(bottom - top, 0.5):.1f}" fill="{colour}"/>'
        )
        middle, base = x + step / 2, HEIGHT - BOTTOM + 14
        turn = f' transform="rotate(-45 {middle:.1f} {base})"' if slant else ""
        anchor = "end" if slant else "middle"
        parts.append(
            f'<text x="{middle:.1f}" y="{base}" text-anchor="{anchor}"{turn}>{escape(label)}</text>'
        )
    parts.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{zero}" y2="{zero}" stroke="#444444"/></svg>'
    )
    return "".join(parts)


def accessible(svg: str, *, ident: str, title: str, desc: str) -> str:
    """A chart to put inline in a page: an image (``role="img"``) named by its title and
    described by its description (what it draws, and where its numbers are), the XML
    prologue left out.
    """
    start = svg.index("<svg")
    end = svg.index(">", start)
    return (
        f'<svg role="img" aria-labelledby="{ident}-title" aria-describedby="{ident}-desc"'
        f"{svg[start + 4 : end]}>"
        f'<title id="{ident}-title">{escape(title)}</title>'
        f'<desc id="{ident}-desc">{escape(desc)}</desc>'
        f"{svg[end + 1 :]}"
    )

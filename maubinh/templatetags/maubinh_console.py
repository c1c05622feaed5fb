"""Template tags of Mau Binh's round screen: a seat as stored on its box
(``maubinh.evaluation.seat_evaluation``), the bet's name."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from casino.templatetags.console_tags import faces as _faces
from maubinh.console import labels
from maubinh.engine import InstantWin, evaluate_row

register = template.Library()


@register.filter
def bet_label(bet_type: str) -> str:
    return labels.bet_label(bet_type)


@register.simple_tag
def seat_rows(evaluation: dict[str, Any] | None) -> SafeString:
    """A Mau Binh seat's three rows: name, cards and hand, in the page's language."""
    if not evaluation or not evaluation.get("rows"):
        return SafeString("")
    items = []
    for row in evaluation["rows"]:
        hand = evaluate_row(row["cards"])  # the rules only place a wheel, never name it
        items.append(
            (row["row"], gettext(row["row"]), _faces(row["cards"], ""), labels.row_label(hand))
        )
    return format_html(
        '<ol class="mb-rows history-rows">{}</ol>',
        format_html_join(
            "",
            '<li data-row="{}"><span class="row-name">{}</span> '
            '<span class="faces">{}</span> <b>{}</b></li>',
            items,
        ),
    )


@register.filter
def seat_verdict(evaluation: dict[str, Any] | None) -> str:
    """What decided a Mau Binh seat before its rows: a quit, an instant win, a foul; or the
    instant win the player held and did not declare."""
    if not evaluation:
        return ""
    if evaluation.get("quit"):
        return gettext("Quit")
    if evaluation.get("instant_win"):
        return labels.instant_win_label(InstantWin(evaluation["instant_win"]))
    if evaluation.get("fouled"):
        return gettext("Fouled")
    if evaluation.get("undeclared_instant_win"):
        win = labels.instant_win_label(InstantWin(evaluation["undeclared_instant_win"]))
        return gettext("%(win)s not declared") % {"win": win}
    return ""


@register.simple_tag
def bet_labels() -> dict[str, str]:
    """The bet's name, for the console's shared bets table."""
    return {"stake": labels.bet_label("stake")}

"""Niu Niu's round screen as the console's shell sees it (``casino.games.GameConsole``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext, gettext_lazy

from casino.floor.console import round as rounds
from casino.floor.console import selectors
from casino.floor.console.selectors import Screen
from casino.floor.models import Round, TableSession
from casino.games import BoxInput, RoundResult
from casino.kernel.cards import RANKS, SUITS, Card
from casino.players.models import Player
from niuniu.console import forms, preview, views
from niuniu.engine import BetType, deposit_multiple

PICKER_ROWS = tuple(tuple(Card(rank, suit) for rank in RANKS) for suit in SUITS)


class NiuNiuConsole:
    template = views.TEMPLATE
    summary_template = "niuniu/console/round_summary.html"
    history_columns = (gettext_lazy("Dealer"), gettext_lazy("Boxes"))
    detail_template = "niuniu/console/round_detail.html"

    @property
    def stale_preview(self) -> str:
        return gettext(
            "The round changed after its preview: preview it again (Enter), then confirm."
        )

    def urls(self) -> list[URLPattern]:
        return [
            path("sessions/<int:session_id>/hand/", views.hand, name="hand"),
            path("sessions/<int:session_id>/stakes/", views.stakes, name="stakes"),
            path("sessions/<int:session_id>/player/", views.player, name="player"),
        ]

    def positions(self, seats: int) -> tuple[int, ...]:
        return tuple(range(1, seats + 1))

    def deposit_multiples(self, rules: Any, bet_types: Sequence[str]) -> Mapping[str, Decimal]:
        return {b: deposit_multiple(rules, BetType(b)) for b in bet_types}

    def screen(self, request: HttpRequest, session: TableSession) -> HttpResponse:
        return rounds.whole_screen(request, session, request.GET)

    def entry_in(self, data: Mapping[str, str]) -> bool:
        return forms.entry_in(data)

    def read_entry(
        self, data: Mapping[str, str], screen: Screen, *, evaluate: bool = True
    ) -> forms.RoundEntry:
        players = selectors.players_by_number(
            venue=screen.venue, numbers=forms.member_numbers(data, screen)
        )
        return forms.read_round(data, screen, players, evaluate=evaluate)

    def form_data(
        self, dealer_cards: str, boxes: Sequence[BoxInput], screen: Screen
    ) -> dict[str, str]:
        ids = {box.player_id for box in boxes if box.player_id is not None}
        players = dict(Player.objects.filter(pk__in=ids).values_list("pk", "membership_number"))
        return forms.form_data(dealer_cards, boxes, screen, players)

    def data_from_round(self, round_: Round | None, screen: Screen) -> dict[str, str]:
        return forms.data_from_round(round_, screen)

    def preview_of(self, result: RoundResult, entry: forms.RoundEntry) -> preview.Preview:
        players = {box.position: box.player for box in entry.playing}
        return preview.preview_of(result, players, entry.digest())

    def context(
        self,
        screen: Screen,
        entry: forms.RoundEntry,
        *,
        preview: object | None = None,
        settled: Round | None = None,
        last: Round | None = None,
    ) -> dict[str, Any]:
        return {
            **rounds.screen_context(screen, entry, preview=preview, settled=settled, last=last),
            "picker_rows": PICKER_ROWS,
            "used": entry.used_cards,
        }


CONSOLE = NiuNiuConsole()

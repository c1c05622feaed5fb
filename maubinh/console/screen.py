"""Mau Binh's round screen as the console's shell sees it (``casino.games.GameConsole``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext, gettext_lazy

from casino.floor.console import round as rounds
from casino.floor.console.selectors import Screen
from casino.floor.models import Round, TableSession
from casino.games import BoxInput, RoundResult
from casino.players.models import Player
from maubinh import engine
from maubinh.console import forms, preview, views
from maubinh.seats import HAND_SIZE


class MauBinhConsole:
    template = views.TEMPLATE
    summary_template = "maubinh/console/round_summary.html"
    history_columns = (gettext_lazy("Seats"),)
    detail_template = "maubinh/console/round_detail.html"

    @property
    def stale_preview(self) -> str:
        return gettext("The round changed after its preview: preview it again, then confirm.")

    def urls(self) -> list[URLPattern]:
        return [
            path("sessions/<int:session_id>/maubinh/seat/", views.seat, name="mb-seat"),
            path("sessions/<int:session_id>/maubinh/arrange/", views.arrange, name="mb-arrange"),
        ]

    def positions(self, seats: int) -> tuple[int, ...]:
        return tuple(range(1, min(seats, engine.MAX_PLAYERS) + 1))

    def deposit_multiples(self, rules: Any, bet_types: Sequence[str]) -> Mapping[str, Decimal]:
        return dict.fromkeys(bet_types, Decimal(1))  # no deposit: the stake is all

    def screen(self, request: HttpRequest, session: TableSession) -> HttpResponse:
        return rounds.whole_screen(request, session, request.GET)

    def entry_in(self, data: Mapping[str, str]) -> bool:
        return forms.entry_in(data)

    def read_entry(
        self, data: Mapping[str, str], screen: Screen, *, evaluate: bool = True
    ) -> forms.MauBinhEntry:
        return forms.read_entry(data, screen, evaluate=evaluate)

    def form_data(
        self, dealer_cards: str, boxes: Sequence[BoxInput], screen: Screen
    ) -> dict[str, str]:
        ids = {box.player_id for box in boxes if box.player_id is not None}
        players = dict(Player.objects.filter(pk__in=ids).values_list("pk", "membership_number"))
        return forms.form_data(boxes, screen, players)

    def data_from_round(self, round_: Round | None, screen: Screen) -> dict[str, str]:
        return forms.data_from_round(round_, screen)

    def preview_of(self, result: RoundResult, entry: forms.MauBinhEntry) -> dict[str, Any]:
        return preview.preview_of(result, entry.digest())

    def context(
        self,
        screen: Screen,
        entry: forms.MauBinhEntry,
        *,
        preview: object | None = None,
        settled: Round | None = None,
        last: Round | None = None,
    ) -> dict[str, Any]:
        return {
            **rounds.screen_context(screen, entry, preview=preview, settled=settled, last=last),
            "rows": forms.ROWS,
            "hand_size": HAND_SIZE,
            "stake_bet_type": forms.BET_TYPE,
        }


CONSOLE = MauBinhConsole()

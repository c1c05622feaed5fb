"""Baccarat's round screen as the console's shell sees it (``casino.games.GameConsole``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext, gettext_lazy

from baccarat.console import forms, preview, views
from baccarat.console.labels import bet_label
from baccarat.engine import Collection
from baccarat.selectors import commission_owed, current_shoe_number
from casino.floor.console import round as rounds
from casino.floor.console import selectors
from casino.floor.console.selectors import Screen
from casino.floor.models import Round, TableSession
from casino.games import BoxInput, RoundResult
from casino.players.models import Player


def collects_in_box(rules: Any) -> bool:
    """Whether the rules owe the Banker's commission in the commission box."""
    return rules.collection == Collection.BOX


class BaccaratConsole:
    template = views.TEMPLATE
    summary_template = "baccarat/console/round_summary.html"
    history_columns = (gettext_lazy("Result"), gettext_lazy("Boxes"))
    detail_template = "baccarat/console/round_detail.html"

    @property
    def stale_preview(self) -> str:
        return gettext(
            "The round changed after its preview: preview it again (Enter), then confirm."
        )

    def urls(self) -> list[URLPattern]:
        return [
            path("sessions/<int:session_id>/baccarat/deal/", views.deal, name="bac-deal"),
            path("sessions/<int:session_id>/baccarat/stakes/", views.stakes, name="bac-stakes"),
            path("sessions/<int:session_id>/baccarat/player/", views.player, name="bac-player"),
            path("sessions/<int:session_id>/baccarat/shoe/", views.shoe, name="bac-shoe"),
            path(
                "sessions/<int:session_id>/baccarat/commission/",
                views.collect,
                name="bac-collect",
            ),
        ]

    def positions(self, seats: int) -> tuple[int, ...]:
        return tuple(range(1, seats + 1))

    def deposit_multiples(self, rules: Any, bet_types: Sequence[str]) -> Mapping[str, Decimal]:
        return dict.fromkeys(bet_types, Decimal(1))  # no deposit: the stake is all

    def screen(self, request: HttpRequest, session: TableSession) -> HttpResponse:
        return rounds.whole_screen(request, session, request.GET)

    def entry_in(self, data: Mapping[str, str]) -> bool:
        return forms.entry_in(data)

    def read_entry(
        self, data: Mapping[str, str], screen: Screen, *, evaluate: bool = True
    ) -> forms.RoundEntry:
        """The form read; the deal is followed through the tableau card by card either way
        (no hand is scored apart from the deal), and under a commission box each seat says
        what it owes."""
        players = selectors.players_by_number(
            venue=screen.venue, numbers=forms.member_numbers(data, screen)
        )
        owed = commission_owed(screen.session) if collects_in_box(screen.rules) else None
        return forms.read_round(data, screen, players, owed)

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
            "bet_heads": [(b, bet_label(b)) for b in screen.bet_types],
            "shoe_number": current_shoe_number(screen.session),
            "box_collection": collects_in_box(screen.rules),
        }


CONSOLE = BaccaratConsole()

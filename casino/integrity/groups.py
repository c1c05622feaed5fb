"""The groups an integrity run tests: a venue's tallies of a period summed per scope (table,
dealer, player, pit) and game, each subject's counts per ruleset version and category, the
cards dealt and the sessions counted (casino.integrity.runs reads them, and
casino.integrity.group_tests tests them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Sum

from casino.integrity import statistics as st
from casino.integrity.models import CardTally, CategoryTally
from casino.integrity.models.tallies import CARDS_DEALT, IntegrityResult
from casino.venues.models import Table

Scope = IntegrityResult.Scope
#: Observations a category or outcome test needs before it may alert.
MINIMUM = st.MinimumSample(rounds=200)
#: The normal quantile of a 95% band.
Z95 = st.normal_quantile(0.975)
#: Subjects counted per position of a table (``"<position>:<category>"``: a box or a seat,
#: whoever sat there, rated or anonymous), tested position by position as the subject named.
#: Every game that counts a box's own figures counts them per position too.
SEAT_SUBJECTS = {
    "seat_instant_win": "instant_win",
    "seat_scoop_balance": "scoop_balance",
    "seat_box_hand": "box_hand",
    "seat_box_outcome": "box_outcome",
    "seat_bet_outcome": "bet_outcome",
}
#: The subjects each scope tests (the player's are its boxes; a pit's its tables' hands).
SUBJECTS = {
    Scope.TABLE: (
        "dealer_hand",
        "box_hand",
        "box_outcome",
        "instant_win",
        "round_result",
        *SEAT_SUBJECTS,
    ),
    Scope.DEALER: ("dealer_hand", "box_hand", "box_outcome", "instant_win", "round_result"),
    Scope.PLAYER: ("box_hand", "box_outcome", "instant_win", "scoop_balance", "bet_outcome"),
    Scope.PIT: ("dealer_hand", "box_hand"),
}
#: Subjects read for another subject's test (not tested themselves).
HELPERS = {
    Scope.TABLE: ("round_outcome",),
    Scope.DEALER: ("round_outcome",),
}


@dataclass
class Group:
    """One scope's counts of one game: per subject, per (version, category); cards; rounds
    by cards dealt; the sessions counted."""

    scope: str
    key: int
    game: str
    categories: dict[str, dict[tuple[int, str], int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    cards: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    dealt: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    sessions: set[int] = field(default_factory=set)

    @property
    def rounds(self) -> int:
        return sum(self.dealt.values())


def read_groups(venue_id: int, date_from: date, date_to: date) -> dict[tuple, Group]:
    """The period's tallies summed per scope (table, dealer, player, pit) and game."""
    dates = {"venue_id": venue_id, "gaming_date__gte": date_from, "gaming_date__lte": date_to}
    pit_of = dict(Table.objects.filter(venue_id=venue_id).values_list("pk", "pit_id"))
    groups: dict[tuple, Group] = {}

    def group(scope: str, key: int, game: str) -> Group:
        found = groups.get((scope, key, game))
        if found is None:
            found = groups[(scope, key, game)] = Group(scope, key, game)
        return found

    rows = (
        CategoryTally.objects.filter(**dates, count__gt=0)
        .values_list(
            "session_id",
            "table_id",
            "dealer_id",
            "player_id",
            "game",
            "ruleset_version_id",
            "subject",
            "category",
        )
        .annotate(n=Sum("count"))
        .order_by()
    )
    for session, table, dealer, player, game, version, subject, category, n in rows.iterator(
        chunk_size=20000
    ):
        scopes = [(Scope.TABLE, table), (Scope.DEALER, dealer)]
        if pit_of.get(table) is not None:
            scopes.append((Scope.PIT, pit_of[table]))
        if player is not None:
            scopes.append((Scope.PLAYER, player))
        for scope, key in scopes:
            target = group(scope, key, game)
            target.sessions.add(session)
            if subject == CARDS_DEALT:
                if scope in (Scope.TABLE, Scope.DEALER):
                    target.dealt[int(category)] += n
            elif subject in SUBJECTS[scope] or subject in HELPERS.get(scope, ()):
                target.categories[subject][(version, category)] += n
    cards = (
        CardTally.objects.filter(**dates, count__gt=0)
        .values_list("table_id", "dealer_id", "game", "rank", "suit")
        .annotate(n=Sum("count"))
        .order_by()
    )
    for table, dealer, game, rank, suit, n in cards.iterator(chunk_size=20000):
        group(Scope.TABLE, table, game).cards[rank + suit] += n
        group(Scope.DEALER, dealer, game).cards[rank + suit] += n
    return groups


@dataclass
class Outcome:
    """One test's figures, before the run's false discovery rate is applied."""

    group: Group
    test: str
    n: int
    cells: list[dict[str, Any]]
    method: str = ""
    statistic: float | None = None
    p_value: float | None = None
    note: str = ""
    #: The seat a per-seat test is of.
    position: int | None = None

"""Writes to Mau Binh rulesets (drafts, edits, preset installs) and the demo table.

Statuses, numbering, approval and activation are the shared services in
``casino.services.rulesets``; this module adds what is particular to Mau Binh rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from casino.cards import DECK, format_cards
from casino.games import BoxInput
from casino.models import Player, Table, Venue
from casino.money import plain
from casino.services import rulesets
from casino.services.rounds import round_create, round_settle
from casino.services.sessions import session_open
from casino.services.tables import table_create
from maubinh import engine
from maubinh.engine import presets
from maubinh.engine.rules import InstantWin
from maubinh.models import RULE_FIELDS, InstantWinAmount, MauBinhRulesetVersion, RowBonus
from maubinh.selectors import cached_snapshot

#: The rules a new draft made from scratch starts from (RULES.md B3's current rules).
DEFAULT_PRESET = "bigkool-2016"


def _row_bonuses(version: MauBinhRulesetVersion, rules: engine.Ruleset) -> list[RowBonus]:
    return RowBonus.objects.bulk_create(
        RowBonus(version=version, row=row.value, category=category.name, chi=chi)
        for (row, category), chi in rules.row_bonuses.items()
    )


def _instant_wins(
    version: MauBinhRulesetVersion,
    rules: engine.Ruleset,
    *,
    besides: frozenset[str] | set[str] = frozenset(),
) -> list[InstantWinAmount]:
    """An amount for every instant win not in ``besides`` (0: the rules do not pay it)."""
    return InstantWinAmount.objects.bulk_create(
        InstantWinAmount(version=version, kind=kind.value, chi=rules.instant_win_amount(kind))
        for kind in InstantWin
        if kind.value not in besides
    )


def _fill_rules(version: MauBinhRulesetVersion, rules: engine.Ruleset) -> None:
    """Write an engine snapshot's rules onto the saved, still empty ``version``."""
    version.scoop_multiplier = rules.scoop_multiplier
    version.fee_rate = rules.fee_rate
    version.quit_penalty = rules.quit_penalty
    version.wheel_is_lowest = rules.wheel_is_lowest
    version.foul_counts_as_scoop = rules.foul_counts_as_scoop
    version.dragon_flush_counts_as_dragon = rules.dragon_flush_counts_as_dragon
    version.full_clean(exclude=["ruleset"])
    version.save()
    _row_bonuses(version, rules)
    _instant_wins(version, rules)


@transaction.atomic
def version_fill_default_rows(*, version: MauBinhRulesetVersion) -> int:
    """Give a draft without rows the standard row bonuses and an amount for every instant
    win (those of ``DEFAULT_PRESET``); returns how many rows were added."""
    if not version.is_editable:
        raise ValidationError("Only a draft's rows can be filled in.")
    rules = presets.get(DEFAULT_PRESET)
    added = 0 if version.row_bonuses.exists() else len(_row_bonuses(version, rules))
    have = set(version.instant_wins.values_list("kind", flat=True))
    return added + len(_instant_wins(version, rules, besides=have))


def version_save_draft(*, version: MauBinhRulesetVersion, user: Any) -> MauBinhRulesetVersion:
    """Save a draft's own fields (the admin form). A new draft gets the next number and the
    standard rows, to be edited."""
    return rulesets.version_save_draft(
        model=MauBinhRulesetVersion,
        version=version,
        user=user,
        rule_fields=RULE_FIELDS,
        fill_default_rows=lambda draft: version_fill_default_rows(version=draft),
    )


def preset_install(*, code: str) -> MauBinhRulesetVersion:
    """Install a shipped preset as a venue-less ruleset whose version 1 is active.

    Presets are the engine's own data, so they skip the two-person rule; installing one
    twice changes nothing. The house take is simulated on the first install.
    """
    return rulesets.preset_install(
        model=MauBinhRulesetVersion,
        game="maubinh",
        code=code,
        rules=presets.get(code),
        fill=_fill_rules,
    )


def venue_ruleset_from_preset(
    *, venue: Venue, preset_code: str, editor: Any, **options: Any
) -> MauBinhRulesetVersion:
    """Give ``venue`` its own Mau Binh ruleset copied from a preset, as a draft by ``editor``.

    With an ``approver`` (another person) the draft is approved and activated at once
    (approval simulates the house take unless the same rules were simulated before).

    ``options``: ``approver``, ``code``, ``name``, ``override_reason``
    (``casino.services.rulesets.preset_copy_to_venue``).
    """
    return rulesets.preset_copy_to_venue(
        model=MauBinhRulesetVersion,
        game="maubinh",
        venue=venue,
        preset_code=preset_code,
        rules=presets.get(preset_code),
        fill=_fill_rules,
        editor=editor,
        **options,
    )


# -- demo data ----------------------------------------------------------------------------

DEMO_TABLE = "MB1"
DEMO_ROUNDS = 30
#: Table stakes of the demo, in rounding units of its ruleset version.
DEMO_STAKES = (10, 20, 50, 100)
#: Used when the venue has no table yet to take its chips from.
DEMO_DENOMINATIONS = (5000, 1000, 500, 100, 50, 10, 5, 1)


def seat_cards(rows: tuple[tuple[Any, ...], ...]) -> str:
    """Three rows as a seat's cards are entered: ``"back / middle / front"``."""
    return " / ".join(format_cards(row) for row in rows)


def _demo_denominations(venue: Venue) -> list[str]:
    table = Table.objects.filter(venue=venue).exclude(chip_denominations=[]).first()
    if table is not None:
        return list(table.chip_denominations)
    unit = venue.rounding_unit
    return [plain(unit * n) for n in DEMO_DENOMINATIONS]


@transaction.atomic
def maubinh_demo(
    venue: Venue, users: Mapping[str, Any], *, rounds: int = DEMO_ROUNDS, seed: int | None = None
) -> Table:
    """A Mau Binh table ``MB1`` at ``venue`` with ``rounds`` rounds played through the services.

    The ruleset is a copy of ``bigkool-2016`` edited by ``users["manager"]``, who sets up the
    table through the table service, and approved by ``users["approver"]``;
    ``users["dealer"]`` opens the session and deals. Players lay out
    with the auto-arranger; in one round a player quits, in another one fouls (lays the
    middle row at the back). The session is left open for the console. Idempotent: a venue
    that has the table already is left as it is.
    """
    existing = Table.objects.filter(venue=venue, code=DEMO_TABLE).first()
    if existing is not None:
        return existing
    version = venue_ruleset_from_preset(
        venue=venue,
        preset_code="bigkool-2016",
        editor=users["manager"],
        approver=users["approver"],
    )
    # Stakes are multiples of the version's rounding unit (it started as the venue's).
    rules = cached_snapshot(version)
    unit = rules.rounding_unit
    denominations = _demo_denominations(venue)
    table = table_create(
        venue=venue,
        user=users["manager"],
        code=DEMO_TABLE,
        game="maubinh",
        ruleset=version.ruleset,
        seats=engine.MAX_PLAYERS,
        chip_denominations=denominations,
        limits={"stake": {"min_stake": unit * DEMO_STAKES[0], "max_stake": unit * 1000}},
    )
    dealer = users["dealer"]
    session = session_open(
        table=table, user=dealer, opening_chips={d: 20 for d in denominations[:4]}
    )
    players = list(
        Player.objects.filter(venue=venue, status=Player.Status.ACTIVE).values_list("pk", flat=True)
    )
    rng = random.Random(venue.pk if seed is None else seed)
    quit_round, foul_round = rounds // 3, 2 * rounds // 3
    for number in range(rounds):
        deck = list(DECK)
        rng.shuffle(deck)
        count = rng.choice((2, 3, 4, 4, 4))
        positions = sorted(rng.sample(range(1, engine.MAX_PLAYERS + 1), count))
        stake = unit * rng.choice(DEMO_STAKES)
        seated = rng.sample(players, min(count, len(players)))
        boxes = []
        for n, position in enumerate(positions):
            rows = engine.suggest_arrangement(deck[13 * n : 13 * (n + 1)], rules)
            quit = number == quit_round and n == count - 1
            if number == foul_round and n == 0:
                rows = (rows[1], rows[0], rows[2])  # the middle laid at the back
            boxes.append(
                BoxInput(
                    position=position,
                    cards="" if quit else seat_cards(rows),
                    stakes={"stake": stake},
                    player_id=seated[n] if n < len(seated) else None,
                    quit=quit,
                )
            )
        round_, _result = round_create(session=session, user=dealer, dealer_cards="", boxes=boxes)
        round_settle(round_=round_, user=dealer, key=f"mb-demo-{session.pk}-{number}")
    return table

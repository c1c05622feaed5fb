"""Reads of Baccarat rulesets, shoes and commission boxes; the one place a version becomes an
engine snapshot."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from functools import lru_cache

from django.db.models import Max, Subquery, Sum

from baccarat import engine
from baccarat.models import BaccaratRulesetVersion, Collection, CommissionCollection, Shoe
from casino.floor.models import Bet, Round, RoundStatus, TableSession
from casino.kernel.money import Rounding
from casino.rulesets.models import Ruleset
from casino.rulesets.selectors import version_in_force

#: The most seats at a table; positions beyond are players betting behind (docs/RULES.md).
SEATS = 7


def version_with_rules(pk: int) -> BaccaratRulesetVersion:
    """A version with its ruleset and venue, in one query (its rules are its own fields)."""
    return BaccaratRulesetVersion.objects.select_related("ruleset__venue").get(pk=pk)


def ruleset_snapshot(version: BaccaratRulesetVersion) -> engine.Ruleset:
    """The frozen engine ruleset for ``version``: everything from the version alone (its
    rounding unit and mode too), nothing from the venue's current settings."""
    return engine.Ruleset(
        code=f"{version.ruleset.code}-v{version.number}",
        name=f"{version.ruleset.name} v{version.number}",
        decks=version.decks,
        variant=engine.Variant(version.variant),
        banker_commission=version.banker_commission,
        banker_six_odds=version.banker_six_odds,
        tie_odds=version.tie_odds,
        pair_odds=version.pair_odds,
        super6_two_card_odds=version.super6_two_card_odds,
        super6_three_card_odds=version.super6_three_card_odds,
        bet_types=tuple(engine.BetType(bet) for bet in version.offered_bet_types()),
        rounding_unit=version.rounding_unit,
        rounding_mode=Rounding(version.rounding_mode),
        collection=engine.Collection(version.collection),
    )


def version_in_force_for(ruleset: Ruleset) -> BaccaratRulesetVersion | None:
    """The version of a Baccarat ruleset in force now."""
    version = version_in_force(model=BaccaratRulesetVersion, ruleset=ruleset)
    return version_with_rules(version.pk) if version else None


def cached_snapshot(version: BaccaratRulesetVersion) -> engine.Ruleset:
    """``ruleset_snapshot`` of an approved version, built once per process.

    Approved, active and retired versions never change, so their snapshot is cached by the
    version's identity and approval time. A draft is never cached.
    """
    if version.is_editable:
        return ruleset_snapshot(version_with_rules(version.pk))
    return _approved_snapshot(version.pk, version.approved_at)


# One per approved version read in this process: the versions in force at the venues' tables
# and the few a report or an integrity test reads back; 256 keeps them all without growing.
@lru_cache(maxsize=256)
def _approved_snapshot(pk: int, approved_at: datetime | None) -> engine.Ruleset:
    return ruleset_snapshot(version_with_rules(pk))


def behind_number(position: int) -> int | None:
    """The number of a player betting behind (position 8 is "Behind 1"); None for a seat."""
    return position - SEATS if position > SEATS else None


# --- Shoes


def current_shoe(session: TableSession) -> Shoe | None:
    """The session's shoe being dealt: its last one started; None while none was (shoe 1)."""
    return Shoe.objects.filter(session=session).order_by("-number").first()


def current_shoe_number(session: TableSession) -> int:
    """The number of the shoe being dealt at the session (1 before any was started)."""
    shoe = current_shoe(session)
    return shoe.number if shoe is not None else 1


def shoe_of(round_: Round) -> int:
    """The number of the shoe ``round_`` was dealt from: the last of its session's shoes
    started before the round was created (1 when none was)."""
    number = Shoe.objects.filter(
        session_id=round_.session_id, started_at__lte=round_.created_at
    ).aggregate(n=Max("number"))["n"]
    return number or 1


def shoe_rounds(session: TableSession, number: int) -> list[Round]:
    """The rounds of shoe ``number`` of the session, in order (every status)."""
    shoes = {shoe.number: shoe for shoe in Shoe.objects.filter(session=session)}
    rounds = Round.objects.filter(session=session).order_by("number")
    start = shoes.get(number)
    if start is not None:
        rounds = rounds.filter(created_at__gte=start.started_at)
    elif number != 1:
        return []
    following = [shoe for n, shoe in shoes.items() if n > number]
    if following:
        rounds = rounds.filter(created_at__lt=min(s.started_at for s in following))
    return list(rounds)


# --- The commission box


def commission_owed(session: TableSession) -> dict[int, Decimal]:
    """Position -> what it owes the commission box: the commission of the session's settled
    rounds on that position dealt under a version that collects into the box, less what was
    collected from it. A voided round's commission is no longer owed, so a seat whose box was
    collected before the void owes a negative amount (the house gives it back). Positions that
    owe nothing are left out."""
    box_versions = BaccaratRulesetVersion.objects.filter(collection=Collection.BOX).values("pk")
    charged = (
        Bet.objects.filter(
            box__round__session=session,
            box__round__status=RoundStatus.SETTLED,
            box__round__ruleset_version_id__in=Subquery(box_versions),
            commission__gt=0,
        )
        .values_list("box__position")
        .annotate(total=Sum("commission"))
    )
    owed: dict[int, Decimal] = dict(charged)
    collected = (
        CommissionCollection.objects.filter(session=session)
        .values_list("position")
        .annotate(total=Sum("amount"))
    )
    for position, amount in collected:
        owed[position] = owed.get(position, Decimal(0)) - amount
    return {position: owed[position] for position in sorted(owed) if owed[position]}

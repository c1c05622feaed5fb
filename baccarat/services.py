"""Writes of Baccarat: ruleset drafts and presets, the shoes of a session and its commission
box.

Statuses, numbering, approval and activation of rulesets are the shared services in
``casino.rulesets.services``. Locking: a shoe's start and a collection from the commission box
lock the session's ``TableSession`` row first (``select_for_update``), so two dealers cannot
both start shoe 3, nor collect one seat's commission twice.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from baccarat import engine
from baccarat.engine import presets
from baccarat.models import (
    OPTIONAL_BET_FIELDS,
    RULE_FIELDS,
    BaccaratAuditAction,
    BaccaratRulesetVersion,
    CommissionCollection,
    Shoe,
)
from baccarat.selectors import commission_owed, current_shoe
from casino.audit.services import audit_record
from casino.floor.models import Box, Round, TableSession
from casino.floor.services.rotation import check_may_deal
from casino.kernel.errors import Conflict, InvalidInput
from casino.kernel.money import plain
from casino.rulesets import services as rulesets
from casino.venues.models import Venue

# --- Rulesets


def _fill_rules(version: BaccaratRulesetVersion, rules: engine.Ruleset) -> None:
    """Write an engine snapshot's rules onto the saved, still empty ``version``."""
    version.decks = rules.decks
    version.variant = str(rules.variant)
    version.banker_commission = rules.banker_commission
    version.banker_six_odds = rules.banker_six_odds
    version.tie_odds = rules.tie_odds
    version.pair_odds = rules.pair_odds
    version.super6_two_card_odds = rules.super6_two_card_odds
    version.super6_three_card_odds = rules.super6_three_card_odds
    offered = {str(bet) for bet in rules.bet_types}
    for bet, field in OPTIONAL_BET_FIELDS.items():
        setattr(version, field, bet in offered)
    version.collection = str(rules.collection)
    version.full_clean(exclude=["ruleset"])
    version.save()


def version_save_draft(*, version: BaccaratRulesetVersion, user: Any) -> BaccaratRulesetVersion:
    """Save a draft's own fields (the admin form). A new draft gets the next number."""
    return rulesets.version_save_draft(
        model=BaccaratRulesetVersion,
        version=version,
        user=user,
        rule_fields=RULE_FIELDS,
        fill_default_rows=lambda draft: None,  # the rules are the version's own fields
    )


def preset_install(*, code: str) -> BaccaratRulesetVersion:
    """Install a shipped preset as a venue-less ruleset whose version 1 is active; installing
    one twice changes nothing."""
    return rulesets.preset_install(
        model=BaccaratRulesetVersion,
        game="baccarat",
        code=code,
        rules=presets.get(code),
        fill=_fill_rules,
    )


def venue_ruleset_from_preset(
    *, venue: Venue, preset_code: str, editor: Any, **options: Any
) -> BaccaratRulesetVersion:
    """Give ``venue`` its own ruleset copied from a preset, as a draft by ``editor``; with an
    ``approver`` (another person) approved and activated at once.

    ``options``: ``approver``, ``code``, ``name``, ``override_reason``
    (``casino.rulesets.services.preset_copy_to_venue``).
    """
    return rulesets.preset_copy_to_venue(
        model=BaccaratRulesetVersion,
        game="baccarat",
        venue=venue,
        preset_code=preset_code,
        rules=presets.get(preset_code),
        fill=_fill_rules,
        editor=editor,
        **options,
    )


# --- Shoes and the commission box


def _lock_open_session(session: TableSession, user: Any) -> TableSession:
    locked = (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("table__venue", "dealer")
        .get(pk=session.pk)
    )
    if locked.status != TableSession.Status.OPEN:
        raise Conflict(
            _("table %(table)s's session is %(status)s: open a session to deal a shoe")
            % {"table": locked.table.code, "status": locked.get_status_display()},
            reason="session_not_open",
        )
    check_may_deal(user=user, session=locked)
    return locked


def _owing(owed: dict[int, Decimal]) -> str:
    """What each seat's commission box holds, in words: "seat 3 owes 150"."""
    owes = _("seat %(position)s owes %(amount)s")
    owed_back = _("seat %(position)s is owed %(amount)s back")
    return ", ".join(
        str(owes if amount > 0 else owed_back)
        % {"position": position, "amount": plain(abs(amount))}
        for position, amount in owed.items()
    )


def close_refusal(session: TableSession) -> tuple[str, str] | None:
    """Why the session may not close yet: a seat's commission box not settled (the count
    would show what is owed as a variance, and nobody would collect it)."""
    owed = commission_owed(session)
    if not owed:
        return None
    return (
        _("collect the commission box before closing the table: %(owing)s")
        % {"owing": _owing(owed)},
        "commission_owed",
    )


@transaction.atomic
def shoe_start(*, session: TableSession, user: Any) -> Shoe:
    """Start the session's next shoe (its number one more than the last; 2 when rounds were
    dealt from the first before any shoe was recorded, 1 otherwise).

    Refused while a seat's commission box is not settled (it owes, or a void left it owed
    back): the box is collected at the end of the shoe. Locks the session's row.
    """
    session = _lock_open_session(session, user)
    owed = commission_owed(session)
    if owed:
        raise Conflict(
            _("collect the commission box first: %(owing)s") % {"owing": _owing(owed)},
            reason="commission_owed",
        )
    last = current_shoe(session)
    if last is not None:
        number = last.number + 1
    else:
        number = 2 if Round.objects.filter(session=session).exists() else 1
    shoe = Shoe.objects.create(
        session=session, number=number, started_at=timezone.now(), started_by=user
    )
    audit_record(
        user=user,
        action=BaccaratAuditAction.SHOE_START,
        obj=shoe,
        venue=session.table.venue,
        summary=f"table {session.table.code}: shoe {number} started",
        after={"session": session.pk, "shoe": number},
    )
    return shoe


@transaction.atomic
def commission_collect(
    *, session: TableSession, position: int, user: Any, reason: str = ""
) -> CommissionCollection:
    """Collect what seat ``position`` owes the commission box (or give back what it is owed,
    after a void of a round already collected). Refused when it owes nothing.

    Locks the session's row, so the same commission is never collected twice.
    """
    session = _lock_open_session(session, user)
    owed = commission_owed(session).get(position, Decimal(0))
    if not owed:
        raise InvalidInput(
            _("seat %(position)s owes no commission: there is nothing to collect")
            % {"position": position},
            field="position",
            reason="nothing_owed",
        )
    last_box = (
        Box.objects.filter(round__session=session, position=position)
        .order_by("-round__number")
        .only("player_id")
        .first()
    )
    collection = CommissionCollection.objects.create(
        session=session,
        position=position,
        player_id=last_box.player_id if last_box is not None else None,
        amount=owed,
        shoe=current_shoe(session),
        collected_by=user,
        collected_at=timezone.now(),
        reason=reason[:255],
    )
    audit_record(
        user=user,
        action=BaccaratAuditAction.COMMISSION_COLLECT,
        obj=collection,
        venue=session.table.venue,
        summary=f"table {session.table.code}: seat {position} commission {plain(owed)}",
        after={"session": session.pk, "position": position, "amount": str(owed)},
    )
    return collection

"""Who is too close to a case to decide or file it: a compliance officer who, on one of the
case's gaming days, dealt at a table where its player (or the unknown patron it is about)
played or bought in, supervised that table's session, or recorded one of the person's cash
movements (at the cage or at a table). ``case_conflict_refusal`` is the one place it is
said; ``casino.compliance.services`` raises it where a case is decided or filed, so the
page, the API and every other caller refuse alike.

What it reads:
- the case's people: its member (with whoever's cash adds up with theirs,
  ``casino.cage.cash_log.cash_people``) and the unknown patrons its evidence names (an
  alert's or a transaction's), each with the member they were linked to;
- the case's gaming days: those of the alerts and transactions its evidence names, else the
  venue's gaming date when it was detected;
- the tables' sessions of those days where the person bought in, cashed out or sat at a box
  of a round; at each, who dealt (the session's dealer, a dealer's spell, a round's dealer,
  its opener) and who supervised (its opening confirmed, its closing counted or closed, a
  supervisor named to the table's pit, as named now);
- the person's rows of the cash log on those days (``casino.cage.cash_log.cash_log``) and
  who recorded each.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from casino.cage.cash_log import People, cash_log, cash_people
from casino.cage.models import CashAlert, CashTransaction, UnknownPatron
from casino.cage.services.thresholds import gaming_date_at
from casino.compliance.models import SuspicionCase
from casino.floor.models import Box, Round, TableSession
from casino.kernel.errors import Forbidden
from casino.venues.models import DealerSpell


def _refs(case: SuspicionCase, kind: str) -> set[int]:
    return {line["ref"] for line in case.evidence or [] if line.get("kind") == kind}


def case_days(case: SuspicionCase) -> list[date]:
    """The gaming days the case's evidence is of (the day it was detected, when it names
    no alert nor transaction)."""
    days = set(
        CashAlert.objects.filter(
            venue_id=case.venue_id, pk__in=_refs(case, "cash_alert")
        ).values_list("gaming_date", flat=True)
    ) | set(
        CashTransaction.objects.filter(
            venue_id=case.venue_id, pk__in=_refs(case, "cash_transaction")
        ).values_list("gaming_date", flat=True)
    )
    return sorted(days) or [gaming_date_at(case.venue, case.detected_at)]


def case_people(case: SuspicionCase) -> People:
    """Whose cash the case is about: its member's people and those of the unknown patrons
    its evidence names."""
    patron_ids = set(
        CashAlert.objects.filter(
            venue_id=case.venue_id, pk__in=_refs(case, "cash_alert"), unknown_patron__isnull=False
        ).values_list("unknown_patron_id", flat=True)
    ) | set(
        CashTransaction.objects.filter(
            venue_id=case.venue_id,
            pk__in=_refs(case, "cash_transaction"),
            unknown_patron__isnull=False,
        ).values_list("unknown_patron_id", flat=True)
    )
    everyone = [cash_people(player=case.player)] if case.player_id else []
    everyone += [
        cash_people(unknown_patron=patron)
        for patron in UnknownPatron.objects.filter(pk__in=patron_ids).select_related("member")
    ]
    return People(
        player_ids=tuple(sorted({i for p in everyone for i in p.player_ids})),
        patron_ids=tuple(sorted({i for p in everyone for i in p.patron_ids})),
    )


def _sessions(case: SuspicionCase, days: list[date], people: People) -> Any:
    """The tables' sessions of the days where the people bought in, cashed out or played."""
    cash = CashTransaction.objects.filter(
        Q(player_id__in=people.player_ids) | Q(unknown_patron_id__in=people.patron_ids),
        venue_id=case.venue_id,
        gaming_date__in=days,
    ).values("session_id")
    boxes = Box.objects.filter(player_id__in=people.player_ids).values("round__session_id")
    return TableSession.objects.filter(
        Q(pk__in=cash) | Q(pk__in=boxes), table__venue_id=case.venue_id, shift__gaming_date__in=days
    )


def case_conflict_refusal(*, user: Any, case: SuspicionCase) -> Forbidden | None:
    """Why ``user`` is too close to the case's player to decide or file it, or None (see
    the module's docstring)."""
    days, people = case_days(case), case_people(case)
    if not people.player_ids and not people.patron_ids:
        return None
    sessions = _sessions(case, days, people).select_related("table", "shift")
    dealt = sessions.filter(
        Q(dealer=user)
        | Q(opened_by=user)
        | Exists(DealerSpell.objects.filter(session=OuterRef("pk"), dealer=user))
        | Exists(Round.objects.filter(session=OuterRef("pk"), dealer=user))
    ).first()
    if dealt is not None:
        return Forbidden(
            _(
                "You dealt at table %(table)s on %(date)s, where the case's player played: "
                "another compliance officer decides and files this case."
            )
            % {"table": dealt.table.code, "date": dealt.shift.gaming_date.isoformat()},
            reason="dealt_to_player",
        )
    supervised = sessions.filter(
        Q(opening_confirmed_by=user)
        | Q(closing_counted_by=user)
        | Q(closed_by=user)
        | Q(table__pit__supervisors=user)
    ).first()
    if supervised is not None:
        return Forbidden(
            _(
                "You supervised table %(table)s on %(date)s, where the case's player played: "
                "another compliance officer decides and files this case."
            )
            % {"table": supervised.table.code, "date": supervised.shift.gaming_date.isoformat()},
            reason="supervised_player",
        )
    return _recorded_refusal(user, case, days, people)


def _recorded_refusal(
    user: Any, case: SuspicionCase, days: list[date], people: People
) -> Forbidden | None:
    for day in days:
        for row in cash_log(gaming_date=day, venue=case.venue, people=people):
            if getattr(row.recorded_by, "pk", None) == user.pk:
                return Forbidden(
                    _(
                        "You recorded a movement of the case's player (%(kind)s at %(where)s "
                        "on %(date)s): another compliance officer decides and files this case."
                    )
                    % {"kind": row.kind_label, "where": row.where, "date": day.isoformat()},
                    reason="recorded_movement",
                )
    return None

"""Who is too close to a case to decide or file it: a compliance officer who, on one of the
case's gaming days, dealt at a table where its player (or the unknown patron it is about)
played or bought in, supervised that table's session, or recorded one of the person's cash
movements (at the cage or at a table). ``case_conflict_refusal`` is the one place it is
said; ``casino.compliance.services`` raises it where a case is decided or filed, so the
page, the API and every other caller refuse alike. The officer who dealt or supervised does
not read the case either (``case_read_refusal``, asked by the case's page, its API and the
admin; the lists leave such cases out, ``cases_hidden_from``).

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
    return _floor_refusal(user, case, days, people) or _recorded_refusal(user, case, days, people)


def case_read_refusal(*, user: Any, case: SuspicionCase) -> Forbidden | None:
    """Why ``user`` may not read the case although compliance staff of its venue: they dealt
    to its player or supervised their table on its days (the player's dealer and supervisor
    never see a case about them); None when they may. Asked by the case's page, its API
    and the admin, after the role's own check (``services.compliance_refusal``)."""
    if not worked_the_floor(user, case.venue_id):
        return None
    return _too_close_to_read(user, case)


def _too_close_to_read(user: Any, case: SuspicionCase) -> Forbidden | None:
    days, people = case_days(case), case_people(case)
    if not people.player_ids and not people.patron_ids:
        return None
    return _floor_refusal(user, case, days, people)


def worked_the_floor(user: Any, venue_id: int) -> bool:
    """Whether ``user`` ever dealt or supervised at the venue's tables: most compliance staff
    never did, and for them no case is too close to read (two queries, whatever the cases)."""
    mine = (
        Q(dealer=user)
        | Q(opened_by=user)
        | Q(opening_confirmed_by=user)
        | Q(closing_counted_by=user)
        | Q(closed_by=user)
        | Q(table__pit__supervisors=user)
        | Exists(DealerSpell.objects.filter(session=OuterRef("pk"), dealer=user))
    )
    sessions = TableSession.objects.filter(table__venue_id=venue_id)
    return (
        sessions.filter(mine).exists()
        or Round.objects.filter(session__table__venue_id=venue_id, dealer=user).exists()
    )


def cases_hidden_from(user: Any, venue_id: int, cases: Any) -> set[int]:
    """The ids among ``cases`` (of the venue) that ``user`` may not read
    (``case_read_refusal``): none without a floor of theirs at the venue."""
    if not worked_the_floor(user, venue_id):
        return set()
    return {case.pk for case in cases if _too_close_to_read(user, case) is not None}


def _floor_refusal(
    user: Any, case: SuspicionCase, days: list[date], people: People
) -> Forbidden | None:
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
    return None


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

"""When the system is down: a table's pre-numbered paper forms, issued in advance and entered
afterwards by a supervisor, each flagged as a late entry (``casino.cage.manual``).

1. A manager or the cage's cashier issues a **series** for a table: a kind (fill slip,
   credit slip, round sheet), a prefix unique at the venue and a number range
   (``manual_series_issue``); it is printed in advance as a sheet of numbered forms.
2. While the system is down the table writes on the forms: a fill or credit signed on paper
   by the cage's cashier, the table's dealer and a supervisor; each round on a round sheet
   (the cards, the bets, the result).
3. When the system is back, before the table's session closes, a supervisor enters each
   paper with its number and the time written on it: a slip (``manual_slip_enter``) through
   the slips' own services, requested, signed by the paper's three signers at the paper's
   time and posted by whoever enters it; a round (``manual_round_enter``) dealt and settled
   by ``round_create_written`` and ``round_settle_written``, so its bets, ledger entries and
   figures are exactly those of a round played live. A form spoiled on paper (torn, written
   over, never used) is recorded as spoiled with the reason (``manual_paper_spoil``).
4. A number is used once in its series (a unique constraint, and a refusal saying how it
   was used). A number below the highest used that is neither entered nor spoiled is a gap,
   and the gaming day's count does not close while one of its tables' series has a gap
   (``casino.count.services.count_close``, which asks ``casino.cage.manual_selectors``).

The entered slip or round is flagged late by its paper (``ManualPaper``: who entered it,
when, the paper number, the time written): the late-entry screens and the day's paper
reconciliation read it (``casino.cage.manual_selectors``).

Locking: the series row first (so two supervisors entering the same number wait for each
other and the second is refused), then what the slips' and rounds' services lock (the
session's row, then the venue's). Issuing a series locks the venue row.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.cage.manual import (
    MAX_SERIES_LENGTH,
    ManualKind,
    ManualPaper,
    ManualSeries,
    PaperStatus,
)
from casino.cage.models import Slip
from casino.cage.services.inventory import slip_move
from casino.cage.services.slips import slip_request, slip_to_ledger
from casino.floor.models import TableSession
from casino.floor.services.rounds import round_create_written
from casino.floor.services.settlement import round_settle_written
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.kernel.timezones import venue_time
from casino.staff.policy import Capability, allows
from casino.staff.roles import CASHIER, PLAY, SUPERVISE, can, venue_ids
from casino.venues.models import Table, Venue

_PREFIX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,15}$")
#: The runner written on a paper slip (the paper names none the system keeps).
PAPER_RUNNER = "paper"


@transaction.atomic
def manual_series_issue(
    *, table: Table, user: Any, kind: str, prefix: str, first: int, last: int
) -> ManualSeries:
    """Issue a series of ``kind`` forms for ``table``, numbered ``first`` to ``last`` after
    ``prefix``. A manager or the cage's cashier issues it; the prefix names one series at
    the venue. Locks the venue row."""
    if table.venue_id not in venue_ids(user):
        raise NotFound(_("there is no such table at your venues"), field="table")
    if not allows(user, Capability.MANUAL_SERIES, table.venue_id):
        raise Forbidden(
            _("only a manager or the cage's cashier issues a manual series"),
            reason="not_series_issuer",
        )
    if kind not in ManualKind.values:
        raise InvalidInput(
            _("%(kind)s is not a kind of form: use fill, credit or round") % {"kind": kind},
            field="kind",
            reason="series_kind",
        )
    prefix = (prefix or "").strip()
    if not _PREFIX.match(prefix):
        raise InvalidInput(
            _("a prefix is 1 to 16 letters, digits or dashes, starting with a letter or digit"),
            field="prefix",
            reason="series_prefix",
        )
    _check_range(first, last)
    venue = Venue.objects.select_for_update().get(pk=table.venue_id)
    taken = ManualSeries.objects.filter(venue=venue, prefix=prefix).first()
    if taken is not None:
        raise Conflict(
            _("prefix %(prefix)s already names series %(series)s; choose another prefix")
            % {"prefix": prefix, "series": taken.label},
            field="prefix",
            reason="series_prefix_taken",
        )
    series = ManualSeries.objects.create(
        venue=venue,
        table=table,
        kind=kind,
        prefix=prefix,
        first=first,
        last=last,
        issued_by=user,
        issued_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.MANUAL_SERIES_ISSUE,
        obj=series,
        venue=venue,
        summary=f"issued {kind} series {series.label} for table {table.code}",
        after={"table": table.code, "kind": kind, "prefix": prefix, "first": first, "last": last},
    )
    return series


def _check_range(first: int, last: int) -> None:
    if first < 1 or last < first:
        raise InvalidInput(
            _("a series runs from a first number of 1 or more to a last number not below it"),
            field="last",
            reason="series_range",
        )
    if last - first + 1 > MAX_SERIES_LENGTH:
        raise InvalidInput(
            _("a series holds at most %(most)s forms; issue another series for more")
            % {"most": MAX_SERIES_LENGTH},
            field="last",
            reason="series_too_long",
        )


def _series_to_use(series: ManualSeries, user: Any, number: int) -> ManualSeries:
    """The series, locked, once ``user`` may enter its papers and ``number`` is one of its
    forms not used yet."""
    if series.venue_id not in venue_ids(user):
        raise NotFound(_("there is no such manual series at your venues"), field="series")
    if not allows(user, Capability.ENTER_PAPER, series.venue_id):
        raise Forbidden(
            _("only a supervisor enters paper forms or records one as spoiled"),
            reason="not_paper_enterer",
        )
    series = ManualSeries.objects.select_for_update().select_related("table").get(pk=series.pk)
    if not series.first <= number <= series.last:
        raise InvalidInput(
            _("series %(series)s has no number %(number)s")
            % {"series": series.label, "number": number},
            field="number",
            reason="paper_not_in_series",
        )
    used = ManualPaper.objects.filter(series=series, number=number).first()
    if used is not None:
        raise Conflict(_used(used, series), field="number", reason="paper_used")
    return series


def _used(paper: ManualPaper, series: ManualSeries) -> str:
    label = series.number_label(paper.number)
    if paper.status == PaperStatus.SPOILED:
        return _("paper %(paper)s was recorded as spoiled: %(reason)s") % {
            "paper": label,
            "reason": paper.reason,
        }
    return _("paper %(paper)s is entered already, by %(user)s") % {
        "paper": label,
        "user": paper.recorded_by.get_username(),
    }


def _session_of(series: ManualSeries, session: TableSession, written_at: datetime) -> None:
    """The paper was written at the series' table, in ``session``, still open, at a time
    between its opening and now."""
    session = TableSession.objects.select_related("table").get(pk=session.pk)
    if session.table_id != series.table_id:
        raise InvalidInput(
            _("series %(series)s is table %(table)s's; enter its papers in that table's session")
            % {"series": series.label, "table": series.table.code},
            field="session",
            reason="paper_other_table",
        )
    if session.status != TableSession.Status.OPEN:
        raise Conflict(
            _(
                "table %(table)s's session is closed: paper is entered before the session it "
                "was played in closes. Record this paper as spoiled with the reason; the "
                "day's reconciliation shows what it held as a difference."
            )
            % {"table": series.table.code},
            field="session",
            reason="paper_session_closed",
        )
    if timezone.is_naive(written_at) or not session.opened_at <= written_at <= timezone.now():
        raise InvalidInput(
            _(
                "the time on the paper must be between the table's opening (%(opened)s) and "
                "now; enter it as written, with its date"
            )
            % {"opened": venue_time(session.opened_at, series.venue)},
            field="written_at",
            reason="paper_time",
        )


def _kind_is(series: ManualSeries, *kinds: str) -> None:
    if series.kind not in kinds:
        raise InvalidInput(
            _("series %(series)s holds %(kind)s forms")
            % {
                "series": series.label,
                "kind": str(series.get_kind_display()).lower(),
            },
            field="series",
            reason="paper_wrong_kind",
        )


def _check_signers(venue_id: int, user: Any, cashier: Any, dealer: Any, supervisor: Any) -> None:
    """The paper slip's signers: the cage's cashier, a dealer and a supervisor of the venue,
    three people; whoever enters it is not its cashier (who does not post what they issued)."""
    for field, person, roles, says in (
        ("cashier", cashier, CASHIER, _("%(user)s is not a cashier of the cage here")),
        ("dealer", dealer, PLAY, _("%(user)s does not deal at this venue")),
        ("supervisor", supervisor, SUPERVISE, _("%(user)s does not supervise at this venue")),
    ):
        if person is None or not can(person, roles, venue_id):
            name = person.get_username() if person is not None else "—"
            raise InvalidInput(says % {"user": name}, field=field, reason="paper_signer")
    if len({cashier.pk, dealer.pk, supervisor.pk}) != 3:
        raise InvalidInput(
            _("a slip's cashier, dealer and supervisor are three people; name each as signed"),
            field="supervisor",
            reason="paper_signers_differ",
        )
    if cashier.pk == user.pk:
        raise Forbidden(
            _("you signed this slip as its cashier; another supervisor enters it"),
            reason="paper_own_slip",
        )


@transaction.atomic
def manual_slip_enter(
    *,
    series: ManualSeries,
    user: Any,
    number: int,
    session: TableSession,
    chips: Mapping[str, Any],
    written_at: datetime,
    cashier: Any,
    dealer: Any,
    supervisor: Any,
) -> ManualPaper:
    """Enter paper slip ``number`` of ``series`` (a fill or credit series): ``chips`` as
    written, at ``written_at``, signed on paper by ``cashier``, ``dealer`` and
    ``supervisor``. The slip is requested through ``slip_request`` (its number in the venue's
    year, the session's limits), takes the paper's signatures at the paper's time and is
    posted to the ledger by ``user``; its paper flags it late. Locks the series row, then
    the session's and the venue's."""
    series = _series_to_use(series, user, number)
    _kind_is(series, ManualKind.FILL, ManualKind.CREDIT)
    _session_of(series, session, written_at)
    _check_signers(series.venue_id, user, cashier, dealer, supervisor)
    slip = slip_request(session=session, user=user, kind=series.kind, chips=chips)
    slip.issued_by, slip.issued_at, slip.runner = cashier, written_at, PAPER_RUNNER
    slip.dealer_confirmed_by, slip.dealer_confirmed_at = dealer, written_at
    slip.supervisor_confirmed_by, slip.supervisor_confirmed_at = supervisor, written_at
    fields = ["issued_by", "issued_at", "runner", "dealer_confirmed_by", "dealer_confirmed_at"]
    fields += ["supervisor_confirmed_by", "supervisor_confirmed_at"]
    if slip.kind == Slip.Kind.CREDIT:
        slip.received_by, slip.received_at = cashier, written_at
        fields += ["received_by", "received_at"]
    slip.save(update_fields=fields)
    # The paper's chips moved the cage as a live slip's do (a fill's left it, a credit's came
    # in), at the time written on the paper.
    slip_move(slip=slip, user=user, at=written_at)
    slip_to_ledger(slip, user)
    paper = ManualPaper.objects.create(
        series=series,
        number=number,
        status=PaperStatus.ENTERED,
        slip=slip,
        written_at=written_at,
        recorded_by=user,
        recorded_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.MANUAL_SLIP_ENTER,
        obj=paper,
        venue=series.venue,
        summary=(
            f"entered paper {paper.label} late as {slip.kind} {slip.label} of {slip.amount} "
            f"at {series.table.code}"
        ),
        after={
            "paper": paper.label,
            "slip": slip.label,
            "amount": str(slip.amount),
            "written_at": written_at.isoformat(),
            "signed": [cashier.get_username(), dealer.get_username(), supervisor.get_username()],
        },
    )
    return paper


@transaction.atomic
def manual_round_enter(
    *,
    series: ManualSeries,
    user: Any,
    number: int,
    session: TableSession,
    dealer_cards: str,
    boxes: Sequence[BoxInput],
    written_at: datetime,
) -> ManualPaper:
    """Enter round sheet ``number`` of ``series``: the cards and bets as written, dealt and
    settled through the floor's services (under the rules in force, checked as a live
    round is), the round the session's next; its paper flags it late. Locks the series
    row, then the session's (``round_create_written``) and the round's."""
    series = _series_to_use(series, user, number)
    _kind_is(series, ManualKind.ROUND)
    _session_of(series, session, written_at)
    key = f"paper-{series.pk}-{number}"
    dealt = round_create_written(
        session=session, user=user, dealer_cards=dealer_cards, boxes=boxes, create_key=key
    )
    settled = round_settle_written(round_=dealt.round, user=user, key=key, dealt=dealt)
    paper = ManualPaper.objects.create(
        series=series,
        number=number,
        status=PaperStatus.ENTERED,
        round=settled.round,
        written_at=written_at,
        recorded_by=user,
        recorded_at=timezone.now(),
    )
    audit_record(
        user=user,
        action=AuditAction.MANUAL_ROUND_ENTER,
        obj=paper,
        venue=series.venue,
        summary=(
            f"entered round sheet {paper.label} late as round {settled.round.number} at "
            f"{series.table.code}: house {settled.result.house_net}"
        ),
        after={
            "paper": paper.label,
            "round": settled.round.number,
            "house_net": str(settled.result.house_net),
            "written_at": written_at.isoformat(),
        },
    )
    return paper


@transaction.atomic
def manual_paper_spoil(*, series: ManualSeries, user: Any, number: int, reason: str) -> ManualPaper:
    """Record paper ``number`` of ``series`` as spoiled (torn, written over, lost, never
    used), saying why: it is no longer a gap. Locks the series row."""
    series = _series_to_use(series, user, number)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(
            _("say why the paper is spoiled"), field="reason", reason="reason_missing"
        )
    paper = ManualPaper.objects.create(
        series=series,
        number=number,
        status=PaperStatus.SPOILED,
        recorded_by=user,
        recorded_at=timezone.now(),
        reason=reason[:255],
    )
    audit_record(
        user=user,
        action=AuditAction.MANUAL_PAPER_SPOIL,
        obj=paper,
        venue=series.venue,
        summary=f"recorded paper {paper.label} as spoiled: {reason[:200]}",
        after={"paper": paper.label, "status": PaperStatus.SPOILED, "reason": reason[:255]},
    )
    return paper

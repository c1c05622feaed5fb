"""A suspicious-activity case from its draft to its filing (casino.compliance.services):
two people, the reviewer never the author; its deadline per jurisdiction; overdue cases;
its steps append-only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from casino.audit.models import AuditAction, AuditEvent
from casino.compliance import selectors
from casino.compliance.deadlines import DEFAULT_DAYS, case_deadline, filing_deadline
from casino.compliance.models import CaseStatus, CaseStep, SuspicionCase
from casino.compliance.services import (
    case_decide,
    case_file,
    case_open,
    case_open_from_alert,
    case_submit,
)
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.roles import AUDITOR, CAGE, COUNT, DEALER, MANAGER, SUPERVISOR
from tests.factories import staff

pytestmark = pytest.mark.django_db

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_a_case_goes_from_draft_to_filing_by_two_people(floor, desk, case):
    assert (case.status, case.opened_by, case.source) == ("draft", desk.author, "person")
    # the reviewer may not submit the author's draft
    with pytest.raises(Forbidden):
        case_submit(case=case, user=desk.reviewer)
    case = case_submit(case=case, user=desk.author, note="ready")
    assert case.status == CaseStatus.IN_REVIEW
    # four eyes: the author does not decide their own case
    with pytest.raises(Forbidden) as refused:
        case_decide(case=case, user=desk.author, decision="file", reasons="clear pattern")
    assert refused.value.reason == "four_eyes"
    with pytest.raises(InvalidInput):
        case_decide(case=case, user=desk.reviewer, decision="file", reasons=" ")
    case = case_decide(case=case, user=desk.reviewer, decision="file", reasons="clear pattern")
    assert (case.status, case.decision, case.decided_by) == ("decided", "file", desk.reviewer)
    # the filer may be the author
    with pytest.raises(InvalidInput):
        case_file(case=case, user=desk.author, reference="")
    case = case_file(case=case, user=desk.author, reference="STR-2026-0042")
    assert (case.status, case.filing_reference, case.filed_by) == (
        "filed",
        "STR-2026-0042",
        desk.author,
    )
    assert [(step.step, step.by) for step in case.steps.order_by("at", "id")] == [
        ("open", desk.author),
        ("submit", desk.author),
        ("decide", desk.reviewer),
        ("file", desk.author),
    ]
    actions = list(
        AuditEvent.objects.filter(object_id=str(case.pk), action__startswith="compliance.")
        .order_by("id")
        .values_list("action", "user__username")
    )
    assert actions == [
        (AuditAction.COMPLIANCE_CASE_OPEN, "aml-author"),
        (AuditAction.COMPLIANCE_CASE_SUBMIT, "aml-author"),
        (AuditAction.COMPLIANCE_CASE_DECIDE, "aml-reviewer"),
        (AuditAction.COMPLIANCE_CASE_FILE, "aml-author"),
    ]
    with pytest.raises(Conflict):
        case_file(case=case, user=desk.reviewer, reference="again")


def test_a_case_decided_against_filing_is_settled_and_never_filed(floor, desk, case):
    case = case_submit(case=case, user=desk.author)
    case = case_decide(case=case, user=desk.reviewer, decision="no_filing", reasons="winnings")
    assert case.settled
    with pytest.raises(Conflict):
        case_file(case=case, user=desk.author, reference="STR-1")
    with pytest.raises(Conflict):
        case_submit(case=case, user=desk.author)


def test_the_system_opens_a_case_from_an_alert_and_whoever_submits_it_is_its_author(floor, desk):
    case = case_open_from_alert(
        venue=floor.venue,
        player=desk.player,
        grounds="A day's cash in reached the reporting threshold.",
        evidence=[
            {"kind": "cash_alert", "ref": desk.alert.pk},
            {"kind": "cash_transaction", "ref": desk.alert.transaction_id},
        ],
        detected_at=desk.alert.raised_at,
    )
    assert (case.source, case.opened_by, case.detected_at) == ("alert", None, desk.alert.raised_at)
    assert case.steps.get().by is None
    case = case_submit(case=case, user=desk.reviewer)
    with pytest.raises(Forbidden):
        case_decide(case=case, user=desk.reviewer, decision="file", reasons="x")
    case = case_decide(case=case, user=desk.author, decision="file", reasons="x")
    lines = selectors.case_evidence(case)
    assert [line.alert for line in lines] == [desk.alert, None]
    assert lines[1].transaction.pk == desk.alert.transaction_id


def test_an_unknown_patron_is_described_and_someone_must_be(floor, desk):
    case = case_open(
        venue=floor.venue,
        user=desk.author,
        subject_description="Man, 40s, grey jacket, table NN1, 21:10",
        grounds="Bought in 99m in cash, left without playing.",
    )
    assert case.player is None and case.subject.startswith("Man, 40s")
    with pytest.raises(InvalidInput) as nobody:
        case_open(venue=floor.venue, user=desk.author, grounds="Something odd.")
    assert nobody.value.field == "subject"


@pytest.mark.parametrize("role", [DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT])
def test_no_floor_role_opens_or_takes_a_step_of_a_case(floor, desk, case, role):
    user = staff(f"floor-{role}", role, floor.venue)
    with pytest.raises(Forbidden):
        case_open(venue=floor.venue, user=user, player=desk.player, grounds="x")
    with pytest.raises(Forbidden):
        case_submit(case=case, user=user)


def test_compliance_at_another_venue_takes_no_step(floor, desk, case):
    case = case_submit(case=case, user=desk.author)
    with pytest.raises(Forbidden):
        case_decide(case=case, user=desk.elsewhere, decision="file", reasons="x")


@pytest.mark.parametrize(
    ("jurisdiction", "days"),
    # from Tuesday 1 December: Vietnam's 3 working days and Macau's 2 fall in the week;
    # Korea's "without delay" is a day; no jurisdiction (or one not kept): 30 days
    [("VN", 3), ("KR", 1), ("MO", 2), ("", DEFAULT_DAYS), ("ZZ", 30)],
)
def test_the_deadline_is_the_jurisdictions(jurisdiction, days):
    venue = SimpleNamespace(jurisdiction=jurisdiction)
    assert filing_deadline(venue, START) == START + timedelta(days=days)


def test_working_days_skip_the_weekend_on_the_venues_calendar():
    # Friday 4 December 16:00 in Hà Nội (09:00 UTC): 3 working days is Wednesday 9 December
    friday = START + timedelta(days=3)
    hanoi = SimpleNamespace(jurisdiction="VN", timezone="Asia/Ho_Chi_Minh")
    assert filing_deadline(hanoi, friday) == friday + timedelta(days=5)
    # Friday 23:30 UTC is Saturday 07:30 in Macau: 2 working days from it is Tuesday
    late = datetime(2026, 12, 4, 23, 30, tzinfo=UTC)
    macau = SimpleNamespace(jurisdiction="MO", timezone="Asia/Macau")
    assert filing_deadline(macau, late) == late + timedelta(days=3)


def test_the_deadline_counts_from_detection_or_decision_as_the_jurisdiction_says():
    decided = START + timedelta(days=5)
    vietnam, korea = SimpleNamespace(jurisdiction="VN"), SimpleNamespace(jurisdiction="KR")
    # Viet Nam counts from the detection, whenever it is decided
    assert case_deadline(vietnam, detected_at=START, decided_at=decided) == START + timedelta(3)
    # Korea from the decision; before it, from the detection
    assert case_deadline(korea, detected_at=START, decided_at=None) == START + timedelta(1)
    assert case_deadline(korea, detected_at=START, decided_at=decided) == decided + timedelta(1)
    # a venue that names no jurisdiction: 30 days from the decision
    none = SimpleNamespace()
    assert case_deadline(none, detected_at=START, decided_at=decided) == decided + timedelta(30)


def test_the_deadline_is_set_at_opening_and_again_at_the_decision(floor, desk, case):
    assert case.deadline == case.detected_at + timedelta(days=DEFAULT_DAYS)
    case = case_submit(case=case, user=desk.author)
    case = case_decide(case=case, user=desk.reviewer, decision="file", reasons="x")
    assert case.deadline == case.decided_at + timedelta(days=DEFAULT_DAYS)


def test_a_case_past_its_deadline_is_overdue_until_it_is_filed(floor, desk):
    late = case_open(
        venue=floor.venue,
        user=desk.author,
        player=desk.player,
        grounds="Structuring over a month.",
        detected_at=timezone.now() - timedelta(days=DEFAULT_DAYS + 1),
    )
    on_time = case_open(venue=floor.venue, user=desk.author, player=desk.player, grounds="New.")
    assert selectors.is_overdue(late) and not selectors.is_overdue(on_time)
    assert list(selectors.cases(venue=floor.venue, overdue=True)) == [late]
    late = case_submit(case=late, user=desk.author)
    late = case_decide(case=late, user=desk.reviewer, decision="file", reasons="x")
    SuspicionCase.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(hours=1))
    late.refresh_from_db()
    assert selectors.is_overdue(late)
    case_file(case=late, user=desk.reviewer, reference="STR-9")
    assert list(selectors.cases(venue=floor.venue, overdue=True)) == []
    assert list(selectors.cases(venue=floor.venue, status="filed")) == [late]


def test_a_step_is_never_changed_nor_a_case_deleted(floor, desk, case):
    step = case.steps.get()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        CaseStep.objects.filter(pk=step.pk).update(note="rewritten")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        CaseStep.objects.filter(pk=step.pk).delete()
    # below Django's own PROTECT of the case's steps
    with (
        pytest.raises(DatabaseError, match="never deleted"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM compliance_suspicioncase WHERE id = %s", [case.pk])
    assert CaseStep.objects.get(pk=step.pk).note == case.grounds


def test_a_case_the_system_opens_says_what_raised_it(floor, desk):
    with pytest.raises(InvalidInput):
        case_open_from_alert(
            venue=floor.venue,
            player=desk.player,
            grounds="x",
            evidence=[],
            detected_at=timezone.now(),
            source="person",
        )


def test_evidence_names_only_the_venues_alerts_and_transactions(floor, desk):
    with pytest.raises(InvalidInput) as foreign:
        case_open(
            venue=floor.venue,
            user=desk.author,
            player=desk.player,
            grounds="x",
            evidence=[{"kind": "cash_alert", "ref": desk.alert.pk + 1000}],
        )
    assert foreign.value.field == "evidence"
    with pytest.raises(InvalidInput):
        case_open(
            venue=floor.venue,
            user=desk.author,
            player=desk.player,
            grounds="x",
            evidence=[{"kind": "rumour", "ref": 1}],
        )

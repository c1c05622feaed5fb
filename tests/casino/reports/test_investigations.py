"""Fluctuation investigations: opened by a report's flags, worked and signed off by two
managers, closed with an outcome; the list, the dashboard's overdue ones and the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.integrity import investigation_steps as steps
from casino.integrity.investigations import venue_managers
from casino.integrity.models import FluctuationInvestigation, InvestigationNote
from casino.kernel.errors import Forbidden
from casino.kernel.timezones import venue_today
from casino.reports import outputs, services
from casino.staff.roles import MANAGER
from niuniu.models import NiuNiuRulesetVersion
from tests.casino.reports.conftest import FIGURES
from tests.factories import staff

pytestmark = pytest.mark.django_db
#: Tiny SDs: the night shift's NN1 and NN2 fall far outside their ranges.
WILD = {**FIGURES, "sd": {"single": "0.01", "double": "0.01", "super": "0.01"}}


def build(report_id):
    services.report_request(
        shift_id=services.ShiftReport.objects.get(pk=report_id).shift_id, send=False
    )
    return services.report_build(report_id=report_id, email=False)


@pytest.fixture(scope="module")
def flagged(night, django_db_blocker):
    """The night shift's report built with tiny SDs, a second manager at the venue."""
    with django_db_blocker.unblock():
        real, outputs.render_pdf = outputs.render_pdf, lambda figures, svgs: b"%PDF-1.7 stub"
        try:
            staff("manager2", MANAGER, night.venue)
            NiuNiuRulesetVersion.objects.filter(ruleset__venue=night.venue).update(figures=WILD)
            report = services.report_request(shift_id=night.shift.pk, send=False)
            return services.report_build(report_id=report.pk, email=False)
        finally:
            outputs.render_pdf = real


def flags_of(report):
    lines = [("total", report.figures["total"])] + [(t["key"], t) for t in report.figures["tables"]]
    return {key for key, line in lines if line["flagged"] is True}


def opened(report):
    return {
        (i.table.code if i.table else "total"): i
        for i in FluctuationInvestigation.objects.filter(report=report).select_related("table")
    }


def test_each_flag_opens_one_investigation_assigned_to_the_least_busy_manager(
    night, flagged, quick_pdf
):
    # given the report's flags
    assert {"NN1", "NN2"} <= flags_of(flagged)
    found = opened(flagged)
    assert set(found) == flags_of(flagged)
    nn1 = found["NN1"]
    assert (nn1.handle, nn1.house_win, nn1.theoretical_win) == (850000, 470000, 27500)
    assert nn1.status == "open" and nn1.due_at - nn1.opened_at == timedelta(days=7)
    # assigned to the venue's managers in turn, the least busy first
    managers = set(venue_managers(night.venue.pk).values_list("username", flat=True))
    assignees = [i.assigned_to.username for i in sorted(found.values(), key=lambda i: i.pk)]
    assert {"floor-manager", "manager2"} <= managers
    assert len(set(assignees)) == len(assignees) <= len(managers)
    assert AuditEvent.objects.filter(action="investigation.open").count() == len(found)
    # when the same report is built again, then no second investigation
    build(flagged.pk)
    assert FluctuationInvestigation.objects.filter(report=flagged).count() == len(found)
    assert AuditEvent.objects.filter(action="investigation.open").count() == len(found)


def test_a_rebuild_whose_flag_vanished_notes_it_on_the_investigation(night, flagged, quick_pdf):
    NiuNiuRulesetVersion.objects.filter(ruleset=night.nn1.ruleset).update(figures=FIGURES)
    type(night.venue).objects.filter(pk=night.venue.pk).update(language="vi")
    build(flagged.pk)
    build(flagged.pk)  # twice: one note
    nn1 = opened(flagged)["NN1"]
    (note,) = nn1.notes.all()
    # written by the system in the venue's language (here Vietnamese), with the new figures
    assert note.author is None and "không còn gắn cờ dòng này" in note.text
    assert "+470,000" in note.text and "127.92%" in note.text
    assert nn1.flag_cleared_at is not None and nn1.status == "open"


def test_findings_are_signed_off_by_a_second_manager_then_closed(client, night, flagged):
    inv = opened(flagged)["NN1"]
    manager = night.floor.manager
    url = reverse("reports:investigation", args=[inv.pk])

    def step(name, **data):
        return client.post(reverse("reports:investigation_step", args=[inv.pk, name]), data)

    client.force_login(manager)
    assert step("note", text="Watched the tape of R2", key="k1").status_code == 302
    assert step("note", text="Watched the tape of R2", key="k1").status_code == 302  # again
    assert InvestigationNote.objects.filter(investigation=inv).count() == 1
    assert step("findings", findings="  ").status_code == 400
    assert (
        step("findings", findings="A player's lucky streak; the deal was clean.").status_code == 302
    )
    # the author may not sign their own findings: told why and who may
    refused = step("sign-off")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "you wrote these findings" in page and "manager2" in page
    with pytest.raises(Forbidden, match=r"Who may sign: .*manager2"):
        steps.investigation_sign_off(investigation=inv, user=manager)
    # a second manager signs off, the same click twice changes nothing
    client.force_login(night.venue.staff.get(username="manager2"))
    assert step("close", outcome="variance").status_code == 409  # not signed off yet
    assert step("sign-off").status_code == 302
    assert step("sign-off").status_code == 302
    assert step("close", outcome="").status_code == 400
    assert step("close", outcome="variance").status_code == 302
    inv.refresh_from_db()
    assert (inv.status, inv.outcome) == ("closed", "variance")
    assert (inv.findings_by, inv.signed_off_by.username) == (manager, "manager2")
    actions = list(
        AuditEvent.objects.filter(
            object_type="casino.fluctuationinvestigation", object_id=str(inv.pk)
        )
        .order_by("at", "pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "investigation.open",
        "investigation.note",
        "investigation.findings",
        "investigation.sign_off",
        "investigation.close",
    ]
    page = client.get(url).content.decode()
    assert "Statistical variance" in page and "The investigation is closed." in page


def test_auditors_read_and_cannot_write_other_venues_do_not_find(client, night, flagged):
    inv = opened(flagged)["NN2"]
    url = reverse("reports:investigation", args=[inv.pk])
    client.force_login(night.floor.auditor)
    assert client.get(url).status_code == 200
    assert client.get(reverse("reports:investigations") + "?status=open").status_code == 200
    note = reverse("reports:investigation_step", args=[inv.pk, "note"])
    assert client.post(note, {"text": "mine"}).status_code == 403
    assert not inv.notes.exists()
    assert (
        client.get(
            reverse("admin:integrity_fluctuationinvestigation_change", args=[inv.pk])
        ).status_code
        == 200
    )
    client.force_login(night.floor.dealer)
    assert client.get(url).status_code == 403
    client.force_login(night.floor.other_manager)
    assert client.get(url).status_code == 404
    assert client.post(note, {"text": "mine"}).status_code == 404


def test_overdue_investigations_are_on_the_dashboard(client, night, flagged):
    inv = opened(flagged)["NN2"]
    FluctuationInvestigation.objects.filter(pk=inv.pk).update(
        due_at=timezone.now() - timedelta(hours=1)
    )
    client.force_login(night.floor.auditor)
    page = client.get(reverse("reports:dashboard") + "?venue=hanoi").content.decode()
    section = page[page.index('id="overdue-investigations"') : page.index('id="alerts"')]
    assert f"#{inv.pk}</a>" in section and "NN2" in section
    listed = client.get(reverse("reports:investigations") + "?overdue=1").content.decode()
    assert f"#{inv.pk}</a>" in listed and f"#{opened(flagged)['NN1'].pk}</a>" not in listed


def test_the_log_page_and_its_csv(client, night, flagged):
    found = opened(flagged)
    risky = staff("@risk", MANAGER, night.venue)
    steps.investigation_reassign(
        investigation=found["NN1"], user=night.floor.manager, assignee=risky
    )
    client.force_login(night.floor.auditor)
    today = venue_today(night.venue).isoformat()  # the log's dates are the venue's
    query = f"?venue=hanoi&from={today}&to={today}"
    page = client.get(reverse("reports:investigation_log") + query).content.decode()
    assert f"{len(found)} investigations opened from" in page and "850,000" in page
    response = client.get(reverse("reports:investigation_log") + query + "&format=csv")
    content = response.content
    assert content.startswith(b"\xef\xbb\xbf")
    rows = content.decode("utf-8-sig").splitlines()
    assert rows[2].startswith("Opened,Gaming date,Shift,Table,Handle,House win")
    nn1 = next(row for row in rows if ",NN1," in row)
    assert ",850000,470000,27500,55.29," in nn1 and ",'@risk," in nn1  # VND: no decimals
    assert len(rows) == 3 + len(found)


def test_nothing_is_deleted_and_notes_are_never_changed(night, flagged):
    inv = opened(flagged)["NN2"]
    note = steps.investigation_note_add(investigation=inv, user=night.floor.manager, text="seen")
    for sql, params in [
        ("DELETE FROM casino_fluctuationinvestigation WHERE id = %s", [inv.pk]),
        ("UPDATE casino_investigationnote SET text = 'nothing' WHERE id = %s", [note.pk]),
        ("DELETE FROM casino_investigationnote WHERE id = %s", [note.pk]),
        ("TRUNCATE casino_investigationnote CASCADE", None),
    ]:
        with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
            c.execute("SET CONSTRAINTS ALL IMMEDIATE")
            c.execute(sql, params)
        assert "never" in str(error.value), sql
    note.refresh_from_db()
    assert note.text == "seen" and FluctuationInvestigation.objects.filter(pk=inv.pk).exists()

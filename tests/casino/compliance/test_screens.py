"""The compliance screens, their API and the large-cash-transaction report files: a case
taken from draft to filing by two people on the screens, every reading audited, the files'
contents checked by hand, and every floor role refused every route (403 with why, never a
500)."""

from __future__ import annotations

import csv
import io
from xml.etree import ElementTree as ET

import pytest
from django.urls import reverse

from casino.audit.models import AuditAction, AuditEvent
from casino.compliance.lctr import NAMESPACE
from casino.compliance.models import SuspicionCase
from casino.staff.roles import AUDITOR, CAGE, COUNT, DEALER, MANAGER, SUPERVISOR
from tests.casino.compliance.conftest import english
from tests.factories import staff

pytestmark = pytest.mark.django_db

FLOOR = (DEALER, SUPERVISOR, MANAGER, AUDITOR, CAGE, COUNT)


def _views(case) -> list[str]:
    return list(
        AuditEvent.objects.filter(
            action=AuditAction.COMPLIANCE_CASE_VIEW, object_id=str(case.pk)
        ).values_list("user__username", flat=True)
    )


def test_a_case_is_opened_submitted_decided_and_filed_on_the_screens_by_two_people(floor, desk):
    author, reviewer = english(desk.author), english(desk.reviewer)
    opened = author.post(
        reverse("compliance:case-new", args=[floor.venue.pk]),
        {
            "player": "VIP-7",
            "grounds": "Cash in split across two tables.",
            "alerts": [str(desk.alert.pk)],
            "notes": "CCTV 21:05 table NN1",
        },
    )
    assert opened.status_code == 303, opened.content.decode()[:500]
    case = SuspicionCase.objects.get()
    assert case.evidence == [
        {"kind": "cash_alert", "ref": desk.alert.pk, "note": ""},
        {"kind": "note", "ref": "", "note": "CCTV 21:05 table NN1"},
    ]
    page = author.get(opened["Location"]).content.decode()
    assert "Submit for review" in page and "105,000,000" in page
    step = lambda name: reverse("compliance:case-step", args=[case.pk, name])  # noqa: E731
    assert author.post(step("submit"), {"note": "ready"}).status_code == 200
    # the author is not offered the decision, and is refused it
    assert (
        "Record the decision"
        not in author.get(reverse("compliance:case", args=[case.pk])).content.decode()
    )
    same = author.post(step("decide"), {"decision": "file", "reasons": "mine"})
    assert same.status_code == 403
    assert "second compliance officer decides it" in same.content.decode()
    missing = reviewer.post(step("decide"), {"decision": "file", "reasons": ""})
    assert missing.status_code == 422 and "Give the reasons" in missing.content.decode()
    decided = reviewer.post(step("decide"), {"decision": "file", "reasons": "split deposits"})
    assert decided.status_code == 200 and "File the report" in decided.content.decode()
    filed = author.post(step("file"), {"reference": "STR-2026-7"})
    assert filed.status_code == 200 and "STR-2026-7" in filed.content.decode()
    case.refresh_from_db()
    assert (case.status, case.decided_by, case.filed_by) == ("filed", desk.reviewer, desk.author)
    # every reading is recorded, and the page shows who read it
    assert set(_views(case)) == {"aml-author", "aml-reviewer"}
    readers = author.get(reverse("compliance:case", args=[case.pk])).content.decode()
    assert "Who read this case" in readers and "aml-reviewer" in readers


def test_the_list_filters_by_status_and_overdue(floor, desk, case):
    client = english(desk.author)
    url = reverse("compliance:cases", args=[floor.venue.pk])
    assert case.label in client.get(url).content.decode()
    assert case.label in client.get(url, {"status": "draft"}).content.decode()
    assert case.label not in client.get(url, {"status": "filed"}).content.decode()
    assert case.label not in client.get(url, {"overdue": "1"}).content.decode()
    SuspicionCase.objects.filter(pk=case.pk).update(deadline="2020-01-01T00:00Z")
    overdue = client.get(url, {"overdue": "1"}).content.decode()
    assert case.label in overdue and 'data-overdue="yes"' in overdue


def _routes(floor, case) -> list[tuple[str, str, dict]]:
    venue = floor.venue.pk
    return [
        ("get", reverse("compliance:home"), {}),
        ("get", reverse("compliance:cases", args=[venue]), {}),
        ("get", reverse("compliance:case-new", args=[venue]), {}),
        ("post", reverse("compliance:case-new", args=[venue]), {"grounds": "x", "player": "VIP-7"}),
        ("get", reverse("compliance:case", args=[case.pk]), {}),
        ("post", reverse("compliance:case-step", args=[case.pk, "submit"]), {}),
        ("get", reverse("compliance:lctr", args=[venue]), {}),
        ("get", reverse("compliance:lctr-file", args=[venue, "csv"]), {}),
        ("get", reverse("compliance:lctr-file", args=[venue, "xml"]), {}),
        ("get", reverse("api:compliance-case-list", args=[venue]), {}),
        ("get", reverse("api:compliance-case-detail", args=[case.pk]), {}),
    ]


@pytest.mark.parametrize("role", FLOOR)
def test_every_floor_role_is_refused_every_route(floor, desk, case, role):
    """The player's dealer and supervisor, the venue's managers and auditors, the cage and
    the count: 403 with why, nothing read, nothing written."""
    user = {DEALER: floor.dealer, SUPERVISOR: floor.supervisor, MANAGER: floor.manager}.get(
        role
    ) or staff(f"floor-{role}", role, floor.venue)
    client = english(user)
    before = (AuditEvent.objects.count(), SuspicionCase.objects.count())
    for method, url, body in _routes(floor, case):
        response = getattr(client, method)(url, body)
        assert response.status_code == 403, (role, url, response.status_code)
        text = response.content.decode()
        assert "compliance" in text, (url, text[:300])
        assert case.grounds not in text and "Tran Van A" not in text
    assert (AuditEvent.objects.count(), SuspicionCase.objects.count()) == before


def test_compliance_at_another_venue_does_not_find_the_case(floor, desk, case):
    client = english(desk.elsewhere)
    for method, url, _body in _routes(floor, case)[1:]:
        assert getattr(client, method)(url).status_code == 404, url
    assert _views(case) == []


def test_the_api_lists_and_shows_a_case_to_compliance_and_records_the_reading(floor, desk, case):
    client = english(desk.reviewer)
    listed = client.get(reverse("api:compliance-case-list", args=[floor.venue.pk])).json()
    assert [row["id"] for row in listed["results"]] == [case.pk]
    assert listed["results"][0]["overdue"] is False
    shown = client.get(reverse("api:compliance-case-detail", args=[case.pk])).json()
    assert shown["grounds"] == case.grounds
    assert [step["step"] for step in shown["steps"]] == ["open"]
    assert _views(case) == ["aml-reviewer"]
    refused = english(floor.supervisor).get(reverse("api:compliance-case-detail", args=[case.pk]))
    assert refused.status_code == 403 and "compliance" in refused.json()["detail"]


def test_the_lctr_csv_holds_the_days_candidates_in_the_documented_layout(floor, desk):
    client = english(desk.author)
    day = desk.alert.gaming_date.isoformat()
    url = reverse("compliance:lctr-file", args=[floor.venue.pk, "csv"])
    response = client.get(url, {"from": day, "to": day})
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "line_id", "venue_code", "gaming_date", "direction", "amount", "currency", "threshold",
        "raised_at", "membership_number", "player_name", "date_of_birth", "nationality",
        "id_document_type", "id_document_number", "id_document_country", "transaction_id",
        "table_code", "period", "largest_transaction",
    ]  # fmt: skip
    (line,) = rows[1:]
    record = dict(zip(rows[0], line, strict=True))
    alert = desk.alert
    assert record == {
        **record,
        "line_id": f"hanoi-{alert.gaming_date:%Y%m%d}-{alert.pk}",
        "venue_code": "hanoi",
        "gaming_date": day,
        "direction": "cash_in",
        "amount": "105000000",
        "currency": "VND",
        "threshold": "100000000",
        "membership_number": "VIP-7",
        "player_name": "Tran Van A",
        "id_document_type": "passport",
        "id_document_number": "B1234567",
        "transaction_id": str(alert.transaction_id),
        "table_code": "NN1",
        # A venue with no jurisdiction adds the day up; the largest of its two buy-ins (60,000,000
        # and 45,000,000) is below the threshold: a law counting each one alone asks nothing.
        "period": "gaming_day",
        "largest_transaction": "60000000",
    }
    assert record["raised_at"].endswith("+07:00")  # the venue's clocks (Asia/Ho_Chi_Minh)
    built = AuditEvent.objects.get(action=AuditAction.COMPLIANCE_LCTR_BUILD)
    assert (built.user, built.venue, built.after["layout"]) == (desk.author, floor.venue, "csv")
    # another day holds no candidate: the header alone
    empty = client.get(url, {"from": "2020-01-01", "to": "2020-01-02"})
    assert len(list(csv.reader(io.StringIO(empty.content.decode("utf-8-sig"))))) == 1


def test_the_lctr_xml_holds_the_same_lines_as_elements(floor, desk):
    client = english(desk.author)
    day = desk.alert.gaming_date.isoformat()
    url = reverse("compliance:lctr-file", args=[floor.venue.pk, "xml"])
    response = client.get(url, {"from": day, "to": day})
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    root = ET.fromstring(response.content)  # noqa: S314 (the file this project wrote)
    ns = {"l": NAMESPACE}
    assert root.tag == f"{{{NAMESPACE}}}lctr"
    assert (root.get("venue_code"), root.get("currency"), root.get("lines")) == (
        "hanoi",
        "VND",
        "1",
    )
    assert (root.get("date_from"), root.get("date_to")) == (day, day)
    (line,) = root.findall("l:line", ns)
    assert line.findtext("l:amount", namespaces=ns) == "105000000"
    assert line.findtext("l:direction", namespaces=ns) == "cash_in"
    assert line.findtext("l:player_name", namespaces=ns) == "Tran Van A"
    assert line.findtext("l:threshold", namespaces=ns) == "100000000"
    assert line.findtext("l:largest_transaction", namespaces=ns) == "60000000"
    assert root.get("version") == "2"
    assert AuditEvent.objects.filter(action=AuditAction.COMPLIANCE_LCTR_BUILD).count() == 1


def test_the_lctr_page_lists_the_candidates_with_the_venues_money(floor, desk):
    day = desk.alert.gaming_date.isoformat()
    page = english(desk.author).get(
        reverse("compliance:lctr", args=[floor.venue.pk]), {"from": day, "to": day}
    )
    text = page.content.decode()
    assert page.status_code == 200 and "Tran Van A" in text and "105,000,000" in text
    assert "file.csv" in text and "file.xml" in text
    wrong = english(desk.author).get(
        reverse("compliance:lctr", args=[floor.venue.pk]), {"from": day, "to": "2000-01-01"}
    )
    assert wrong.status_code == 422


def test_the_admin_shows_a_case_to_its_venues_compliance_staff_only(floor, desk, case):
    from tests.factories import UserFactory

    for user in (desk.author, desk.elsewhere):  # let into the admin, as a superuser does
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    url = reverse("admin:compliance_suspicioncase_change", args=[case.pk])
    listing = reverse("admin:compliance_suspicioncase_changelist")
    officer = english(desk.author)
    assert officer.get(listing).status_code == 200
    assert officer.get(url).status_code == 200
    assert _views(case) == ["aml-author"]
    assert officer.post(url, {"grounds": "rewritten"}).status_code == 403
    # another venue's officer does not find it; a superuser and a manager are refused
    assert english(desk.elsewhere).get(url).status_code == 302
    root = english(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert root.get(url).status_code == 403 and root.get(listing).status_code == 403
    assert english(floor.manager).get(url).status_code == 403
    assert _views(case) == ["aml-author"]


def test_the_home_page_counts_each_venues_open_and_overdue_cases(floor, desk, case):
    page = english(desk.author).get(reverse("compliance:home")).content.decode()
    assert "1 open" in page and "overdue" not in page
    SuspicionCase.objects.filter(pk=case.pk).update(deadline="2020-01-01T00:00Z")
    page = english(desk.author).get(reverse("compliance:home")).content.decode()
    assert "1 overdue" in page
    # the console's home links the compliance officer to the cases
    home = english(desk.author).get(reverse("console:home")).content.decode()
    assert reverse("compliance:cases", args=[floor.venue.pk]) in home
    assert reverse("compliance:home") in home  # the navigation bar's link


def test_htmx_gets_the_case_and_the_list_as_partials(floor, desk, case):
    client = english(desk.author)
    step = client.post(
        reverse("compliance:case-step", args=[case.pk, "submit"]), {}, HTTP_HX_REQUEST="true"
    )
    text = step.content.decode().strip()
    assert step.status_code == 200 and text.startswith('<section id="case"')
    assert "submitted for review" in text and "<html" not in text
    rows = client.get(
        reverse("compliance:cases", args=[floor.venue.pk]),
        {"status": "in_review"},
        HTTP_HX_REQUEST="true",
    )
    assert rows.content.decode().strip().startswith('<section id="case-rows"')
    refused = english(desk.author).post(
        reverse("compliance:case-step", args=[case.pk, "decide"]),
        {"decision": "file", "reasons": "mine"},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 403 and "second compliance officer" in refused.content.decode()

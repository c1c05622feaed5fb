"""A day worked by hand at a venue of each jurisdiction (casino/venues/jurisdictions.py,
docs/compliance/VN.md, KR.md, MO.md), driven through the services as the venue's staff
would: aggregation across tables and the cage, an unknown patron crossing the reporting
threshold, structuring caught and a near miss that is not, the structuring case through to
filing by two compliance officers with the jurisdiction's deadline, and the case and the
LCTR file refused to the floor's roles.

The venue counts in the law's currency and names its jurisdiction; a manager proposes the
thresholds from the law and a second manager approves them:

    law  currency  reporting (R)   logging (the law's identification threshold)  notes
    VN   VND       400,000,000     70,000,000                                   500,000
    KR   KRW        10,000,000      3,000,000                            50,000, 10,000
    MO   MOP           500,000        500,000 (the same as R)                1,000, 500

Each movement is a share of R, in thousandths (so one day is worked once for all three);
"just under" is 800 to 999 thousandths (80% of R up to, not including, R). NN1 and NN2 are
the venue's two tables, "cage" a chip purchase at the window paid in the venue's notes.

    who       where  per mille   VN             KR            MO        day's total
    VIP-1     NN1    360         144,000,000    3,600,000     180,000
              NN2    300         120,000,000    3,000,000     150,000   660 (under R)
              cage   500         200,000,000    5,000,000     250,000   1,160 -> alert
    U-…-1     NN1    560         224,000,000    5,600,000     280,000
              cage   500         200,000,000    5,000,000     250,000   1,060 -> alert
    AML-A     NN1    980         392,000,000    9,800,000     490,000   just under
              NN2    960         384,000,000    9,600,000     480,000   1,940 -> alert
              cage   990         396,000,000    9,900,000     495,000   three just under
    AML-B     NN1    980         392,000,000    9,800,000     490,000   just under
              cage   970         388,000,000    9,700,000     485,000   1,950 -> alert
              NN2    200          80,000,000    2,000,000     100,000   well under

So four alerts, one per person (VIP-1 at 1,160‰ of R: VN 464,000,000, KR 11,600,000, MO
580,000; the unknown patron at 1,060‰; AML-A at 1,940‰ and AML-B at 1,950‰, each raised by
their second movement); no single movement of VIP-1 or U-…-1 reaches R or just under it.
The unknown patron is recorded by the dealer when first seen (Macau's identification
threshold is its reporting threshold, so a description alone would be asked only at R).

The search of the day (``patterns_detect``) opens one case, AML-A's structuring (three just
under within the window); AML-B's two just under are a near miss: no case.

The case: officer "aml-author" submits it (a case the system opened has no author yet), and
may not decide it too (four eyes); "aml-reviewer" decides to file; the author files it. Its
deadline, worked out by the law's rule (working days: Monday to Friday on the venue's
calendar, the time of day kept):

    VN  3 working days from the detection: detected Friday 2026-12-04 16:00 (+07:00) ->
        due Wednesday 2026-12-09 16:00; unchanged by the decision.
    KR  "without delay": one day from the decision: decided 2026-12-05 09:30 (+09:00) ->
        due 2026-12-06 09:30.
    MO  2 working days from the decision: decided Thursday 2026-12-03 10:00 (+08:00) ->
        due Monday 2026-12-07 10:00.

(The times above check the rule as written here; the case's own deadline is then worked out
by the same rule from its own detected_at / decided_at.)

The venue's dealer and supervisor get 403 on the case's page and on the LCTR file; a
compliance officer gets 200, and the file holds the day's four alerts.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.cage.cash_log import LogKind, Source, cash_log, cash_people
from casino.cage.models import CashAlert
from casino.cage.services.cash import cash_record
from casino.cage.services.inventory import chip_purchase
from casino.cage.services.patrons import WindowPatron, unknown_patron_create
from casino.cage.services.thresholds import (
    day_total,
    gaming_date_at,
    thresholds_approve,
    thresholds_propose,
)
from casino.compliance.detection import patterns_detect
from casino.compliance.models import CaseSource, CaseStatus, Decision, SuspicionCase
from casino.compliance.services import case_decide, case_file, case_submit
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Forbidden
from casino.staff.roles import COMPLIANCE
from casino.venues.jurisdictions import JURISDICTIONS
from tests.casino.compliance.conftest import english
from tests.factories import PlayerFactory, niuniu_table, staff

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Place:
    """How a venue of the jurisdiction is set up for the day."""

    timezone: str
    notes: tuple[str, ...]
    chips: tuple[str, ...]


PLACES = {
    "VN": Place("Asia/Ho_Chi_Minh", ("500000",), ("1000000", "100000", "10000", "1000")),
    "KR": Place("Asia/Seoul", ("50000", "10000"), ("1000000", "100000", "10000", "1000")),
    "MO": Place("Asia/Macau", ("1000", "500"), ("10000", "5000", "1000", "500")),
}


def working_days_after(start: datetime, days: int, zone: str) -> datetime:
    """The rule as written in the docstring: count Monday to Friday on the venue's calendar,
    the time of day kept."""
    local = start.astimezone(ZoneInfo(zone))
    while days:
        local += timedelta(days=1)
        days -= local.weekday() < 5
    return local


def expected_deadline(code: str, case: SuspicionCase, zone: str) -> datetime:
    if code == "VN":
        return working_days_after(case.detected_at, 3, zone)
    if code == "KR":
        return case.decided_at + timedelta(days=1)
    return working_days_after(case.decided_at, 2, zone)


def test_the_rule_as_worked_by_hand():
    def at(text: str) -> datetime:
        return datetime.fromisoformat(text)

    assert working_days_after(at("2026-12-04T16:00+07:00"), 3, "Asia/Ho_Chi_Minh") == at(
        "2026-12-09T16:00+07:00"
    )
    assert working_days_after(at("2026-12-03T10:00+08:00"), 2, "Asia/Macau") == at(
        "2026-12-07T10:00+08:00"
    )


def pieces(amount: D, denominations: tuple[str, ...]) -> dict[str, int]:
    """``amount`` in as few pieces of ``denominations`` (largest first) as it takes."""
    counted: dict[str, int] = {}
    for denomination in denominations:
        count, amount = divmod(amount, D(denomination))
        if count:
            counted[denomination] = int(count)
    assert amount == 0
    return counted


@pytest.fixture(params=sorted(JURISDICTIONS))
def day(request, floor, approver):
    code = request.param
    law, place = JURISDICTIONS[code], PLACES[code]
    venue = floor.venue
    venue.currency, venue.jurisdiction = law.currency, code
    venue.timezone, venue.note_denominations = place.timezone, list(place.notes)
    venue.save(update_fields=["currency", "jurisdiction", "timezone", "note_denominations"])
    version = thresholds_propose(venue=venue, user=floor.manager, from_jurisdiction=True)
    thresholds_approve(version=version, user=approver)
    floor.table.chip_denominations = list(place.chips)  # NN1
    floor.table.save(update_fields=["chip_denominations"])
    second = niuniu_table(venue, code="NN2", denominations=place.chips)
    tables = {
        table.code: session_open(
            table=table,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            opening_chips={},
        )
        for table in (floor.table, second)
    }
    return code, law, place, tables


def test_a_day_worked_by_hand(day, floor, cashier):
    code, law, place, tables = day
    venue, dealer = floor.venue, floor.dealer
    r = law.reporting_threshold

    def share(per_mille: int) -> D:
        return r * per_mille / 1000

    def at(where: str, per_mille: int, **person):
        if where == "cage":
            amount = share(per_mille)
            return chip_purchase(
                venue=venue,
                user=cashier,
                chips=pieces(amount, place.chips),
                notes=pieces(amount, place.notes),
                patron=WindowPatron(**person),
            )
        return cash_record(session=tables[where], user=dealer, amount=share(per_mille), **person)

    members = {
        number: PlayerFactory(venue=venue, membership_number=number, id_document_number=f"D-{n}")
        for n, number in enumerate(("VIP-1", "AML-A", "AML-B"))
    }
    vip, a, b = members.values()
    today = gaming_date_at(venue, timezone.now())

    # 1. Aggregation across the two tables and the cage.
    at("NN1", 360, player=vip)
    at("NN2", 300, player=vip)
    assert not CashAlert.objects.exists()
    purchase = at("cage", 500, player=vip)
    alert = CashAlert.objects.get(player=vip)
    assert (alert.gaming_date, alert.direction, alert.total) == (today, "buy_in", share(1160))
    assert (alert.threshold, alert.source, alert.source_id) == (r, Source.WINDOW, purchase.pk)
    assert day_total(player=vip, gaming_date=today, kind="buy_in") == share(1160)
    rows = cash_log(gaming_date=today, people=cash_people(player=vip))
    assert [(row.kind, row.table, row.amount, row.person) for row in rows] == [
        (LogKind.BUY_IN, "NN1", share(360), "VIP-1"),
        (LogKind.BUY_IN, "NN2", share(300), "VIP-1"),
        (LogKind.CHIP_PURCHASE, "", share(500), "VIP-1"),
    ]

    # 2. An unknown patron across a table and the cage.
    patron = unknown_patron_create(venue=venue, user=dealer, description="a man about 50, cap")
    at("NN1", 560, unknown_patron=patron)
    at("cage", 500, unknown_patron=patron)
    alert = CashAlert.objects.get(unknown_patron=patron)
    assert (alert.player, alert.total) == (None, share(1060))
    assert day_total(unknown_patron=patron, gaming_date=today, kind="buy_in") == share(1060)

    # 3. Structuring caught, and a near miss that is not.
    for where, per_mille in (("NN1", 980), ("NN2", 960), ("cage", 990)):
        at(where, per_mille, player=a)
    for where, per_mille in (("NN1", 980), ("cage", 970), ("NN2", 200)):
        at(where, per_mille, player=b)
    totals = {alert.player: alert.total for alert in CashAlert.objects.filter(player__in=[a, b])}
    assert totals == {a: share(1940), b: share(1950)}  # each day crossed R too
    assert CashAlert.objects.filter(venue=venue).count() == 4
    (case,) = patterns_detect(venue, today)
    assert (case.player, case.source, case.status) == (a, CaseSource.PATTERN, CaseStatus.DRAFT)
    assert case.finding.startswith("structuring:") and len(case.evidence) == 3
    assert not SuspicionCase.objects.filter(player=b).exists()
    assert patterns_detect(venue, today) == []

    # 4. Through to filing by two compliance officers, with the law's deadline.
    author = staff("aml-author", COMPLIANCE, venue)
    reviewer = staff("aml-reviewer", COMPLIANCE, venue)
    case = case_submit(case=case, user=author)
    with pytest.raises(Forbidden) as refused:
        case_decide(case=case, user=author, decision=Decision.FILE, reasons="mine")
    assert refused.value.reason == "four_eyes"
    case = case_decide(
        case=case, user=reviewer, decision=Decision.FILE, reasons="split to stay under"
    )
    case = case_file(case=case, user=author, reference=f"STR-{code}-1")
    case.refresh_from_db()
    assert (case.status, case.submitted_by, case.decided_by) == (
        CaseStatus.FILED,
        author,
        reviewer,
    )
    assert (case.filed_by, case.filing_reference) == (author, f"STR-{code}-1")
    assert case.deadline == expected_deadline(code, case, place.timezone)

    # 5. The case and the LCTR file: the compliance staff's, never the floor's.
    urls = (
        reverse("compliance:case", args=[case.pk]),
        reverse("compliance:lctr-file", args=[venue.pk, "csv"])
        + f"?from={today.isoformat()}&to={today.isoformat()}",
    )
    for user in (floor.dealer, floor.supervisor):
        client = english(user)
        for url in urls:
            assert client.get(url).status_code == 403, (user.username, url)
    officer = english(reviewer)
    assert officer.get(urls[0]).status_code == 200
    response = officer.get(urls[1])
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]
    assert len(lines) == 4 and {line[5] for line in lines} == {law.currency}
    by_person = {line[8]: line for line in lines}
    assert by_person[patron.code][9:11] == ["a man about 50, cap", ""]
    assert by_person["VIP-1"][15:17] == ["", ""]  # reached at the cage window
    # The law's period, and the largest single movement of the total (the cage's 500‰ of R):
    # under Macau's per-transaction reading, a line the law itself would not ask for.
    assert by_person["VIP-1"][17] == law.reporting_period
    assert D(by_person["VIP-1"][18]) == share(500) < r
    page = officer.get(
        reverse("compliance:lctr", args=[venue.pk])
        + f"?from={today.isoformat()}&to={today.isoformat()}"
    ).content.decode()
    assert f"{patron.code}: a man about 50, cap" in page  # the patron, not an empty "()"

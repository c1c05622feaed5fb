"""The group's figures in one currency, worked out by hand.

The group "asia" reports in USD. Three venues, each with one Niu Niu table whose settled
bets of two gaming days are written as tallies (house win = - players' result):

  venue  currency  gaming date  handle      players' result  house win
  hanoi  VND       2026-12-02   1,000,000   -250,000         250,000
                   2026-12-03   2,000,000   +100,000         -100,000
  seoul  KRW       2026-12-02     500,000    -40,000          40,000
                   2026-12-03     300,000    -12,345          12,345
  macau  MOP       2026-12-02     1,000.50   -100.10          100.10
                   2026-12-03     2,000.00   +33.30           -33.30

Rates into USD (one unit of the venue's currency), approved by a second group manager; the
rate changes between the two days:

  VND  2026-12-02 0.00004     2026-12-03 0.000039
  KRW  2026-12-02 0.00075     2026-12-03 0.0007
  MOP  2026-12-02 0.125       2026-12-03 0.124

Each day converted, rounded half up to the cent, then added:

  hanoi handle 40.00 + 78.00 = 118.00          win 10.00 + (-3.90) = 6.10
  seoul handle 375.00 + 210.00 = 585.00        win 30.00 + 8.6415 -> 8.64 = 38.64
  macau handle 125.0625 -> 125.06 + 248.00 = 373.06
        win 12.5125 -> 12.51 + (-4.1292 -> -4.13) = 8.38
  group handle 118.00 + 585.00 + 373.06 = 1,076.06;  win 6.10 + 38.64 + 8.38 = 53.12

The period 2026-12-02 to 2026-12-03 (a range; the month to date of 2026-12-03 is the same:
nothing was played on 2026-12-01) crosses the change of rate.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from casino.audit.models import AuditAction, AuditEvent
from casino.floor.models import BetTally, TableSession
from casino.group.consolidation import consolidated
from casino.group.models import ExchangeRate
from casino.group.services import (
    group_create,
    group_role_grant,
    group_venue_add,
    rate_approve,
    rate_propose,
)
from casino.kernel.errors import Conflict, Forbidden
from casino.reports.periods import period_of
from casino.staff.roles import DEALER, GROUP_AUDITOR, GROUP_MANAGER, MANAGER
from casino.venues.models import Shift, Venue
from tests.factories import niuniu_table, staff

D = Decimal
pytestmark = pytest.mark.django_db
DAY1, DAY2 = date(2026, 12, 2), date(2026, 12, 3)

VENUES = [
    ("hanoi", "Hà Nội Pearl", "VND", "Asia/Ho_Chi_Minh", "dot", "VN"),
    ("seoul", "Seoul Riverside", "KRW", "Asia/Seoul", "comma", "KR"),
    ("macau", "Macau Lotus", "MOP", "Asia/Macau", "comma", "MO"),
]
#: (venue, gaming date): handle, players' result.
PLAYED = {
    ("hanoi", DAY1): ("1000000", "-250000"),
    ("hanoi", DAY2): ("2000000", "100000"),
    ("seoul", DAY1): ("500000", "-40000"),
    ("seoul", DAY2): ("300000", "-12345"),
    ("macau", DAY1): ("1000.50", "-100.10"),
    ("macau", DAY2): ("2000", "33.30"),
}
RATES = {
    ("VND", DAY1): ("0.00004", "Vietcombank 16:00 fixing"),
    ("VND", DAY2): ("0.000039", "Vietcombank 16:00 fixing"),
    ("KRW", DAY1): ("0.00075", "Bank of Korea reference"),
    ("KRW", DAY2): ("0.0007", "Bank of Korea reference"),
    ("MOP", DAY1): ("0.125", "BNU fixing"),
    ("MOP", DAY2): ("0.124", "BNU fixing"),
}
#: Worked out in the module's docstring: (handle, house win) in USD.
EXPECTED = {
    "hanoi": (D("118.00"), D("6.10")),
    "seoul": (D("585.00"), D("38.64")),
    "macau": (D("373.06"), D("8.38")),
}
TOTAL = (D("1076.06"), D("53.12"))


def _play(venue: Venue, gaming_date: date, handle: str, result: str) -> None:
    table = venue.tables.first() or niuniu_table(venue)
    dealer = staff(f"{venue.code}-dealer", DEALER, venue)
    zone = ZoneInfo(venue.timezone)
    start = datetime(gaming_date.year, gaming_date.month, gaming_date.day, 6, tzinfo=zone)
    shift = Shift.objects.create(
        venue=venue,
        gaming_date=gaming_date,
        name="day",
        starts_at=start,
        ends_at=start + timedelta(hours=24),
    )
    # one open session a table; each tally's shift gives its gaming date
    session = TableSession.objects.filter(table=table).first() or TableSession.objects.create(
        table=table,
        shift=shift,
        dealer=dealer,
        opened_by=dealer,
        opened_at=start,
        opening_chips={},
        opening_total=D(0),
    )
    BetTally.objects.create(
        venue=venue,
        shift=shift,
        session=session,
        table=table,
        dealer=dealer,
        hour=start + timedelta(hours=2),
        player=None,
        game="niuniu",
        ruleset_version_id=1,
        bet_type="single",
        bets=3,
        handle=D(handle),
        stake_squared=D(0),
        player_result=D(result),
        commission=D(0),
        volume=D(0),
    )


@pytest.fixture
def world():
    root = User.objects.create_superuser("root", "root@example.com", "pw-for-tests")
    group = group_create(
        user=root,
        code="asia",
        name="Asia group",
        reporting_currency="USD",
        timezone_name="Asia/Macau",
    )
    venues = {}
    for code, name, currency, zone, grouping, country in VENUES:
        venue = Venue.objects.create(
            code=code,
            name=name,
            currency=currency,
            rounding_unit=D("1"),
            timezone=zone,
            language="en",
            amount_grouping=grouping,
        )
        group_venue_add(user=root, group=group, venue=venue, country=country)
        venues[code] = venue
    for (code, gaming_date), (handle, result) in PLAYED.items():
        _play(venues[code], gaming_date, handle, result)
    people = {}
    for username, role in [("gm1", GROUP_MANAGER), ("gm2", GROUP_MANAGER), ("ga", GROUP_AUDITOR)]:
        people[username] = User.objects.create_user(username, password="pw-for-tests")
        group_role_grant(user=root, group=group, member=people[username], role=role)
    people["root"] = root
    return group, venues, people


def _approve_all(group, people, rates=RATES):
    for (currency, day), (rate, source) in rates.items():
        proposed = rate_propose(
            group=group,
            user=people["gm1"],
            day=day,
            from_currency=currency,
            rate=rate,
            source=source,
        )
        rate_approve(rate=proposed, user=people["gm2"])


PERIOD = period_of("range", DAY1, DAY2)


def test_every_figure_is_the_hand_computation(world):
    group, _venues, people = world
    _approve_all(group, people)
    figures = consolidated(group=group, period=PERIOD, dimension="country")
    by_venue = {line.venue.code: line for line in figures.lines}
    for code, (handle, win) in EXPECTED.items():
        line = by_venue[code]
        assert (line.reporting["handle"], line.reporting["house_win"]) == (handle, win), code
        assert line.missing_days == []
    assert by_venue["hanoi"].local["handle"] == D("3000000")
    assert by_venue["macau"].local["house_win"] == D("66.80")
    # the two rates of the period, each with its source, on the line
    assert by_venue["hanoi"].rates_text() == (
        "2026-12-02: 0.00004 (Vietcombank 16:00 fixing); "
        "2026-12-03: 0.000039 (Vietcombank 16:00 fixing)"
    )
    assert {s.key: s.reporting["house_win"] for s in figures.subtotals} == {
        "VN": D("6.10"),
        "KR": D("38.64"),
        "MO": D("8.38"),
    }
    assert (figures.total["handle"], figures.total["house_win"]) == TOTAL
    assert figures.missing == []
    # the month to date of the second day is the same figures
    mtd = consolidated(group=group, period=period_of("mtd", DAY2))
    assert (mtd.total["handle"], mtd.total["house_win"]) == TOTAL


def test_the_page_and_the_csv_give_the_same_figures(client, world):
    group, _venues, people = world
    _approve_all(group, people)
    client.force_login(people["ga"])
    query = {
        "group": "asia",
        "kind": "range",
        "from": "2026-12-02",
        "to": "2026-12-03",
        "dimension": "venue",
    }
    page = client.get(reverse("group:dashboard"), query)
    assert page.status_code == 200
    text = page.content.decode()
    for handle, win in [*EXPECTED.values(), TOTAL]:
        assert f"{handle:,.2f}" in text and f"{win:,.2f}" in text
    assert "3.000.000" in text  # Hà Nội's own amounts in its grouping
    assert "0.000039 (Vietcombank 16:00 fixing)" in text
    answer = client.get(reverse("group:dashboard_csv"), query)
    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    header = next(row for row in rows if row and row[0] == "Venue")
    lines = {
        row[0]: dict(zip(header, row, strict=True)) for row in rows if row and row[0] in EXPECTED
    }
    for code, (handle, win) in EXPECTED.items():
        assert lines[code]["Handle (USD)"] == f"{handle}"
        assert lines[code]["House win (USD)"] == f"{win}"
    assert (
        "2026-12-03: 0.0007 (Bank of Korea reference)"
        in lines["seoul"]["Rates used (gaming dates: rate, source)"]
    )
    total = next(row for row in rows if row and row[0] == "Total")
    assert total[3:5] == [f"{TOTAL[0]}", f"{TOTAL[1]}"]


def test_a_day_without_an_approved_rate_is_shown_missing_never_guessed(client, world):
    group, _venues, people = world
    rates = {key: value for key, value in RATES.items() if key != ("KRW", DAY2)}
    _approve_all(group, people, rates)
    # proposed, not approved: still missing
    rate_propose(
        group=group,
        user=people["gm1"],
        day=DAY2,
        from_currency="KRW",
        rate="0.0007",
        source="Bank of Korea reference",
    )
    figures = consolidated(group=group, period=PERIOD)
    by_venue = {line.venue.code: line for line in figures.lines}
    assert by_venue["seoul"].reporting is None
    assert by_venue["seoul"].missing_days == [DAY2]
    assert by_venue["hanoi"].reporting["house_win"] == D("6.10")
    assert figures.total is None
    assert [m.text() for m in figures.missing] == [
        "approve a KRW→USD rate for 2026-12-03 (proposed by one group manager, approved by another)"
    ]
    client.force_login(people["gm1"])
    page = client.get(
        reverse("group:dashboard"), {"kind": "range", "from": "2026-12-02", "to": "2026-12-03"}
    )
    text = page.content.decode()
    assert "approve a KRW→USD rate for 2026-12-03" in text
    assert "no approved rate for 2026-12-03" in text
    assert "585.00" not in text  # Seoul's handle is not converted


def test_four_eyes_and_a_correction_supersedes_without_editing(world):
    group, _venues, people = world
    proposed = rate_propose(
        group=group,
        user=people["gm1"],
        day=DAY1,
        from_currency="VND",
        rate="0.00004",
        source="Vietcombank 16:00 fixing",
    )
    with pytest.raises(Forbidden) as refused:
        rate_approve(rate=proposed, user=people["gm1"])
    assert refused.value.reason == "four_eyes"
    first = rate_approve(rate=proposed, user=people["gm2"])
    with pytest.raises(Conflict):  # approved: never changed again
        rate_approve(rate=first, user=people["gm2"])
    correction = rate_propose(
        group=group,
        user=people["gm2"],
        day=DAY1,
        from_currency="VND",
        rate="0.000041",
        source="Vietcombank 16:00 fixing, corrected",
    )
    assert (correction.version, correction.supersedes) == (2, first)
    rate_approve(rate=correction, user=people["gm1"])
    first.refresh_from_db()
    assert (first.rate, first.status) == (D("0.000040000000"), ExchangeRate.Status.APPROVED)
    period = period_of("day", DAY1)
    (line,) = [
        line
        for line in consolidated(group=group, period=period).lines
        if line.venue.code == "hanoi"
    ]
    assert line.reporting["handle"] == D("41.00")  # 1,000,000 x 0.000041
    actions = list(
        AuditEvent.objects.filter(object_type="group.exchangerate")
        .values_list("action", flat=True)
        .order_by("pk")
    )
    assert actions == [AuditAction.GROUP_RATE_PROPOSE, AuditAction.GROUP_RATE_APPROVE] * 2


def test_a_group_auditor_changes_nothing(client, world):
    group, venues, people = world
    auditor = people["ga"]
    proposed = rate_propose(
        group=group,
        user=people["gm1"],
        day=DAY1,
        from_currency="VND",
        rate="0.00004",
        source="Vietcombank 16:00 fixing",
    )
    with pytest.raises(Forbidden):
        rate_propose(
            group=group, user=auditor, day=DAY1, from_currency="VND", rate="0.00004", source="x"
        )
    with pytest.raises(Forbidden):
        rate_approve(rate=proposed, user=auditor)
    with pytest.raises(Forbidden):
        group_create(user=auditor, code="other", name="Other", reporting_currency="EUR")
    with pytest.raises(Forbidden):
        group_venue_add(user=auditor, group=group, venue=venues["hanoi"], country="VN")
    with pytest.raises(Forbidden):
        group_role_grant(user=auditor, group=group, member=auditor, role=GROUP_MANAGER)
    client.force_login(auditor)
    answer = client.post(
        reverse("group:rate_propose"),
        {
            "group": "asia",
            "day": "2026-12-02",
            "from_currency": "VND",
            "rate": "0.00004",
            "source": "x",
        },
    )
    assert answer.status_code == 403
    assert "only a group manager proposes" in answer.content.decode()
    answer = client.post(reverse("group:rate_approve", args=[proposed.pk]), {"group": "asia"})
    assert answer.status_code == 403
    assert ExchangeRate.objects.get().status == ExchangeRate.Status.PROPOSED
    assert ExchangeRate.objects.count() == 1


def test_the_proposer_cannot_approve_on_the_page(client, world):
    _group, _venues, people = world
    client.force_login(people["gm1"])
    answer = client.post(
        reverse("group:rate_propose"),
        {
            "group": "asia",
            "day": "2026-12-02",
            "from_currency": "VND",
            "rate": "0.00004",
            "source": "Vietcombank 16:00 fixing",
        },
    )
    assert answer.status_code == 302
    proposed = ExchangeRate.objects.get()
    answer = client.post(reverse("group:rate_approve", args=[proposed.pk]), {"group": "asia"})
    assert answer.status_code == 403
    assert "a second group manager approves it" in answer.content.decode()
    client.force_login(people["gm2"])
    assert (
        client.post(
            reverse("group:rate_approve", args=[proposed.pk]), {"group": "asia"}
        ).status_code
        == 302
    )
    assert ExchangeRate.objects.get().approved_by == people["gm2"]


def test_a_venue_manager_sees_only_their_venue(client, world):
    group, venues, people = world
    _approve_all(group, people)
    manager = staff("hanoi-manager", MANAGER, venues["hanoi"])
    client.force_login(manager)
    query = {"kind": "range", "from": "2026-12-02", "to": "2026-12-03"}
    page = client.get(reverse("group:dashboard"), query)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-line="hanoi:hanoi"' in text
    assert "seoul" not in text and "macau" not in text.lower().replace("asia/macau", "")
    assert "585.00" not in text and "373.06" not in text and "1,076.06" not in text
    assert "Total of your venues" in text
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("group:dashboard_csv"), query).content.decode("utf-8-sig")
            )
        )
    )
    assert [row[0] for row in rows if row and row[0] in EXPECTED] == ["hanoi"]
    assert (
        client.post(
            reverse("group:rate_propose"),
            {
                "group": "asia",
                "day": "2026-12-04",
                "from_currency": "VND",
                "rate": "0.00004",
                "source": "x",
            },
        ).status_code
        == 403
    )
    # one with no role at any of the group's venues is told who reads the page
    client.force_login(staff("stranger", DEALER, venues["seoul"]))
    refused = client.get(reverse("group:dashboard"))
    assert refused.status_code == 403
    assert "group managers and group auditors" in refused.content.decode()

"""Times as a venue half an hour off UTC reads them (Asia/Kolkata, +05:30): report hours,
the report pages, the admin and the audit trail.

Two rounds settle through the services at 10:10 and 10:50 UTC, 15:40 and 16:20 on the
venue's clocks: the first in its 15:00 hour, the second in its 16:00 hour.
  R1  box 1 Niu 9 single 100,000 wins 1:1 less 5%: net +95,000, house -95,000
  R2  box 1 No Niu single 200,000 loses: net -200,000, house +200,000
"""

from __future__ import annotations

import io
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db.models import Value
from django.urls import reverse
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.floor.models import BetTally
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.tallies import tally_differences
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.kernel.timezones import LocalHour, database_knows_zone, local_hour
from casino.reports import services
from casino.reports.figures import shift_figures
from casino.reports.sections import hour_labels
from casino.rulesets.models import VersionStatus
from casino.rulesets.services import version_approve, version_content_hash
from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Shift
from niuniu.models import NiuNiuRulesetVersion
from niuniu.services import venue_ruleset_from_preset
from tests.factories import VenueFactory, niuniu_table, staff

pytestmark = pytest.mark.django_db
KOLKATA = ZoneInfo("Asia/Kolkata")
DEALER_NIU_8 = "JS QH JD AC 7H"


def utc(hour: int, minute: int) -> datetime:
    return datetime(2026, 12, 1, hour, minute, tzinfo=UTC)


@pytest.fixture
def kolkata(monkeypatch):
    venue = VenueFactory(code="kolkata", timezone="Asia/Kolkata", language="en")
    VenueFactory(code="seoul", timezone="Asia/Seoul")  # a venue in another zone
    table = niuniu_table(venue)
    # in force before the rounds (dealt at their own times, days ago)
    NiuNiuRulesetVersion.objects.filter(ruleset=table.ruleset).update(effective_from=utc(0, 0))
    dealer = staff("k-dealer", DEALER, venue)
    supervisor = staff("k-supervisor", SUPERVISOR, venue)
    shift = Shift.objects.create(
        venue=venue,
        gaming_date=date(2026, 12, 1),
        name="day",
        starts_at=datetime(2026, 12, 1, 15, 0, tzinfo=KOLKATA),
        ends_at=datetime(2026, 12, 1, 17, 0, tzinfo=KOLKATA),
    )
    session = session_open(
        table=table,
        counted_by=dealer,
        confirmed_by=supervisor,
        opening_chips={"1000000": 10},
        shift=shift,
    )
    rounds = []
    for cards, stake, at in [
        ("KS QS 5H 4H TC", "100000", utc(10, 10)),
        ("KH 8H 4D JH AD", "200000", utc(10, 50)),
    ]:
        with monkeypatch.context() as frozen:  # the services stamp a round with "now"
            frozen.setattr(timezone, "now", lambda at=at: at)
            round_, _ = round_create(
                session=session,
                user=dealer,
                dealer_cards=DEALER_NIU_8,
                boxes=[BoxInput(position=1, cards=cards, stakes={"single": D(stake)})],
            )
            rounds.append(round_settle(round_=round_, user=dealer, key=f"k-{stake}")[0])
    return venue, shift, dealer, supervisor, rounds


def tallies(shift):
    return list(
        BetTally.objects.filter(shift=shift)
        .order_by("hour", "bet_type")
        .values(*(f.attname for f in BetTally._meta.fields if f.name != "id"))
    )


def test_a_half_hour_zone_reports_its_own_hours(kolkata):
    _venue, shift, dealer, supervisor, rounds = kolkata
    assert [r.settled_at for r in rounds] == [utc(10, 10), utc(10, 50)]
    # the settlement bucketed each round in the venue's local hour (an instant)
    assert [t["hour"] for t in tallies(shift)] == [utc(9, 30), utc(10, 30)]

    report = services.report_request(shift_id=shift.pk, send=False)
    hours = shift_figures(report)["hours"]
    assert [h["label"] for h in hours] == ["15:00", "16:00"]
    assert [h["local"] for h in hours] == [
        "2026-12-01T15:00:00+05:30",
        "2026-12-01T16:00:00+05:30",
    ]
    assert [(h["rounds"], h["handle"], h["house_win"]) for h in hours] == [
        (1, "100000.00", "-95000.00"),
        (1, "200000.00", "200000.00"),
    ]

    # rebuild_tallies makes the same tallies from the rounds
    made = tallies(shift)
    out = io.StringIO()
    call_command("rebuild_tallies", "--venue", "kolkata", stdout=out)
    assert f"shift {shift.pk}: tallies made again" in out.getvalue()
    assert tallies(shift) == made
    # and a void takes its round off its local hour exactly
    round_void(round_=rounds[1], requested_by=dealer, approved_by=supervisor, reason="misdeal")
    assert tally_differences(shift.pk) == []
    assert [t["bets"] for t in tallies(shift)] == [1, 0]


def test_the_report_pages_read_in_the_venues_time(client, kolkata, quick_pdf, monkeypatch):
    _venue, shift, _dealer, supervisor, _rounds = kolkata
    report = services.report_request(shift_id=shift.pk, send=False)
    report = services.report_build(report_id=report.pk, email=False)
    type(report).objects.filter(pk=report.pk).update(finished_at=utc(11, 45))
    client.force_login(supervisor)

    page = client.get(reverse("reports:report", args=[report.pk])).content.decode()
    assert "Built 2026-12-01 17:15 (Asia/Kolkata)" in page

    dashboard = reverse("reports:dashboard") + "?venue=kolkata&from=2026-12-01&to=2026-12-01"
    page = client.get(dashboard).content.decode()
    assert "15:00–17:00 (Asia/Kolkata)" in page  # not the UTC 09:30–11:30

    # the pit's watch of the table says when it opened on the venue's clocks
    opened = shift.sessions.get().opened_at.astimezone(KOLKATA)
    watch = reverse("console:watch", args=[shift.sessions.get().pk])
    assert f"{opened:%Y-%m-%d %H:%M}" in client.get(watch).content.decode()

    # the default range ends on the venue's date: 20:00 UTC is already the 2nd in Kolkata
    monkeypatch.setattr(timezone, "now", lambda: utc(20, 0))
    response = client.get(reverse("reports:dashboard") + "?venue=kolkata")
    assert response.context["date_to"] == date(2026, 12, 2)


def test_the_admin_shows_and_reads_venue_time(client, kolkata, django_user_model):
    venue, _shift, _dealer, _supervisor, rounds = kolkata
    admin = django_user_model.objects.create_superuser("root", password="x")
    client.force_login(admin)
    # the venues are in two zones: each row says its own
    page = client.get(reverse("admin:floor_round_changelist")).content.decode()
    assert "2026-12-01 15:40 (Asia/Kolkata)" in page
    assert "2026-12-01 16:20 (Asia/Kolkata)" in page
    page = client.get(reverse("admin:venues_shift_changelist")).content.decode()
    assert "2026-12-01 15:00 (Asia/Kolkata)" in page  # the shift's start, 09:30 UTC
    for model in (
        "audit_auditevent",
        "floor_tablesession",
        "cage_slip",
        "ledger_ledgerentry",
        "venues_gamingday",
    ):
        assert client.get(reverse(f"admin:{model}_changelist")).status_code == 200
    # a round's page is in its venue's zone, its time fields labelled with it
    page = client.get(reverse("admin:floor_round_change", args=[rounds[0].pk])).content.decode()
    assert "Settled at (Asia/Kolkata)" in page
    assert "3:40 p.m." in page
    assert "10:10 a.m." not in page

    # a manager of the one venue reads its zone in the columns' titles
    manager = staff("k-manager", MANAGER, venue)
    client.force_login(manager)
    page = client.get(reverse("admin:floor_round_changelist")).content.decode()
    assert "Settled at (Asia/Kolkata)" in page
    assert "2026-12-01 15:40<" in page

    # a time typed on a version's page is read on the venue's clocks, and audited so
    approver = staff("k-approver", MANAGER, venue)
    draft = venue_ruleset_from_preset(venue=venue, preset_code="vn-kr-004", editor=manager)
    version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    client.force_login(approver)
    change = reverse("admin:niuniu_niuniurulesetversion_change", args=[draft.pk])
    assert "Effective from (Asia/Kolkata, empty = now)" in client.get(change).content.decode()
    local = (timezone.now() + timedelta(days=2)).astimezone(KOLKATA)
    local = local.replace(hour=10, minute=0, second=0, microsecond=0)
    activate = reverse("admin:niuniu_niuniurulesetversion_activate", args=[draft.pk])
    client.post(activate, {"effective_from": f"{local:%Y-%m-%dT%H:%M}"})
    draft.refresh_from_db()
    assert draft.status == VersionStatus.ACTIVE
    assert draft.effective_from == local  # 04:30 UTC
    event = AuditEvent.objects.get(action="ruleset.activate", object_id=str(draft.pk))
    assert event.summary == f"activated v{draft.number} from {local:%Y-%m-%d} 10:00 (Asia/Kolkata)"
    assert datetime.fromisoformat(event.after["effective_from"]) == local  # ISO, for machines


def test_a_zone_the_database_does_not_know_is_refused():
    # settlements bucket hours in the database: its time zone data must know the zone
    assert database_knows_zone("Asia/Kolkata")
    assert not database_knows_zone("Asia/Nowhere")


def test_an_hour_the_clocks_repeat_stays_two_hours():
    # Adelaide's clocks go back at 03:00 (+10:30) to 02:00 (+09:30), 16:30 UTC on 4 April
    adelaide = ZoneInfo("Australia/Adelaide")
    venue = VenueFactory(code="adelaide", timezone="Australia/Adelaide")
    settled = [datetime(2026, 4, 4, 16, m, tzinfo=UTC) for m in (20, 40)]  # 02:50, 02:10
    found = [
        type(venue)
        .objects.filter(pk=venue.pk)
        .annotate(hour=LocalHour(Value(at), "timezone"))
        .values_list("hour", flat=True)
        .get()
        for at in settled
    ]
    expected = [datetime(2026, 4, 4, 15, 30, tzinfo=UTC), datetime(2026, 4, 4, 16, 30, tzinfo=UTC)]
    assert found == expected == [local_hour(at, adelaide) for at in settled]
    assert hour_labels(expected, adelaide) == ["02:00 +10:30", "02:00 +09:30"]
    assert hour_labels([utc(9, 30), utc(10, 30)], KOLKATA) == ["15:00", "16:00"]

"""The report pages: who may see them, polling while a report builds, the dashboard."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from casino.kernel.timezones import venue_today
from casino.reports import outputs, services
from casino.reports.models import ShiftReport
from casino.venues.models import Venue
from niuniu.models import NiuNiuRulesetVersion

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(scope="module")
def done(night, django_db_blocker):
    """The night shift's report, built once (its PDF stubbed: test_outputs reads it)."""
    with django_db_blocker.unblock():
        real, outputs.render_pdf = outputs.render_pdf, lambda figures, svgs: b"%PDF-1.7 stub"
        try:
            report = services.report_request(shift_id=night.shift.pk, send=False)
            return services.report_build(report_id=report.pk, email=False)
        finally:
            outputs.render_pdf = real


def test_supervisors_managers_and_auditors_of_the_venue_read_it(client, night, done):
    url = reverse("reports:report", args=[done.pk])
    assert client.get(url).status_code == 302  # to the login page
    for user, status in [
        (night.floor.manager, 200),
        (night.floor.auditor, 200),
        (night.floor.dealer, 403),
        (night.floor.supervisor, 200),
        (night.floor.other_manager, 404),
    ]:
        client.force_login(user)
        assert client.get(url).status_code == status, user
        assert (
            client.get(reverse("reports:file", args=[done.pk, outputs.PDF_NAME])).status_code
            == status
        )


def test_the_page_shows_the_figures_charts_and_downloads(client, night, done):
    client.force_login(night.floor.auditor)
    page = client.get(reverse("reports:report", args=[done.pk])).content.decode()
    assert "htmx" in page and 'hx-headers=\'{"X-CSRFToken"' in page
    for heading in (
        "Tables",
        "Dealers",
        "Games",
        "Bet types",
        "Mau Binh",
        "Player ratings",
        "Largest payouts",
        "Voids and corrections",
        "Win by count against win by ledger",
    ):
        assert f"<h2>{heading}" in page
    assert "-1,385,000" in page and "-48.60%" in page
    assert f'src="/reports/shift/{done.pk}/files/win-by-hour.svg"' in page
    assert "Rebuild" not in page  # auditors read, managers rebuild
    download = client.get(reverse("reports:file", args=[done.pk, outputs.XLSX_NAME]))
    assert download["Content-Disposition"] == (
        'attachment; filename="hanoi-2026-11-28-night-shift-report.xlsx"'
    )


def test_a_manager_rebuilds_and_the_page_polls_until_ready(client, night, done, monkeypatch):
    sent = []
    monkeypatch.setattr(services, "_send", sent.append)
    client.force_login(night.floor.auditor)
    assert client.post(reverse("reports:rebuild", args=[done.pk])).status_code == 403
    client.force_login(night.floor.manager)
    # when a manager asks for a rebuild (HTMX: the status partial comes back)
    answer = client.post(reverse("reports:rebuild", args=[done.pk]), **HTMX)
    # then the build is sent, and the status polls
    assert sent == [done.pk]
    status = answer.content.decode()
    assert status.lstrip().startswith('<div id="report-status"')
    assert 'hx-trigger="every 2s"' in status and "Waiting for a worker" in status
    # while it builds, a poll answers with the status partial
    ShiftReport.objects.filter(pk=done.pk).update(status="running", progress=40, step="tables")
    poll = client.get(reverse("reports:report", args=[done.pk]) + "?poll=1", **HTMX)
    status = poll.content.decode()
    assert 'max="100" value="40" aria-describedby="report-step"' in status
    assert '<label for="report-progress">Build progress</label>' in status and "40% done" in status
    # once done, the page reloads itself
    ShiftReport.objects.filter(pk=done.pk).update(status="done")
    poll = client.get(reverse("reports:report", args=[done.pk]) + "?poll=1", **HTMX)
    assert poll["HX-Refresh"] == "true"


def test_the_dashboard_sums_the_venues_reports(client, night, done):
    client.force_login(night.floor.manager)
    url = reverse("reports:dashboard") + "?venue=hanoi&from=2026-11-01&to=2026-11-30"
    page = client.get(url).content.decode()
    assert "1 finished shift report from 2026-11-01 to 2026-11-30" in page
    assert "-1,385,000" in page  # the house win
    assert "<svg" in page  # the trend, drawn on the server
    assert "Top players by theoretical win" in page
    top = page[page.index('id="top-players"') :]
    assert top.index("M2") < top.index("M1")  # 63,000 then 42,000 theoretical
    # with HTMX the dashboard partial comes back and the URL is pushed
    partial = client.get(url, **HTMX)
    assert partial.content.decode().lstrip().startswith('<div id="dashboard"')
    assert partial["HX-Push-Url"] == url


def test_the_dashboard_flags_a_table_outside_its_range(client, night, done, quick_pdf):
    # given tiny SDs (the paytable "should" barely move), NN1's +470,000 on 850,000 is wild
    figures = {
        "house_edge": {"single": "0.025", "double": "0.03", "super": "0.14"},
        "sd": {"single": "0.01", "double": "0.01", "super": "0.01"},
    }
    NiuNiuRulesetVersion.objects.filter(ruleset=night.nn1.ruleset).update(figures=figures)
    services.report_request(shift_id=night.shift.pk, send=False)
    services.report_build(report_id=done.pk, email=False)
    client.force_login(night.floor.auditor)
    page = client.get(reverse("reports:dashboard") + "?venue=hanoi&from=2026-11-28&to=2026-11-28")
    alerts = page.content.decode()
    alerts = alerts[alerts.index('id="alerts"') : alerts.index('id="actual-theoretical"')]
    rows = dict(re.findall(r'<th scope="row">(\w+)</th>.*?<td>(.*?)</td></tr>', alerts))
    assert "outside the range" in rows["NN1"] and "outside the range" in rows["NN2"]
    assert rows["MB1"] == "within"  # a fee game wins its fee, no spread


def test_the_dashboard_is_for_readers_of_the_venue(client, night, done):
    client.force_login(night.floor.dealer)
    assert client.get(reverse("reports:dashboard")).status_code == 403
    client.force_login(night.floor.other_manager)
    assert client.get(reverse("reports:dashboard") + "?venue=hanoi").status_code == 404
    assert client.get(reverse("reports:dashboard") + "?venue=nowhere").status_code == 404
    page = client.get(reverse("reports:dashboard")).content.decode()
    assert "Dashboard · Venue seoul" in page and "No shifts in the range." in page
    # The default range ends on the venue's own date (Seoul's runs ahead of the server's).
    assert venue_today(Venue.objects.get(code="seoul")).isoformat() in page


def test_a_build_in_progress_reads_in_the_users_language(client, night, done):
    ShiftReport.objects.filter(pk=done.pk).update(
        status="running", progress=35, step="applying each ruleset version's house edge"
    )
    client.force_login(night.floor.manager)
    client.cookies["django_language"] = "vi"
    poll = client.get(reverse("reports:report", args=[done.pk]) + "?poll=1", **HTMX)
    status = poll.content.decode()
    assert "Tiến độ tạo báo cáo" in status and "đã xong 35%" in status
    assert "áp dụng lợi thế nhà cái của từng phiên bản luật" in status
    assert 'role="status"' in status and 'hx-trigger="every 2s"' in status


def test_a_shift_without_a_report_can_be_built_by_a_manager(client, night, monkeypatch):
    sent = []
    monkeypatch.setattr(services, "_send", sent.append)
    ShiftReport.objects.filter(shift=night.shift).delete()  # as if never built
    client.force_login(night.floor.manager)
    page = client.get(reverse("reports:dashboard") + "?venue=hanoi&from=2026-11-28&to=2026-11-28")
    assert "Build now" in page.content.decode()
    answer = client.post(reverse("reports:build", args=[night.shift.pk]))
    report = ShiftReport.objects.get(shift=night.shift)
    assert answer.status_code == 302 and answer["Location"] == f"/reports/shift/{report.pk}/"
    assert sent == [report.pk]


def test_the_report_and_the_dashboard_write_amounts_as_the_venue_does(client, night, done):
    client.force_login(night.floor.manager)
    page = client.get(reverse("reports:report", args=[done.pk])).content.decode()
    cells = " ".join(re.findall(r'<td class="num[^"]*">([^<]*)</td>', page))
    assert "-1,385,000" in cells and not re.search(r"\d\.\d\d(?!%)", cells)  # no VND cents
    night.floor.venue.amount_grouping = "dot"
    night.floor.venue.save(update_fields=["amount_grouping"])
    page = client.get(reverse("reports:report", args=[done.pk])).content.decode()
    assert "-1.385.000" in page and "-48,60%" in page and "-1,385,000" not in page
    url = reverse("reports:dashboard") + "?venue=hanoi&from=2026-11-01&to=2026-11-30"
    board = client.get(url).content.decode()
    assert "-1.385.000" in board and "-1,385,000" not in board


def test_a_reports_pdf_keeps_the_grouping_of_its_build():
    figures = {"shift": {"currency": "VND", "grouping": "dot"}, "total": {"average_bet": "95000.5"}}
    assert outputs.present(figures)["total"]["average_bet"] == "95.001"
    assert outputs.present(figures, grouping="comma")["total"]["average_bet"] == "95,001"
    figures["shift"] = {"currency": "MOP"}  # built before venues had a grouping
    assert outputs.present(figures)["total"]["average_bet"] == "95,000.50"


def test_a_charts_amounts_are_grouped_as_the_venue_does():
    from casino.kernel import charts

    svg = charts.bars("House win", ["NN1", "NN2"], [2_500_000, -1_500_000], "VND", "dot")
    assert "2.000.000" in svg and "2,000,000" not in svg


def test_a_chart_has_no_style_element_the_policy_would_refuse():
    from casino.kernel import charts

    svg = charts.bars("House win", ["NN1", "NN2"], [2_500_000, -1_500_000], "VND", "dot")
    assert "<style" not in svg
    assert '<svg stroke-linejoin="round" stroke-linecap="butt" ' in svg

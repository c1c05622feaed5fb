"""The integrity page: a run's results and alerts for the venue's managers and auditors,
its chart and evidence, Run now, and an alert's investigation in the fluctuation screens."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from casino.integrity.runs import integrity_run
from casino.models import AuditEvent, FluctuationInvestigation, IntegrityRun
from tests.casino.integrity.simulated import Manipulation, deal
from tests.casino.integrity.test_runs import open_tables


@pytest.fixture
def flagged_run(floor):
    sessions = open_tables(floor, 2)
    deal(sessions[0], 30, seed=21, crooked=Manipulation(missing=("AS",)))
    deal(sessions[1], 30, seed=22)
    date = sessions[0].shift.gaming_date
    return integrity_run(venue=floor.venue, date_from=date, date_to=date), sessions


def english(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.mark.django_db
def test_a_manager_sees_the_flagged_table_its_chart_and_its_investigation(
    client, floor, flagged_run
):
    run, sessions = flagged_run
    english(client, floor.manager)
    page = client.get(reverse("reports:integrity"), {"venue": floor.venue.code})
    assert page.status_code == 200
    text = page.content.decode()
    assert run.alerts >= 1
    assert "Cards dealt" in text and sessions[0].table.code in text
    assert "<svg" in text and 'role="img"' in text
    investigation = FluctuationInvestigation.objects.get(
        integrity_result__run=run, integrity_result__label=sessions[0].table.code
    )
    assert f"investigation #{investigation.pk}" in text
    detail = client.get(reverse("reports:investigation", args=[investigation.pk]))
    assert detail.status_code == 200
    assert "AS (rarest)" in detail.content.decode()
    log = client.get(reverse("reports:investigation_log"), {"venue": floor.venue.code})
    assert log.status_code == 200


@pytest.mark.django_db
def test_an_auditor_reads_it_a_supervisor_does_not(client, floor, flagged_run):
    english(client, floor.auditor)
    assert client.get(reverse("reports:integrity"), {"venue": floor.venue.code}).status_code == 200
    english(client, floor.supervisor)
    assert client.get(reverse("reports:integrity"), {"venue": floor.venue.code}).status_code == 403


@pytest.mark.django_db
def test_run_now_asks_a_worker_and_is_audited(client, floor, celery_eager):
    english(client, floor.manager)
    answer = client.post(
        reverse("reports:integrity_run"),
        {"venue": floor.venue.code, "from": "2026-01-01", "to": "2026-01-02"},
    )
    assert answer.status_code == 302
    run = IntegrityRun.objects.get(venue=floor.venue)
    assert (run.date_from.isoformat(), run.date_to.isoformat()) == ("2026-01-01", "2026-01-02")
    assert AuditEvent.objects.filter(action="integrity.request").exists()

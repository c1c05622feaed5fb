"""The integrity page: a run's results and alerts for the venue's managers and auditors,
its chart and evidence, Run now, and an alert's investigation in the fluctuation screens."""

from __future__ import annotations

import re
from datetime import date
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.integrity.models import FluctuationInvestigation, IntegrityRun
from casino.integrity.runs import integrity_run
from casino.staff.roles import MANAGER
from casino.venues.services.pits import pit_create
from tests.casino.integrity.simulated import Manipulation, deal
from tests.casino.integrity.test_runs import open_tables
from tests.factories import PlayerFactory, staff


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
    assert "AS (too few)" in detail.content.decode()
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


@pytest.fixture
def picked_run(floor):
    """Two tables (NN1 in pit P1, NN2 in none), a dealer each, a rated member at NN1."""
    sessions = open_tables(floor, 2)
    pit = pit_create(
        user=floor.manager,
        venue=floor.venue,
        code="P1",
        name="Main pit",
        tables=[sessions[0].table],
    )
    member = PlayerFactory(venue=floor.venue, membership_number="HN-0042", name="Trần Thị Lan")
    deal(sessions[0], 30, seed=41, players={1: member.pk})
    deal(sessions[1], 30, seed=42)
    date = sessions[0].shift.gaming_date
    run = integrity_run(venue=floor.venue, date_from=date, date_to=date)
    return SimpleNamespace(run=run, sessions=sessions, pit=pit, member=member)


def shown(client, floor, status=200, **asked):
    """The page as the venue's manager reads it with ``asked``: its context and its text."""
    english(client, floor.manager)
    page = client.get(reverse("reports:integrity"), {"venue": floor.venue.code, **asked})
    assert page.status_code == status
    return page.context, page.content.decode()


@pytest.mark.django_db
def test_one_dealer_picked_shows_only_that_dealers_results(client, floor, picked_run):
    dealer = picked_run.sessions[1].dealer
    context, text = shown(client, floor, dealer=dealer.pk)
    results = context["results"]
    assert results and {r.dealer_id for r in results} == {dealer.pk}
    assert len(results) == picked_run.run.results.filter(dealer=dealer).count()
    assert f"Dealer {dealer.username}" in text
    assert f"Dealer {picked_run.sessions[0].dealer.username}</th>" not in text
    assert context["chart"].dealer_id == dealer.pk
    assert f'<option value="{dealer.pk}" selected>{dealer.username}</option>' in text


@pytest.mark.django_db
def test_one_table_picked_shows_only_that_tables_results(client, floor, picked_run):
    table = picked_run.sessions[1].table
    context, _text = shown(client, floor, table=table.pk)
    results = context["results"]
    assert {r.table_id for r in results} == {table.pk}
    assert {r.test for r in results} >= {"dealer_hand", "cards"}


@pytest.mark.django_db
def test_a_pit_picked_shows_its_own_and_its_tables_results(client, floor, picked_run):
    context, _text = shown(client, floor, pit=picked_run.pit.pk)
    results = context["results"]
    assert {r.scope for r in results} == {"pit", "table"}
    assert {r.pit_id or r.table_id for r in results} == {
        picked_run.pit.pk,
        picked_run.sessions[0].table_id,
    }


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["hn-0042", "HN-0042", "thị lan"])
def test_a_rated_player_is_picked_by_number_or_by_name(client, floor, picked_run, typed):
    context, text = shown(client, floor, player=typed)
    results = context["results"]
    assert results and {r.player_id for r in results} == {picked_run.member.pk}
    assert '<option value="HN-0042">Trần Thị Lan</option>' in text


@pytest.mark.django_db
def test_a_scope_with_a_subject_and_the_alerts_only_combine(client, floor, picked_run):
    table = picked_run.sessions[0].table
    context, _text = shown(client, floor, scope="table", pit=picked_run.pit.pk)
    assert {r.table_id for r in context["results"]} == {table.pk}
    context, _text = shown(client, floor, table=table.pk, alerts="1")
    assert all(r.alert for r in context["results"])


@pytest.mark.django_db
def test_a_subject_without_results_says_so(client, floor, picked_run):
    context, text = shown(client, floor, dealer=floor.dealer.pk)  # dealt nothing that day
    assert context["results"] == []
    assert f"No test of this run is of Dealer {floor.dealer.username}" in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("table", "No such table at this venue."),
        ("pit", "No such pit at this venue."),
        ("dealer", "No such dealer at this venue."),
        ("player", "No member SE-0001 at this venue."),
        ("run", "No such integrity run at this venue."),
    ],
)
def test_another_venues_subject_is_refused_without_its_data(
    client, floor, picked_run, field, message
):
    other = floor.other_venue
    foreign = {
        "table": floor.other_table.pk,
        "pit": pit_create(
            user=staff("seoul-manager", MANAGER, other), venue=other, code="S1", name="Seoul"
        ).pk,
        "dealer": floor.other_dealer.pk,
        "player": PlayerFactory(venue=other, membership_number="SE-0001").membership_number,
        "run": integrity_run(venue=other, date_from=date(2026, 1, 1), date_to=date(2026, 1, 1)).pk,
    }
    context, text = shown(client, floor, status=400, **{field: foreign[field]})
    assert message in text and 'role="alert"' in text
    assert context["results"] == []
    assert floor.other_table.code not in text and floor.other_dealer.username not in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("asked", "message"),
    [
        ({"table": "999999"}, "No such table at this venue."),
        ({"dealer": "nobody"}, "No such dealer at this venue."),
        ({"scope": "croupier"}, "Choose the results by table, dealer, pit or player."),
        ({"run": "latest"}, "No such integrity run at this venue."),
    ],
)
def test_an_unknown_id_is_a_clear_message(client, floor, picked_run, asked, message):
    _context, text = shown(client, floor, status=400, **asked)
    assert message in text
    assert 'aria-invalid="true"' in text or "run" in asked


@pytest.mark.django_db
def test_a_name_several_members_share_asks_for_the_number(client, floor, picked_run):
    PlayerFactory(venue=floor.venue, membership_number="HN-0043", name="Trần Văn Lan")
    _context, text = shown(client, floor, status=400, player="lan")
    assert "Several members of this venue have lan in their name" in text


@pytest.mark.django_db
def test_the_page_says_how_many_results_names_each_game_and_offers_the_runs_dates(
    client, floor, picked_run
):
    run = picked_run.run
    IntegrityRun.objects.filter(pk=run.pk).update(date_from=run.date_from.replace(day=1))
    run.refresh_from_db()
    context, text = shown(client, floor)
    rows = run.results.count()
    assert f"{rows} results, of which {run.tests} had enough data to be tested" in text
    # Run now offers the dates of the run shown, not one day of its own
    assert (context["date_from"], context["date_to"]) == (run.date_from, run.date_to)
    assert f'name="from" value="{run.date_from:%Y-%m-%d}"' in text
    # each row names its game: a player's net results of two games are two rows, told apart
    assert all(result.game_label for result in context["results"])
    assert '<th scope="col">Game</th>' in text


@pytest.mark.django_db
def test_the_card_chart_has_a_y_axis_and_one_row_of_labels(client, floor, flagged_run):
    context, _text = shown(client, floor)
    svg = context["chart_svg"]
    assert 'class="axis"' in svg and svg.count('class="tick"') == 5
    labels = re.findall(r"<title>[^<]*</title>([^<]*)</text>", svg)
    assert labels and all(len(label) <= 12 for label in labels)


@pytest.mark.django_db
def test_an_auditor_is_not_offered_run_now_and_is_refused_it(client, floor, flagged_run):
    english(client, floor.auditor)
    page = client.get(reverse("reports:integrity"), {"venue": floor.venue.code})
    assert page.status_code == 200 and "Run now</button>" not in page.content.decode()
    refused = client.post(reverse("reports:integrity_run"), {"venue": floor.venue.code})
    assert refused.status_code == 403
    assert not IntegrityRun.objects.filter(requested_by=floor.auditor).exists()
    english(client, floor.manager)
    page = client.get(reverse("reports:integrity"), {"venue": floor.venue.code})
    assert "Run now</button>" in page.content.decode()

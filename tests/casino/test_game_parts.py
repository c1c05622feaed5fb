"""Every registered game reaches the floor through its parts: the API serves its ruleset
versions with its serializer, the admin renders its house-edge panel, a shift report shows it
with its label and kind (house-banked or fee), and simulate deals its rounds. A new game is
tested here by registering it."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from casino import games
from casino.reports import outputs
from casino.reports.models import ShiftReport
from tests.casino.api import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GAMES = [pytest.param(game.code, id=game.code) for game in games.all_games()]
#: The games whose rounds ``simulate`` deals (a game kept for its accounting only deals none).
ROUND_GAMES = [pytest.param(game.code, id=game.code) for game in games.round_games()]


@pytest.fixture(autouse=True)
def _few_deals(settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = 3  # a fee game's house take is simulated on approval


def active_version(game: games.GameAdapter, venue, manager, approver):
    """The venue's own ruleset of ``game`` from the preset simulate uses, active."""
    return game.demo.ruleset_from_preset(
        venue=venue,
        preset_code=game.demo.simulation_preset,
        editor=manager,
        approver=approver,
        override_reason="The preset as printed.",
    )


@pytest.mark.parametrize("code", GAMES)
def test_the_api_serves_the_game_s_versions_with_its_serializer(code, venue, manager, approver):
    game = games.get(code)
    version = active_version(game, venue, manager, approver)
    url = f"/api/v1/rulesets/{version.ruleset_id}/versions/{version.number}/"
    answer = client_for(manager).get(url)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert set(body) == set(game.api.version_serializer().fields)
    assert (body["number"], body["status"]) == (version.number, "active")
    assert body["ruleset"]["id"] == version.ruleset_id
    for relation in game.rule_relations:
        assert isinstance(body[relation], list), relation  # the game's rows of its rules
    schema = client_for(manager).get("/api/schema/")
    assert schema.status_code == 200
    assert game.version_model.__name__ in schema.content.decode()


@pytest.mark.parametrize("code", GAMES)
def test_the_admin_renders_the_game_s_house_edge_panel(code, client, venue, manager, approver):
    game = games.get(code)
    version = active_version(game, venue, manager, approver)
    opts = game.version_model._meta
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    admin_url = f"admin:{opts.app_label}_{opts.model_name}"
    change = client.get(reverse(f"{admin_url}_change", args=[version.pk]))
    assert change.status_code == 200
    panel_url = reverse(f"{admin_url}_figures", args=[version.pk])
    assert panel_url in change.content.decode()
    panel = client.get(panel_url)
    assert panel.status_code == 200
    shown = panel.content.decode()
    assert 'id="figures"' in shown
    # approval stored the figures of the rules: the panel is ready, neither polling nor failed
    assert "hx-trigger" not in shown and "errornote" not in shown
    assert "<table>" in shown
    # A manager of the game's rulesets and an auditor have the game's permissions.
    assert manager.has_perm(f"{opts.app_label}.approve_{opts.model_name}")


@pytest.mark.parametrize("via", ["services", "bulk"])
@pytest.mark.parametrize("code", ROUND_GAMES)
def test_a_report_shows_the_game_with_its_label_and_kind(code, via):
    """Rounds of the game's stream, settled through the services or written in bulk."""
    game = games.get(code)
    out = io.StringIO()
    call_command(
        "simulate",
        *("--game", code, "--rounds", "6", "--tables", "1", "--via", via),
        *("--venue", f"sim-{code}", "--report"),
        stdout=out,
    )
    report = ShiftReport.objects.latest("pk")
    assert report.status == ShiftReport.Status.DONE, out.getvalue()
    figures = report.figures
    label = str(game.reports.label)
    assert [(row["key"], row["label"]) for row in figures["games"]] == [(code, label)]
    fee_tables = figures["fee_games"]["tables"]
    if game.reports.house_banked:
        assert fee_tables == []
        assert figures["games"][0]["theoretical_win"] is not None  # rated by the house edge
    else:
        assert {row["game"] for row in fee_tables} == {code}
        assert outputs.present(figures)["fee_games"]["title"] == label
        # a fee game's theoretical win is its fee
        assert figures["games"][0]["theoretical_win"] == figures["games"][0]["commission"]


@pytest.mark.parametrize("code", [g.code for g in games.all_games() if not g.settles_rounds])
def test_simulate_refuses_a_game_that_deals_no_rounds(code):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="deals no rounds"):
        call_command("simulate", "--game", code, "--rounds", "1", stdout=io.StringIO())

"""The house take: the seeded simulation, its panel in the admin, and approval over warnings."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from casino import games
from casino.audit.models import AuditEvent
from casino.rulesets.models import VersionStatus
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
)
from maubinh import engine
from maubinh.engine import presets
from maubinh.house_take import (
    fee_chi,
    figures_compute,
    rules_hash,
    settle_as_players_choose,
    simulate_house_take,
)
from maubinh.models import MauBinhRulesetVersion, RowBonus, RulesFigures
from maubinh.services import venue_ruleset_from_preset

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("celery_eager")]


@pytest.fixture
def client(client, django_capture_on_commit_callbacks):
    """A client whose requests run their on-commit callbacks (the task is sent on commit)."""

    class Committing:
        def __getattr__(self, name):
            method = getattr(client, name)
            if name not in ("get", "post"):
                return method

            def call(*args, **kwargs):
                with django_capture_on_commit_callbacks(execute=True):
                    return method(*args, **kwargs)

            return call

    return Committing()


def figures_url(version):
    return reverse("admin:maubinh_maubinhrulesetversion_figures", args=[version.pk])


def panel(client, version) -> str:
    """The panel as the browser ends up showing it: it polls while the task runs."""
    for _ in range(3):
        response = client.get(figures_url(version), headers={"HX-Request": "true"})
        assert response.status_code == 200
        html = response.content.decode()
        if "hx-trigger=" not in html:
            return html
    raise AssertionError(f"the figures never came: {html}")


@pytest.fixture
def draft(venue, manager):
    return venue_ruleset_from_preset(venue=venue, preset_code="bigkool-2016", editor=manager)


def test_the_simulation_is_seeded_and_counts_every_table_size():
    rules = presets.get("classic")
    # when
    first = simulate_house_take(rules, deals=2)
    again = simulate_house_take(rules, deals=2)
    # then
    assert first == again
    assert first["tables"] == {"2": 12, "3": 8, "4": 2}
    chi = {n: Decimal(first["positive_chi"][n]["mean"]) for n in ("2", "3", "4")}
    assert all(value >= 0 for value in chi.values())
    assert simulate_house_take(rules, deals=2, seed=7) != first


def test_the_hash_leaves_out_what_the_simulation_does_not_depend_on():
    rules = presets.get("bigkool-2016")
    other_fee = rules.with_rounding_unit(Decimal("1000")).__class__(
        code="x", name="y", row_bonuses=rules.row_bonuses, instant_wins=rules.instant_wins,
        fee_rate=Decimal("0.10"), quit_penalty=3,
    )  # fmt: skip
    assert rules_hash(other_fee, deals=5) == rules_hash(rules, deals=5)
    assert rules_hash(presets.get("classic"), deals=5) != rules_hash(rules, deals=5)
    assert rules_hash(rules, deals=6) != rules_hash(rules, deals=5)


def test_the_panel_shows_the_take_for_two_three_and_four_players(client, draft, manager):
    client.force_login(manager)
    html = panel(client, draft)
    assert "<html" not in html, "only the fragment comes back"
    summary = games.get("maubinh").approval_figures(draft)[0]
    for players in ("2", "3", "4"):
        low, high = summary["house_take_ci"][players]
        assert f"<td>{players}</td>" in html
        assert f"{low} – {high}" in html
    assert "3 seeded deals" in html
    assert RulesFigures.objects.get().status == RulesFigures.Status.DONE


def test_a_change_of_fee_alone_is_not_simulated_again(client, draft, manager):
    client.force_login(manager)
    panel(client, draft)
    row = RulesFigures.objects.get()
    before = games.get("maubinh").approval_figures(draft)[0]
    # when the fee doubles
    MauBinhRulesetVersion.objects.filter(pk=draft.pk).update(fee_rate=Decimal("0.10"))
    draft.refresh_from_db()
    panel(client, draft)
    after = games.get("maubinh").approval_figures(draft)[0]
    # then the same simulation gives twice the take
    assert RulesFigures.objects.get().computed_at == row.computed_at
    for players, take in before["house_take"].items():
        assert Decimal(after["house_take"][players]) == pytest.approx(
            2 * Decimal(take), abs=Decimal("0.0002")
        )
    # while a changed bonus is new rules: a second simulation
    RowBonus.objects.filter(version=draft, row="back", category="FOUR_OF_A_KIND").update(chi=4)
    panel(client, draft)
    assert RulesFigures.objects.count() == 2


def test_the_panel_shows_the_change_from_the_version_in_force(client, draft, manager, approver):
    version_activate(
        version=version_approve(
            version=draft, content_hash=version_content_hash(draft), user=approver
        ),
        user=approver,
    )
    clone = version_clone(version=draft, user=manager)
    MauBinhRulesetVersion.objects.filter(pk=clone.pk).update(fee_rate=Decimal("0.04"))
    client.force_login(approver)
    html = panel(client, MauBinhRulesetVersion.objects.get(pk=clone.pk))
    assert f"Changes are against v{draft.number} (in force)" in html
    assert 'class="down">-0.' in html


def test_rules_that_cannot_be_approved_are_named_on_the_panel(client, draft, manager):
    RowBonus.objects.filter(version=draft, row="back", category="FOUR_OF_A_KIND").update(chi=400)
    client.force_login(manager)
    html = panel(client, draft)
    assert "cannot be simulated until" in html and "rounds record at most 999" in html
    assert not RulesFigures.objects.exists()


@pytest.mark.parametrize(
    ("fee_rate", "warning"),
    [
        ("0", "The table fee is 0: the house takes nothing from this game."),
        ("0.25", "The table fee 25.0% is unusually high (above 20%)."),
    ],
)
def test_a_fee_that_warns_needs_an_audited_override(draft, approver, fee_rate, warning):
    MauBinhRulesetVersion.objects.filter(pk=draft.pk).update(fee_rate=Decimal(fee_rate))
    draft.refresh_from_db()
    with pytest.raises(ValidationError) as error:
        version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    assert error.value.messages[0] == warning
    assert "give an override reason" in error.value.messages[-1]
    approved = version_approve(
        version=draft,
        content_hash=version_content_hash(draft),
        user=approver,
        override_reason="house promotion",
    )
    assert approved.status == VersionStatus.APPROVED
    assert approved.figures["fee_rate"] == fee_rate
    event = AuditEvent.objects.get(action="ruleset.approve_override")
    assert event.after == {"reason": "house promotion", "warnings": [warning]}


def test_dragon_flush_paying_less_than_dragon_warns(draft, approver):
    draft.instant_wins.filter(kind="dragon_flush").update(chi=50)
    with pytest.raises(ValidationError) as error:
        version_approve(version=draft, content_hash=version_content_hash(draft), user=approver)
    assert error.value.messages[0].startswith(
        "Dragon Flush (rồng cuốn: 2 to A of one suit) pays 50 chi"
    )


def test_a_stored_simulation_is_read_not_run(draft, django_assert_max_num_queries):
    figures_compute(version_id=draft.pk)
    with django_assert_max_num_queries(6):  # the version, its rows, the figures row
        row = figures_compute(version_id=draft.pk)
    assert row.status == RulesFigures.Status.DONE and row.figures["deals"] == 3


# The readings of the sheet a venue may choose: the house take follows them ----------------

SIX_PAIRS_60 = ("AS AH AD AC KS", "QS QH QD QC KH", "JS JH JD")  # rows: 60 against WEAK
WEAK = ("TC 9C 7D 5D 3C", "9D 8D 6C 4C 3H", "8H 6H 5H")
WEAKER = ("9S 7S 6D 4S 2H", "8S 7H 5S 4H 2D", "7C 4D 3S")


def _no_other_layout(seat):
    raise AssertionError(f"seat {seat} was not asked to choose")


def test_the_fee_is_taken_from_the_seats_results_or_from_every_amount_won():
    table = engine.settle_table(
        {"a": SIX_PAIRS_60, "b": WEAK, "c": WEAKER}, Decimal(1), presets.get("bigkool-2016")
    )
    # a takes 18 from each (+36); b scoops c for 6 but ends at -12 over the table
    assert fee_chi(table) == (36, 42)


def test_a_simulated_player_leaves_an_instant_win_undeclared_when_its_rows_win_more():
    rules = presets.get("bigkool-2016")
    hands = {"a": SIX_PAIRS_60, "b": WEAK}
    automatic = settle_as_players_choose(hands, Decimal(1), rules, _no_other_layout)
    optional = settle_as_players_choose(
        hands, Decimal(1), replace(rules, declaring="optional"), lambda seat: hands[seat]
    )
    assert fee_chi(automatic) == (18, 18)
    assert fee_chi(optional) == (60, 60)


def test_tied_instant_wins_that_share_halve_what_the_fee_is_taken_from():
    hands = {
        "a": ("7S 7H 6S 6H 8S", "5S 5H 4S 4H 3S", "3H 2S 2H"),
        "b": ("7D 7C 6D 6C 8D", "5D 5C 4D 4C 3D", "3C 2D 2C"),
        "c": ("AS AH KS QD 9C", "KH KD QS JC 9D", "QH JD TS"),
    }
    rules = presets.get("bigkool-2016")
    in_full = settle_as_players_choose(hands, Decimal(1), rules, _no_other_layout)
    shared = settle_as_players_choose(
        hands, Decimal(1), replace(rules, tied_instant_wins="share"), _no_other_layout
    )
    assert fee_chi(in_full) == (36, 36)
    assert fee_chi(shared) == (18, 18)


def test_declaring_changes_the_simulation_and_fouls_do_not():
    rules = presets.get("bigkool-2016")
    # seed 19's first deal holds an instant win that scores more on its rows at some tables
    automatic = simulate_house_take(rules, deals=1, seed=19)
    optional = simulate_house_take(replace(rules, declaring="optional"), deals=1, seed=19)
    assert Decimal(optional["instant_wins_per_hand"]) > 0
    assert optional["positive_chi"] != automatic["positive_chi"]
    # the auto-arranger never fouls, so what a foul pays does not move the take
    fouls = replace(rules, instant_win_when_fouled=False, foul_pays_row_bonuses=False)
    assert simulate_house_take(fouls, deals=1, seed=19) == automatic
    assert rules_hash(fouls, deals=1) != rules_hash(rules, deals=1)


def test_a_change_of_fee_basis_moves_the_take_without_simulating_again(client, draft, manager):
    client.force_login(manager)
    panel(client, draft)
    before = games.get("maubinh").approval_figures(draft)[0]
    # when the fee is taken from each amount won
    MauBinhRulesetVersion.objects.filter(pk=draft.pk).update(fee_basis="each_win")
    draft.refresh_from_db()
    html = panel(client, draft)
    after = games.get("maubinh").approval_figures(draft)[0]
    # then the same simulation gives a take at least as large (each win is at least the net)
    assert RulesFigures.objects.count() == 1
    assert after["fee_basis"] == "each_win"
    for players in ("3", "4"):
        assert Decimal(after["house_take"][players]) > Decimal(before["house_take"][players])
    assert Decimal(after["house_take"]["2"]) == Decimal(before["house_take"]["2"])
    assert "The fee is taken from each amount won" in html

"""Which rules are in force, on the round screen: the version's code and number, a notice
when a new version takes effect at the round being typed, and a Confirm that settles only
under the version its preview was evaluated under."""

from __future__ import annotations

import re

import pytest

from casino.floor.models import Round
from casino.floor.rules import rules_in_force
from casino.rulesets.services import (
    version_activate,
    version_approve,
    version_clone,
    version_content_hash,
)
from tests.niuniu.test_console import HX, NIU_9, digest_of, round_data, url

pytestmark = pytest.mark.django_db


def activate_next_version(floor):
    """A second version of the table's ruleset, in force from now."""
    first = rules_in_force(floor.table).version
    second = version_clone(version=first, user=floor.manager)
    version_approve(
        version=second,
        content_hash=version_content_hash(second),
        user=floor.venue.staff.get(username="hanoi-ruleset-approver"),
        override_reason="the sheet as printed",
    )
    return version_activate(
        version=second, user=floor.venue.staff.get(username="hanoi-ruleset-approver")
    )


def rules_line(html: str) -> str:
    match = re.search(r'<div id="rules-in-force".*?</div>', html, re.S)
    assert match, "no rules line"
    return match.group(0)


def test_the_round_screen_names_the_version_in_force(dealer, session):
    line = rules_line(dealer.get(url("round", session)).content.decode())
    assert 'role="status"' in line and 'aria-label="Rules in force"' in line
    assert "Rules: vn-kr-004 v1" in line
    assert "New rules" not in line


def test_a_version_activated_while_the_screen_is_open_is_announced_by_the_preview(
    dealer, floor, session
):
    page = dealer.get(url("round", session)).content.decode()
    seen = re.search(r'name="rules_seen" value="(\d+)"', page).group(1)
    second = activate_next_version(floor)
    data = {**round_data(box1=(NIU_9, {"single": "100,000"})), "rules_seen": seen}
    preview = dealer.post(url("preview", session), data, **HX)
    line = rules_line(preview.content.decode())
    assert 'hx-swap-oob="true"' in line
    assert "Rules: vn-kr-004 v2" in line
    assert "New rules take effect at this round: vn-kr-004 v2" in line
    # the dealer keeps being told until a round is settled under it
    assert f'name="rules_seen" value="{seen}"' in line
    confirmed = dealer.post(
        url("confirm", session),
        {**data, "digest": digest_of(preview), "rules_version": str(second.pk)},
        **HX,
    )
    assert confirmed.status_code == 200
    assert Round.objects.get().ruleset_version_id == second.pk
    after = rules_line(confirmed.content.decode())
    assert "Rules: vn-kr-004 v2" in after and "New rules" not in after


def test_a_screen_opened_after_the_last_round_under_an_older_version_announces_the_new_one(
    dealer, floor, session
):
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    preview = dealer.post(url("preview", session), data, **HX)
    dealer.post(url("confirm", session), {**data, "digest": digest_of(preview)}, **HX)
    activate_next_version(floor)
    line = rules_line(dealer.get(url("round", session)).content.decode())
    assert "New rules take effect at this round: vn-kr-004 v2" in line


def test_a_confirm_previewed_under_the_version_replaced_since_is_refused(dealer, floor, session):
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    preview = dealer.post(url("preview", session), data, **HX)
    previewed = re.search(r'name="rules_version" value="(\d+)"', preview.content.decode())
    activate_next_version(floor)
    response = dealer.post(
        url("confirm", session),
        {**data, "digest": digest_of(preview), "rules_version": previewed.group(1)},
        **HX,
    )
    assert response.status_code == 422
    assert "The rules changed after the preview: vn-kr-004 v2 is now in force" in (
        response.content.decode()
    )
    assert not Round.objects.exists()

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from casino.models import Venue, VersionStatus
from casino.services.rulesets import version_in_force
from niuniu.models import NiuNiuRulesetVersion

pytestmark = pytest.mark.django_db


def test_demo_creates_the_three_venues_with_active_rulesets():
    out = io.StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=io.StringIO())  # a second run changes nothing
    venues = {v.code: v for v in Venue.objects.all()}
    assert {code: v.currency for code, v in venues.items()} == {
        "hanoi": "VND",
        "seoul": "KRW",
        "macau": "MOP",
    }
    for venue in venues.values():
        (ruleset,) = venue.rulesets.all()
        version = version_in_force(model=NiuNiuRulesetVersion, ruleset=ruleset)
        assert version is not None and version.status == VersionStatus.ACTIVE
        assert version.approved_by != version.last_edited_by
    text = out.getvalue()
    assert "log in as manager / demo-manager" in text
    assert authenticate(username="manager", password="demo-manager") is not None
    assert authenticate(username="approver", password="demo-approver") is not None

"""The upgrade that moved the rounding to the version: each version takes its venue's unit
as it was (a preset: 1) and rounds up, as every round had been settled until then."""

from __future__ import annotations

import importlib
from decimal import Decimal as D

import pytest

from maubinh.services import preset_install as maubinh_preset_install
from maubinh.services import venue_ruleset_from_preset as maubinh_from_preset
from niuniu.services import preset_install as niuniu_preset_install
from niuniu.services import venue_ruleset_from_preset as niuniu_from_preset
from tests.factories import UserFactory, VenueFactory
from tests.migration_state import models_as_of

pytestmark = pytest.mark.django_db

MIGRATIONS = {
    "niuniu": ("niuniu.migrations.0004_version_rounding", niuniu_from_preset, "vn-kr-004"),
    "maubinh": ("maubinh.migrations.0002_version_rounding", maubinh_from_preset, "classic"),
}


@pytest.mark.parametrize("game", list(MIGRATIONS))
def test_every_version_takes_its_venue_unit_and_rounds_up(game, settings):
    settings.MAUBINH_HOUSE_TAKE_DEALS = 3
    module, from_preset, preset = MIGRATIONS[game]
    editor = UserFactory(username="editor", is_superuser=True)
    hanoi = VenueFactory(code="hanoi", rounding_unit=D("1000"))
    macau = VenueFactory(code="macau", currency="MOP", rounding_unit=D("0.10"))
    versions = {
        "hanoi": from_preset(venue=hanoi, preset_code=preset, editor=editor),
        "macau": from_preset(venue=macau, preset_code=preset, editor=editor),
        "preset": (niuniu_preset_install if game == "niuniu" else maubinh_preset_install)(
            code=preset
        ),
    }
    model = type(versions["hanoi"])
    # the rows as the upgrade finds them: the new columns at their placeholder
    model.objects.update(rounding_unit=D("7"), rounding_mode="down")
    # when
    importlib.import_module(module).carry_venue_units(
        models_as_of(game, module.rsplit(".", 1)[1]), None
    )
    # then
    found = {
        name: model.objects.values_list("rounding_unit", "rounding_mode").get(pk=version.pk)
        for name, version in versions.items()
    }
    assert found == {
        "hanoi": (D("1000"), "up"),
        "macau": (D("0.10"), "up"),
        "preset": (D("1"), "up"),
    }

"""The admin in the reader's language, its amounts as the venue writes them.

Names (models, fields, fieldsets) are translated (``tests/test_translations.py`` checks each
is marked and in the catalogues); here a page shows them in the reader's language, and an
amount the admin only shows is written in the venue's grouping, not as ``1000.00``.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst

from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.venues.models import Table, Venue
from niuniu.models import NiuNiuRulesetVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager_client(client, floor):
    Venue.objects.filter(pk=floor.venue.pk).update(amount_grouping="dot")
    client.force_login(floor.manager)
    return client


def test_an_approved_versions_rounding_unit_is_written_as_the_venue_writes_it(
    manager_client, floor
):
    manager_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    version = NiuNiuRulesetVersion.objects.get(ruleset=floor.table.ruleset, status="active")
    assert version.rounding_unit == 1000
    page = manager_client.get(
        reverse("admin:niuniu_niuniurulesetversion_change", args=[version.pk])
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert '<div class="readonly">1.000</div>' in body
    assert "1000.00" not in body
    assert "<label>Rounding unit:</label>" in body


def test_the_venue_list_and_a_tables_limits_write_amounts_as_the_venue_does(manager_client, floor):
    manager_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    venues = manager_client.get(reverse("admin:venues_venue_changelist")).content.decode()
    assert '<td class="field-rounding_unit_shown">1.000</td>' in venues
    table = manager_client.get(reverse("admin:venues_table_change", args=[floor.table.pk]))
    body = table.content.decode()
    assert "hanoi/NN1 single: 10.000–10.000.000" in body
    assert "10000.00" not in body


@pytest.mark.parametrize("language", ["vi", "ko", "pt"])
def test_a_tables_page_names_its_fields_in_the_readers_language(manager_client, floor, language):
    manager_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    body = manager_client.get(
        reverse("admin:venues_table_change", args=[floor.table.pk])
    ).content.decode()
    with translation.override(language):
        for name in ("seats", "status", "code"):
            label = str(capfirst(Table._meta.get_field(name).verbose_name))
            assert f">{label}:</label>" in body, label
        title = str(Table._meta.verbose_name)  # "Change table", the page title
    assert title in body


def test_a_read_only_amount_keeps_its_help_text(manager_client, floor):
    manager_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    version = NiuNiuRulesetVersion.objects.get(ruleset=floor.table.ruleset, status="active")
    body = manager_client.get(
        reverse("admin:niuniu_niuniurulesetversion_change", args=[version.pk])
    ).content.decode()
    assert '<div class="readonly">1.000</div>' in body
    help_text = str(NiuNiuRulesetVersion._meta.get_field("rounding_unit").help_text)
    assert help_text.split(",")[0] in body


def test_a_sessions_chips_are_a_list_written_as_the_venue_writes_amounts(manager_client, floor):
    """A session's chips by denomination, kept as ``{"100000": 50}``, are shown one line a
    denomination in the venue's grouping, the largest first; a difference with its sign."""
    manager_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50, "10000": 4},
    )
    TableSession.objects.filter(pk=session.pk).update(
        opening_discrepancy={"10000": 4, "100000": -1}
    )
    body = manager_client.get(
        reverse("admin:floor_tablesession_change", args=[session.pk])
    ).content.decode()
    assert '<ul class="chip-counts"><li>50 × 100.000</li><li>4 × 10.000</li></ul>' in body
    assert "<li>-1 × 100.000</li><li>+4 × 10.000</li>" in body
    assert '"100000"' not in body
    assert str(TableSession._meta.get_field("opening_chips").help_text) in body

"""The jurisdictions' presets (casino/venues/jurisdictions.py) and their guides
(docs/compliance/): each guide's Figures table says what its preset holds, and cites its
sources; a venue's jurisdiction drives the thresholds proposed from the law and caps the
reporting threshold, with four eyes as before."""

from __future__ import annotations

import re
from decimal import Decimal as D
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from casino.audit.models import AuditAction, AuditEvent
from casino.cage.models import CashThresholds
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.kernel.errors import Forbidden, InvalidInput
from casino.staff.roles import MANAGER
from casino.venues.jurisdictions import (
    JURISDICTIONS,
    Deadline,
    Jurisdiction,
    Period,
    jurisdiction_choices,
    jurisdiction_of,
)
from casino.venues.models import Venue
from casino.venues.services.venues import venue_update
from tests.factories import VenueFactory, staff

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ROOT / "docs" / "compliance"
FIELDS = (
    "reporting_threshold",
    "reporting_period",
    "large_reports_to",
    "cdd_threshold",
    "cdd_period",
    "aggregates_tables",
    "aggregates_cage",
    "aggregates_operator_venues",
    "instruments",
    "record_years",
    "str_deadline",
    "str_authority",
)
NOT_CONFIRMED = " (not confirmed)"


def shown(law: Jurisdiction, field: str) -> str:
    """How a guide's Figures table writes a preset's field."""
    value = getattr(law, field)
    if field in ("reporting_threshold", "cdd_threshold"):
        return "none" if value is None else f"{value:,} {law.currency}"
    if field.endswith("_period"):
        return {Period.GAMING_DAY: "per gaming day", Period.TRANSACTION: "per transaction"}[value]
    if field.startswith("aggregates_"):
        return "yes" if value else "no"
    if field == "instruments":
        return ", ".join(value)
    if field == "record_years":
        return "not confirmed" if value is None else f"{value} years"
    if field == "str_deadline":
        if law.str_deadline_unit == Deadline.WITHOUT_DELAY:
            return "without delay"
        return f"{value} {law.str_deadline_unit.replace('_', ' ')}"
    return str(value)


def figures_table(text: str) -> dict[str, str]:
    """A guide's Figures table: each row's field (its backticked name) and value."""
    section = text.split("## Figures", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = re.match(r"\|[^|]*\(`(\w+)`\) \| ([^|]+) \|", line)
        if found:
            rows[found[1]] = found[2].strip()
    return rows


@pytest.mark.parametrize("code", sorted(JURISDICTIONS))
def test_each_guide_states_its_presets_figures_and_cites_its_sources(code):
    law = JURISDICTIONS[code]
    text = (GUIDES / f"{code}.md").read_text(encoding="utf-8")
    rows = figures_table(text)
    assert set(rows) == set(FIELDS)
    for field in FIELDS:
        unconfirmed = field in law.unconfirmed and getattr(law, field) is not None
        expected = shown(law, field) + (NOT_CONFIRMED if unconfirmed else "")
        assert rows[field] == expected, field
    for source in law.sources:
        assert source.url in text, source.url
    assert f"[{code}.md]({code}.md)" in (GUIDES / "README.md").read_text(encoding="utf-8")
    assert set(law.unconfirmed) <= set(FIELDS)


def test_the_presets_figures_as_their_sources_state_them():
    """Read in the sources the guides cite (each guide quotes them)."""
    vn, kr, mo = JURISDICTIONS["VN"], JURISDICTIONS["KR"], JURISDICTIONS["MO"]
    assert (vn.currency, vn.reporting_threshold, vn.cdd_threshold) == (
        "VND",
        D("400000000"),
        D("70000000"),
    )
    assert (kr.currency, kr.reporting_threshold, kr.cdd_threshold) == (
        "KRW",
        D("10000000"),
        D("3000000"),
    )
    assert (mo.currency, mo.reporting_threshold, mo.record_years) == ("MOP", D("500000"), 5)
    assert (mo.str_deadline, mo.str_deadline_unit) == (2, Deadline.WORKING_DAYS)
    assert kr.str_deadline_unit == Deadline.WITHOUT_DELAY and kr.str_deadline is None
    # A figure no source we read states is not guessed.
    assert vn.record_years is None and "record_years" in vn.unconfirmed
    assert not vn.confirmed and all(law.sources for law in JURISDICTIONS.values())
    assert [code for code, _name in jurisdiction_choices()] == ["VN", "KR", "MO"]


@pytest.mark.django_db
def test_a_venue_names_its_jurisdiction_and_only_a_superuser_changes_it():
    venue = VenueFactory(code="hanoi")
    assert jurisdiction_of(venue) is None
    root = User.objects.create_superuser("root", "root@example.com", "x")
    manager = staff("manager", MANAGER, venue)
    with pytest.raises(Forbidden) as refused:
        venue_update(venue=venue, user=manager, jurisdiction="VN")
    assert refused.value.field == "jurisdiction"
    with pytest.raises(InvalidInput):
        venue_update(venue=venue, user=root, jurisdiction="XX")
    venue = venue_update(venue=venue, user=root, jurisdiction="VN")
    assert jurisdiction_of(venue) is JURISDICTIONS["VN"]
    event = AuditEvent.objects.filter(action=AuditAction.VENUE_UPDATE).latest("pk")
    assert (event.before["jurisdiction"], event.after["jurisdiction"]) == ("", "VN")


@pytest.fixture
def managers(db):
    venue = VenueFactory(code="hanoi", currency="VND", jurisdiction="VN")
    return venue, staff("manager", MANAGER, venue), staff("approver", MANAGER, venue)


def test_the_venues_jurisdiction_gives_the_thresholds_proposed_from_it(managers):
    venue, manager, approver = managers
    version = thresholds_propose(venue=venue, user=manager, from_jurisdiction=True)
    assert (version.logging_threshold, version.reporting_threshold) == (
        D("70000000"),
        D("400000000"),
    )
    event = AuditEvent.objects.filter(action=AuditAction.CASH_THRESHOLDS_PROPOSE).latest("pk")
    assert event.after["jurisdiction"] == "VN" and "from the law of VN" in event.summary
    # four eyes still: not the proposer, a second manager
    with pytest.raises(Forbidden):
        thresholds_approve(version=version, user=manager)
    assert thresholds_approve(version=version, user=approver).status == "approved"
    # a lower threshold than the law's is the venue's own policy
    lower = thresholds_propose(
        venue=venue,
        user=manager,
        logging_threshold=D("30000000"),
        reporting_threshold=D("100000000"),
    )
    assert lower.reporting_threshold == D("100000000")


def test_a_reporting_threshold_above_the_laws_is_refused(managers):
    venue, manager, approver = managers
    with pytest.raises(InvalidInput) as refused:
        thresholds_propose(
            venue=venue,
            user=manager,
            logging_threshold=D("70000000"),
            reporting_threshold=D("400001000"),
        )
    assert refused.value.field == "reporting_threshold"
    assert refused.value.reason == "above_legal_threshold"
    assert "Decision 11/2023/QD-TTg" in refused.value.message
    assert "400.000.000" in refused.value.message or "400,000,000" in refused.value.message
    # proposed before the venue named its law, refused at the approval
    venue.jurisdiction = ""
    venue.save(update_fields=["jurisdiction"])
    version = thresholds_propose(
        venue=venue, user=manager, logging_threshold=D("1000"), reporting_threshold=D("500000000")
    )
    venue.jurisdiction = "VN"
    venue.save(update_fields=["jurisdiction"])
    with pytest.raises(InvalidInput, match="Decision 11/2023"):
        thresholds_approve(version=version, user=approver)
    assert CashThresholds.objects.get(pk=version.pk).status == "proposed"


def test_no_jurisdiction_or_another_currency_gives_its_own_figures(db):
    plain = VenueFactory(code="plain")
    hkd = VenueFactory(code="cotai", currency="HKD", rounding_unit=D("1"), jurisdiction="MO")
    for venue in (plain, hkd):
        manager = staff(f"manager-{venue.code}", MANAGER, venue)
        with pytest.raises(InvalidInput) as refused:
            thresholds_propose(venue=venue, user=manager, from_jurisdiction=True)
        assert refused.value.field == ("jurisdiction" if venue is plain else "reporting_threshold")
        # its own figures, uncapped by a law in another currency
        version = thresholds_propose(
            venue=venue,
            user=manager,
            logging_threshold=D("1000"),
            reporting_threshold=D("900000"),
        )
        assert version.reporting_threshold == D("900000")


def test_the_cash_page_shows_the_law_beside_the_form_and_proposes_from_it(managers, client):
    venue, manager, _approver = managers
    client.force_login(manager)
    page = client.get(reverse("reports:cash") + f"?venue={venue.code}")
    text = page.content.decode()
    assert page.status_code == 200
    assert "11/2023" in text and JURISDICTIONS["VN"].sources[0].url in text  # in Vietnamese
    assert 'name="from_jurisdiction"' in text
    answer = client.post(
        reverse("reports:cash_thresholds") + f"?venue={venue.code}", {"from_jurisdiction": "1"}
    )
    assert answer.status_code == 302
    assert CashThresholds.objects.get(venue=venue).reporting_threshold == D("400000000")
    refused = client.post(
        reverse("reports:cash_thresholds") + f"?venue={venue.code}",
        {"logging_threshold": "1000", "reporting_threshold": "500000000"},
    )
    assert refused.status_code == 422
    assert "11/2023" in refused.content.decode()  # the law named, in the venue's language


def test_the_venue_admin_shows_the_jurisdiction_to_a_manager_read_only(managers, client):
    venue, manager, _approver = managers
    client.force_login(manager)
    page = client.get(reverse("admin:venues_venue_change", args=[venue.pk]))
    assert page.status_code == 200
    assert 'name="jurisdiction"' not in page.content.decode()
    assert Venue.objects.get(pk=venue.pk).jurisdiction == "VN"

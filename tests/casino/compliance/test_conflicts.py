"""A compliance officer too close to a case's player neither decides nor files it
(casino.compliance.conflicts.case_conflict_refusal, raised by the services): one who dealt
at the player's table or supervised its session on the case's day is refused, with why, and
does not read the case at all (case_read_refusal);
one who worked elsewhere decides; a cashier who recorded the cash of an unknown patron
linked to the player does not; the author still never decides their own case."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse

from casino.cage.services.cash import cash_record
from casino.cage.services.inventory import chip_purchase
from casino.cage.services.patrons import WindowPatron, unknown_patron_create, unknown_patron_link
from casino.compliance.conflicts import case_conflict_refusal, case_days, case_people
from casino.compliance.models import CaseStatus
from casino.compliance.services import case_decide, case_file, case_open, case_submit
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Forbidden
from casino.staff.roles import CAGE, COMPLIANCE, DEALER, grant
from tests.casino.compliance.conftest import english
from tests.factories import PlayerFactory, niuniu_table, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_review(floor, desk, case):
    return case_submit(case=case, user=desk.author)


def test_the_case_is_about_its_player_on_the_day_of_its_alert(floor, desk, case):
    assert case_days(case) == [desk.alert.gaming_date]
    assert desk.player.pk in case_people(case).player_ids


def test_an_officer_who_dealt_to_the_player_is_refused_the_decision(floor, desk, in_review):
    # the table's dealer (who dealt the session where the player bought in) is also
    # compliance staff of the venue
    grant(floor.dealer, floor.venue, COMPLIANCE)
    with pytest.raises(Forbidden) as refused:
        case_decide(case=in_review, user=floor.dealer, decision="file", reasons="structuring")
    assert refused.value.reason == "dealt_to_player"
    assert floor.table.code in refused.value.message
    assert "another compliance officer" in refused.value.message
    in_review.refresh_from_db()
    assert in_review.status == CaseStatus.IN_REVIEW and in_review.decided_by is None
    # the author-cannot-decide rule still holds, and is said first
    with pytest.raises(Forbidden) as own:
        case_decide(case=in_review, user=desk.author, decision="file", reasons="structuring")
    assert own.value.reason == "four_eyes"


def test_an_officer_who_did_not_deal_to_the_player_decides(floor, desk, in_review):
    # a dealer who dealt at another table of the venue that day, where the player did not
    # play, and is compliance staff too
    elsewhere = staff("dealer-nn2", DEALER, floor.venue)
    grant(elsewhere, floor.venue, COMPLIANCE)
    other = PlayerFactory(venue=floor.venue, membership_number="M-2")
    session = session_open(
        table=niuniu_table(floor.venue, code="NN2"),
        counted_by=elsewhere,
        confirmed_by=floor.supervisor2,
        opening_chips={"100000": 50},
    )
    cash_record(session=session, user=elsewhere, player=other, amount=D("1000000"))
    assert case_conflict_refusal(user=elsewhere, case=in_review) is None
    decided = case_decide(case=in_review, user=elsewhere, decision="file", reasons="structuring")
    assert (decided.status, decided.decided_by) == (CaseStatus.DECIDED, elsewhere)


def test_an_officer_who_supervised_the_players_table_does_not_file(floor, desk, in_review):
    decided = case_decide(case=in_review, user=desk.reviewer, decision="file", reasons="clear")
    # the supervisor who confirmed the session's opening count
    grant(floor.supervisor, floor.venue, COMPLIANCE)
    with pytest.raises(Forbidden) as refused:
        case_file(case=decided, user=floor.supervisor, reference="STR-1")
    assert refused.value.reason == "supervised_player"
    assert "You supervised table NN1" in refused.value.message
    filed = case_file(case=decided, user=desk.author, reference="STR-1")
    assert filed.status == CaseStatus.FILED


def test_the_players_dealer_does_not_read_the_case_anywhere(floor, desk, in_review):
    """The player's dealer and supervisor never see a case about them, compliance staff or
    not: the case's page, its steps, the lists and the API refuse or leave it out, saying
    why; the other officers read it as before."""
    grant(floor.dealer, floor.venue, COMPLIANCE)
    client = english(floor.dealer)
    page = client.get(reverse("compliance:case", args=[in_review.pk]))
    assert page.status_code == 403
    assert "You dealt at table NN1" in page.content.decode()
    refused = client.post(
        reverse("compliance:case-step", args=[in_review.pk, "decide"]),
        {"decision": "file", "reasons": "structuring"},
    )
    assert refused.status_code == 403
    assert "another compliance officer decides and files this case" in refused.content.decode()
    listing = client.get(reverse("compliance:cases", args=[floor.venue.pk]))
    assert listing.status_code == 200
    assert reverse("compliance:case", args=[in_review.pk]) not in listing.content.decode()
    api = client.get(reverse("api:compliance-case-detail", args=[in_review.pk]))
    assert api.status_code == 403 and "You dealt at table NN1" in api.json()["detail"]
    rows = client.get(reverse("api:compliance-case-list", args=[floor.venue.pk])).json()
    assert in_review.pk not in [row["id"] for row in rows["results"]]
    floor.dealer.is_staff = True  # let into the admin: the case is not among theirs there
    floor.dealer.save(update_fields=["is_staff"])
    admin_page = client.get(reverse("admin:compliance_suspicioncase_change", args=[in_review.pk]))
    assert (admin_page.status_code, admin_page["Location"]) == (302, reverse("admin:index"))
    in_review.refresh_from_db()
    assert in_review.status == CaseStatus.IN_REVIEW
    # the reviewer, who worked no table, reads it and is offered the decision
    reviewer = english(desk.reviewer)
    page = reviewer.get(reverse("compliance:case", args=[in_review.pk])).content.decode()
    assert "Record the decision" in page
    rows = reviewer.get(reverse("api:compliance-case-list", args=[floor.venue.pk])).json()
    assert in_review.pk in [row["id"] for row in rows["results"]]


def test_a_case_about_nobody_known_refuses_nobody(floor, desk):
    case = case_open(
        venue=floor.venue,
        user=desk.author,
        subject_description="a man about 40, grey jacket",
        grounds="Cash in split across two tables.",
    )
    case = case_submit(case=case, user=desk.author)
    grant(floor.dealer, floor.venue, COMPLIANCE)
    assert case_conflict_refusal(user=floor.dealer, case=case) is None


def test_a_cashier_who_recorded_the_linked_patrons_chips_does_not_decide(floor, desk, in_review):
    """A chip purchase at the cage window by a patron nobody knows, recorded by a cashier
    who is also compliance staff: once the patron is linked to the case's player, their
    cash is the player's, and the cashier is too close to decide."""
    venue = floor.venue
    venue.note_denominations = ["500000"]
    venue.save(update_fields=["note_denominations"])
    cashier = staff("aml-cashier", CAGE, venue)
    grant(cashier, venue, COMPLIANCE)
    patron = unknown_patron_create(venue=venue, user=cashier, description="a man, white cap")
    chip_purchase(
        venue=venue,
        user=cashier,
        chips={"1000000": 10},
        notes={"500000": 20},
        patron=WindowPatron(unknown_patron=patron),
    )
    assert case_conflict_refusal(user=cashier, case=in_review) is None
    unknown_patron_link(patron=patron, member=desk.player, user=floor.supervisor)
    with pytest.raises(Forbidden) as refused:
        case_decide(case=in_review, user=cashier, decision="no_filing", reasons="explained")
    assert refused.value.reason == "recorded_movement"
    assert "Chip purchase at Cage" in refused.value.message
    # the cashier reads the case (they neither dealt nor supervised), but is offered no
    # decision, and the page says why
    page = english(cashier).get(reverse("compliance:case", args=[in_review.pk]))
    assert page.status_code == 200
    assert "Record the decision" not in page.content.decode()
    assert "Chip purchase at Cage" in page.content.decode()

"""manage.py simulate: a shift filled through the services or in bulk, the same shape."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db.models import Count, F, Q, Sum

from casino.floor.models import Bet, Box, Round, TableSession
from casino.floor.services.tallies import tally_differences
from casino.integrity.models import CardTally, CategoryTally
from casino.integrity.models.tallies import CARDS_DEALT
from casino.integrity.tallies import integrity_differences, integrity_rebuild
from casino.ledger.models import LedgerEntry
from casino.reports.models import ShiftReport
from casino.venues.models import Shift

pytestmark = pytest.mark.django_db


def fill(*args: str) -> Shift:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    assert "rounds via" in out.getvalue()
    return Shift.objects.latest("pk")


def shape(shift: Shift) -> dict:
    """What every round of a shift must look like, whoever wrote it."""
    rounds = Round.objects.filter(session__shift=shift)
    ledger = LedgerEntry.objects.filter(round__in=rounds)
    unbalanced = ledger.values("round").annotate(t=Sum("amount")).exclude(t=0).count()
    return {
        "rounds": rounds.count(),
        "unbalanced": unbalanced,
        # a round's house entries add up to what it says the house won
        "house_net_mismatch": rounds.filter(status="settled")
        .annotate(h=Sum("ledger__amount", filter=Q(ledger__account="house")))
        .exclude(h=F("house_net"))
        .count(),
        "voided_without_reversal": rounds.filter(status="voided")
        .annotate(v=Count("ledger", filter=Q(ledger__kind="void")))
        .filter(v=0)
        .count(),
        "bets_unsettled": Bet.objects.filter(box__round__in=rounds, net__isnull=True).count(),
        "boxes": Box.objects.filter(round__in=rounds).count() > 0,
        "sessions_closed": TableSession.objects.filter(shift=shift, status="closed").count(),
        "variance": TableSession.objects.filter(shift=shift).aggregate(v=Sum("variance"))["v"],
    }


def test_through_the_services():
    shift = fill("--rounds", "12", "--tables", "2", "--via", "services", "--void-rate", "0.2")
    figures = shape(shift)
    assert figures["rounds"] == 12 and figures["unbalanced"] == 0
    assert figures["house_net_mismatch"] == 0 and figures["voided_without_reversal"] == 0
    assert figures["sessions_closed"] == 2 and figures["variance"] == 0


def test_in_bulk_the_same_shape_and_a_report():
    shift = fill(
        "--rounds",
        "60",
        "--tables",
        "2",
        "--via",
        "bulk",
        "--batch",
        "25",
        "--void-rate",
        "0.2",
        "--short",
        "5000",
        "--report",
    )
    figures = shape(shift)
    assert figures["rounds"] == 60 and figures["unbalanced"] == 0
    assert figures["house_net_mismatch"] == 0 and figures["voided_without_reversal"] == 0
    assert figures["bets_unsettled"] == 0 and figures["boxes"]
    assert figures["sessions_closed"] == 2 and figures["variance"] == -5000
    # rounds are spread over the shift's hours, numbered per table from 1
    rounds = Round.objects.filter(session__shift=shift)
    assert rounds.filter(settled_at__lt=shift.starts_at).count() == 0
    assert rounds.filter(settled_at__gt=shift.ends_at).count() == 0
    assert sorted(rounds.filter(session__table__code="S1").values_list("number", flat=True)) == (
        list(range(1, 31))
    )
    # the tallies hold the settled rounds, as the services would have left them
    assert tally_differences(shift.pk) == []
    assert rounds.filter(status="voided").exists()
    report = ShiftReport.objects.get(shift=shift)
    assert report.status == "done"
    settled = rounds.filter(status="settled")
    assert report.figures["total"]["rounds"] == settled.count()
    house = LedgerEntry.objects.filter(round__in=rounds, account="house").aggregate(t=Sum("amount"))
    assert report.figures["total"]["house_win"] == str(house["t"])


def integrity_tallies(shift: Shift) -> tuple[dict, dict]:
    """The shift's integrity tallies that count anything, by their keys."""
    categories = {
        (t.session_id, t.dealer_id, t.player_id, t.ruleset_version_id, t.subject, t.category): (
            t.count
        )
        for t in CategoryTally.objects.filter(shift=shift).exclude(count=0)
    }
    cards = {
        (t.session_id, t.dealer_id, t.rank, t.suit): t.count
        for t in CardTally.objects.filter(shift=shift).exclude(count=0)
    }
    return categories, cards


def test_in_bulk_the_integrity_tallies_are_what_a_rebuild_counts_from_the_settled_rounds():
    # given a bulk shift with voids, in batches smaller than a table's rounds
    shift = fill(
        *("--rounds", "50", "--tables", "2", "--via", "bulk"),
        *("--batch", "10", "--void-rate", "0.2", "--seed", "3"),
    )
    settled = Round.objects.filter(session__shift=shift, status="settled")
    assert Round.objects.filter(session__shift=shift, status="voided").exists()
    written = integrity_tallies(shift)

    # when the tallies are counted again from the settled rounds
    assert integrity_differences(shift.pk) == []
    assert integrity_rebuild(shift.pk) == settled.count()

    # then the rebuild changes nothing: every settled round once, no voided one
    assert integrity_tallies(shift) == written
    categories, cards = written
    dealer_hands = sum(n for key, n in categories.items() if key[4] == "dealer_hand")
    assert dealer_hands == settled.count()
    dealt = sum(int(key[5]) * n for key, n in categories.items() if key[4] == CARDS_DEALT)
    assert sum(cards.values()) == dealt >= 10 * settled.count()
    members = {key[2] for key in categories if key[4] == "box_hand"} - {None}
    assert members and members <= set(
        Box.objects.filter(round__in=settled).values_list("player_id", flat=True)
    )

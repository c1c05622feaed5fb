"""The demo's cage shift at a venue (``manage.py demo``): the cage's opening count signed by
two people, a chip purchase at the window, a member's front money deposited and drawn at a
table, and a marker: a credit line two managers approve, a marker issued at a table and
partly paid at the cage. Everything goes through the services, as at a real cage.
"""

from __future__ import annotations

from typing import Any

from casino.cage.inventory_selectors import (
    chip_denominations,
    fewest_pieces,
    note_denominations,
)
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import front_money_deposit, front_money_draw
from casino.cage.services.inventory import cage_count_record, cage_count_sign, chip_purchase
from casino.cage.services.markers import marker_issue_at_table, marker_pay
from casino.floor.models import TableSession
from casino.players.models import Player
from casino.venues.models import Venue


def cage_shift(*, venue: Venue, users: dict[str, Any], site: str) -> list[str]:
    """The venue's cage shift of the demo, and the lines that say where to see it."""
    notes, chips = note_denominations(venue), chip_denominations(venue)
    session = (
        TableSession.objects.filter(table__venue=venue, status=TableSession.Status.OPEN)
        .order_by("pk")
        .first()
    )
    players = list(Player.objects.filter(venue=venue).order_by("membership_number")[:2])
    if not notes or not chips or session is None or len(players) < 2:
        return []
    opening = cage_count_record(
        venue=venue,
        user=users["cashier"],
        kind="opening",
        counted={"notes": {d: 200 for d in notes}, "chips": {d: 500 for d in chips}},
    )
    cage_count_sign(count=opening, user=users["manager"])
    unit = venue.rounding_unit
    bought = fewest_pieces(unit * 3_000, chips)
    paid = fewest_pieces(unit * 3_000, notes)
    if bought and paid:
        chip_purchase(venue=venue, user=users["cashier"], chips=bought, notes=paid)
    saver, borrower = players
    front_money_deposit(venue=venue, player=saver, user=users["cashier"], amount=unit * 10_000)
    front_money_draw(session=session, player=saver, user=users["dealer"], amount=unit * 4_000)
    line = credit_line_propose(
        venue=venue, player=borrower, user=users["manager"], limit=unit * 50_000
    )
    credit_line_approve(line=line, user=users["approver"])
    marker = marker_issue_at_table(
        session=session,
        player=borrower,
        user=users["dealer"],
        supervisor=users["supervisor"],
        amount=unit * 20_000,
        player_signed=True,
    )
    marker_pay(marker=marker, user=users["cashier"], amount=unit * 5_000, method="cash")
    return [
        f"  cage: opened by a count signed twice, a chip purchase, {saver.membership_number}'s "
        f"front money ({unit * 6_000} {venue.currency} left), marker {marker.label} of "
        f"{borrower.membership_number} ({unit * 15_000} {venue.currency} outstanding): "
        f"{site}/console/cage/{venue.pk}/inventory/ · {site}/reports/markers/aging/"
        f"?venue={venue.code} · {site}/reports/front-money/?venue={venue.code}"
    ]

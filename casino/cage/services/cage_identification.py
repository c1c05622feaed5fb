"""What the cage asks of a member before it records their cash: front money deposited or
returned and a marker paid in cash ask what a table's buy-in and the cage window ask
(``casino.cage.services.thresholds``' rule, its one place): the member's day, with this
cash, is judged by ``threshold_crossing``, and where it reaches the reporting threshold
while their record holds no identity document, the cashier asks for one and gives its type
and number (``identification_asked``: refused, naming the field, without them). The
movement keeps the document seen, as a table's transaction keeps it.

A front money movement and a marker are a member's: a patron nobody knows has none, so no
description is asked here (the window asks it: ``casino.cage.services.patrons``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from casino.cage.models import CashInstrument
from casino.cage.services.patrons import person_locked
from casino.cage.services.thresholds import identification_asked, threshold_crossing
from casino.players.models import Player
from casino.venues.models import Venue


def member_cash_identification(
    *,
    venue: Venue,
    player: Player,
    direction: str,
    amount: Decimal,
    at: datetime,
    id_document_type: str = "",
    id_document_number: str = "",
) -> dict[str, str]:
    """The member locked (``person_locked``) and the identification their cash of
    ``direction`` (a ``CashDirection``) asks for, checked: the fields the movement keeps
    (``id_document_type`` and ``id_document_number``, or nothing when none is asked)."""
    player, _none = person_locked(player, None)
    crossing = threshold_crossing(
        venue=venue,
        kind=direction,
        instrument=CashInstrument.CASH,
        amount=amount,
        player=player,
        at=at,
    )
    return identification_asked(
        crossing,
        id_document_type=id_document_type,
        id_document_number=id_document_number,
        patron_description="",
    )


def document_posted(data: Mapping[str, Any]) -> tuple[str, str]:
    """The identity document a form or an API body gives (``id_document_type``,
    ``id_document_number``), as the services take it."""
    return (data.get("id_document_type", "") or "", data.get("id_document_number", "") or "")

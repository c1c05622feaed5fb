"""Integrity's answers to what the floor tells (``casino.floor.signals``) and the cage tells
(``casino.cage.signals``), connected when the app is ready."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.dispatch import receiver

from casino.cage.models import CageCount
from casino.cage.signals import cage_count_imbalance
from casino.floor.models import Box, Round
from casino.floor.signals import round_tallied
from casino.games import RoundResult
from casino.integrity.investigations import investigation_open_cage
from casino.integrity.tallies import integrity_tally


@receiver(round_tallied, dispatch_uid="casino.integrity.tallies")
def round_into_tallies(
    sender: Any,
    *,
    round_: Round,
    result: RoundResult,
    boxes: Sequence[Box],
    sign: int,
    **kwargs: Any,
) -> None:
    """A settled round's cards and hands counted into the integrity tallies (a voided one's
    taken off)."""
    integrity_tally(round_, result, boxes, sign=sign)


@receiver(cage_count_imbalance, dispatch_uid="casino.integrity.cage_count")
def cage_count_investigated(sender: Any, *, count: CageCount, **kwargs: Any) -> None:
    """A cage count over or short opens an investigation."""
    investigation_open_cage(count)

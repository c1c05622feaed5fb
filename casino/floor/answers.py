"""What the floor asks of the apps above it, which it does not know: the count and the cage
register their answers when they are ready (their ``AppConfig.ready``), and the floor's
figures, services and screens call the questions below, each a hook
(``casino.kernel.hooks.Hook``). An answer asked before it is registered is a configuration
error, never an empty figure.

- **The count** (``casino.count.selectors``): whether a session's drop box is counted, for
  the figures with the count (``casino.floor.figures.with_count_sums``).
- **The cage** (``casino.cage.answers``): a session's slips and cash. Its slips not yet
  verified refuse its close and are named on the close screen; its verified fills and
  credits and the chips sold and bought back at the table are in its figures and tray
  (``casino.floor.figures.session_sums``); the floor's screens show the slips waiting and
  the cash that reached a threshold, and which rounds were entered late from paper.

What the floor tells them as it writes is sent as a signal instead (``casino.floor.signals``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any, TypedDict

from django.db.models import Exists, Subquery

from casino.floor.models import TableSession
from casino.kernel.hooks import Hook


class CageSums(TypedDict):
    fills: Decimal
    credits: Decimal
    chips_sold: Decimal
    chips_bought_back: Decimal


class SlipsWaiting(TypedDict):
    fills: int
    credits: int
    oldest: datetime


# The count's answer

#: Whether the session (``OuterRef("pk")``) has its drop box counted: an ``Exists``.
box_counted: Hook[[], Exists] = Hook("box_counted", answered_by="casino.count")

# The cage's answers

#: The session's slips neither verified nor voided, by the number the screens show.
pending_slips: Hook[[TableSession], list[str]] = Hook("pending_slips", answered_by="casino.cage")
#: Its verified fills and credits, and the chips the table sold and bought back (buy-ins
#: and cash-outs not voided, paid other than in chips).
session_sums: Hook[[TableSession], CageSums] = Hook("session_sums", answered_by="casino.cage")
#: How many slips of the session (``OuterRef("pk")``) wait for the cage: a ``Subquery``.
slips_waiting: Hook[[], Subquery] = Hook("slips_waiting", answered_by="casino.cage")
#: The waiting fills and credits of each session that has any, and the oldest.
slips_waiting_by_session: Hook[[Iterable[int]], dict[int, SlipsWaiting]] = Hook(
    "slips_waiting_by_session", answered_by="casino.cage"
)
#: How many buy-ins and cash-outs of each session reached the reporting threshold.
cash_reported_by_session: Hook[[Iterable[int]], dict[int, int]] = Hook(
    "cash_reported_by_session", answered_by="casino.cage"
)
#: The session's cash transactions that reached a threshold, newest first.
crossings: Hook[[TableSession], list[Any]] = Hook("crossings", answered_by="casino.cage")
#: The session's rounds entered late from a round sheet (the system was down): round id ->
#: the paper's number, for the history to flag them.
late_rounds: Hook[[TableSession], dict[int, str]] = Hook("late_rounds", answered_by="casino.cage")

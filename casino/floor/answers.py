"""What the floor asks of the apps above it, which it does not know: the count and the cage
register their answers when they are ready (their ``AppConfig.ready``), and the floor's
figures, services and screens ask through ``count()`` and ``cage()``. An answer asked before
it is registered is a configuration error, never an empty figure.

- **The count** (``casino.count.selectors``): whether a session's drop box is counted, for
  the figures with the count (``casino.floor.figures.with_count_sums``).
- **The cage** (``casino.cage.answers``): a session's slips and cash. Its slips not yet
  verified refuse its close and are named on the close screen; its verified fills and
  credits and the chips sold and bought back at the table are in its figures and tray
  (``casino.floor.figures.session_sums``); the floor's screens show the slips waiting and
  the cash that reached a threshold.

What the floor tells them as it writes is sent as a signal instead (``casino.floor.signals``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any, Protocol, TypedDict

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Exists, Subquery

from casino.floor.models import TableSession


class CountAnswers(Protocol):
    def box_counted(self) -> Exists:
        """Whether the session (``OuterRef("pk")``) has its drop box counted."""
        ...


class CageSums(TypedDict):
    fills: Decimal
    credits: Decimal
    chips_sold: Decimal
    chips_bought_back: Decimal


class SlipsWaiting(TypedDict):
    fills: int
    credits: int
    oldest: datetime


class CageAnswers(Protocol):
    def pending_slips(self, session: TableSession) -> list[str]:
        """The session's slips neither verified nor voided, by the number the screens show."""
        ...

    def session_sums(self, session: TableSession) -> CageSums:
        """Its verified fills and credits, and the chips the table sold and bought back
        (buy-ins and cash-outs not voided, paid other than in chips)."""
        ...

    def slips_waiting(self) -> Subquery:
        """How many slips of the session (``OuterRef("pk")``) wait for the cage."""
        ...

    def slips_waiting_by_session(self, session_ids: Iterable[int]) -> dict[int, SlipsWaiting]:
        """The waiting fills and credits of each session that has any, and the oldest."""
        ...

    def cash_reported_by_session(self, session_ids: Iterable[int]) -> dict[int, int]:
        """How many buy-ins and cash-outs of each session reached the reporting threshold."""
        ...

    def crossings(self, session: TableSession) -> list[Any]:
        """The session's cash transactions that reached a threshold, newest first."""
        ...


_answers: dict[str, Any] = {}


def answered_by(*, count: CountAnswers | None = None, cage: CageAnswers | None = None) -> None:
    """Register an app's answers (each app once, when it is ready)."""
    for name, answers in (("count", count), ("cage", cage)):
        if answers is not None:
            _answers[name] = answers


def _asked(name: str) -> Any:
    try:
        return _answers[name]
    except KeyError:
        raise ImproperlyConfigured(f"the {name} has not registered its answers") from None


def count() -> CountAnswers:
    return _asked("count")


def cage() -> CageAnswers:
    return _asked("cage")

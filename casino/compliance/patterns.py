"""The patterns of money laundering the cash log is searched for (docs/compliance/README.md,
"Patterns"), as plain functions over its movements: no database, so each rule is read and
tested by itself, and the job that runs them (``casino.compliance.detection``) only reads the
log and opens the cases.

- ``structuring``: several transactions of one person, or of people linked to one another,
  each *just under* a threshold, within a window: a sum split to stay below the report. A
  transaction counts as just under when it is at least ``NEAR`` of the threshold and below
  it; ``LEAST`` of them in one direction within ``WINDOW`` is a finding. Within one gaming
  day a jurisdiction that adds up the day already reports the total; the window finds the
  split across days, and every split where the law counts each transaction alone (Macau).
- ``little_play``: cash turned into chips and the chips cashed in again with little play
  between (refining money through the casino): on a gaming day, cash in of at least
  ``least_cash``, cashed out at least ``REDEEMED`` of it, and played (the handle of the
  person's ratings and tallies) less than ``PLAYED`` of it.

The figures are the defaults a venue starts with; each finding carries what it found (the
movements, the totals and the rule's figures), which is the evidence its case shows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

#: Just under a threshold: at least this share of it.
NEAR = Decimal("0.80")
#: Structuring: this many transactions just under, in one direction, within the window.
LEAST = 3
#: Structuring's window: a rolling day and a half, which spans a gaming day's change.
WINDOW = timedelta(hours=36)
#: Little play: cashed out at least this share of the cash brought in ...
REDEEMED = Decimal("0.90")
#: ... having played less than this share of it.
PLAYED = Decimal("0.20")


@dataclass(frozen=True)
class Movement:
    """One cash movement of the log, as the patterns read it: who (``person``: a key that
    is the same for linked people, e.g. the member a temporary patron was linked to), when,
    which way (``"in"`` or ``"out"``), how much, and where it is recorded."""

    person: str
    at: datetime
    direction: str
    amount: Decimal
    reference: str
    where: str = ""


@dataclass(frozen=True)
class Finding:
    """A pattern found: its kind, the person, the movements that make it and its figures."""

    kind: str
    person: str
    movements: tuple[Movement, ...]
    figures: dict[str, Any]

    @property
    def key(self) -> str:
        """The same finding, found again by a later run, has the same key (a run is
        idempotent: a case is opened once per key)."""
        first = min(m.at for m in self.movements)
        return f"{self.kind}:{self.person}:{first.isoformat()}"


def _just_under(amount: Decimal, threshold: Decimal, near: Decimal) -> bool:
    return threshold * near <= amount < threshold


def structuring(
    movements: Iterable[Movement],
    *,
    threshold: Decimal,
    near: Decimal = NEAR,
    least: int = LEAST,
    window: timedelta = WINDOW,
) -> list[Finding]:
    """Each person's runs of at least ``least`` transactions of one direction just under
    ``threshold`` within ``window``: one finding per run (the longest window from its first
    transaction), so a long run is one finding, not one per transaction."""
    under: dict[tuple[str, str], list[Movement]] = defaultdict(list)
    for movement in movements:
        if _just_under(movement.amount, threshold, near):
            under[(movement.person, movement.direction)].append(movement)
    found = []
    for (person, direction), rows in sorted(under.items()):
        rows.sort(key=lambda m: m.at)
        start = 0
        while start < len(rows):
            end = start
            while end + 1 < len(rows) and rows[end + 1].at - rows[start].at <= window:
                end += 1
            run = rows[start : end + 1]
            if len(run) >= least:
                found.append(
                    Finding(
                        kind="structuring",
                        person=person,
                        movements=tuple(run),
                        figures={
                            "direction": direction,
                            "count": len(run),
                            "total": sum((m.amount for m in run), Decimal(0)),
                            "threshold": threshold,
                            "near": near,
                            "window_hours": window.total_seconds() / 3600,
                        },
                    )
                )
                start = end + 1
            else:
                start += 1
    return found


def little_play(
    movements: Sequence[Movement],
    played: dict[str, Decimal],
    *,
    least_cash: Decimal,
    redeemed: Decimal = REDEEMED,
    played_share: Decimal = PLAYED,
) -> list[Finding]:
    """The people of one gaming day who brought in at least ``least_cash``, took out at
    least ``redeemed`` of it, and played (``played``: person -> handle) less than
    ``played_share`` of it."""
    by_person: dict[str, list[Movement]] = defaultdict(list)
    for movement in movements:
        by_person[movement.person].append(movement)
    found = []
    for person, rows in sorted(by_person.items()):
        cash_in = sum((m.amount for m in rows if m.direction == "in"), Decimal(0))
        cash_out = sum((m.amount for m in rows if m.direction == "out"), Decimal(0))
        handle = played.get(person, Decimal(0))
        if cash_in < least_cash or cash_out < cash_in * redeemed:
            continue
        if handle >= cash_in * played_share:
            continue
        found.append(
            Finding(
                kind="little_play",
                person=person,
                movements=tuple(sorted(rows, key=lambda m: m.at)),
                figures={
                    "cash_in": cash_in,
                    "cash_out": cash_out,
                    "played": handle,
                    "least_cash": least_cash,
                    "redeemed": redeemed,
                    "played_share": played_share,
                },
            )
        )
    return found

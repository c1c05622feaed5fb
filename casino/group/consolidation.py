"""The group's figures for a period in its reporting currency: the one place they are made.

Each venue's figures are read per gaming date (``casino.reports.periods.daily_lines``: the
same tallies and count as the venue's own period report, never summed another way; every
venue's at once, ``venues_daily_lines``, in one pass of the tallies), and each gaming date
is converted at the rate in force for that date of the venue's currency
(``casino.group.selectors.rates_in_force``; ``casino.group.rates.converted`` rounds). So
venues in different time zones are aligned by each venue's own gaming day, and a period
across a change of rate converts each day at its own rate.

A line is one venue's (and by game or pit, one venue's game or pit): its local amounts, the
rates it used (spans of days at one rate and source) and its amounts in the reporting
currency, the sum of its converted days. A line with a day whose rate is missing has no
converted amount: it is shown missing, with the rate to approve, never guessed. Subtotals
(by country, game or venue) and the total are in the reporting currency only, the sums of
their lines; one missing line makes them missing too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.group.models import ExchangeRate, GroupVenue, OperatingGroup
from casino.group.rates import converted
from casino.group.selectors import rates_in_force
from casino.reports.periods import Period, venues_daily_lines

#: The figures a line converts: the settled bets' handle and house win, the accounting-only
#: tables' drop and win by count.
FIGURES = ("handle", "house_win", "drop", "win_by_count")
ZERO = Decimal(0)


@dataclass(frozen=True)
class GroupDimension:
    code: str
    label: Promise
    #: The venue's dimension its lines are read by (``casino.reports.periods.DIMENSIONS``).
    venue_dimension: str
    #: The subtotal a line goes to: by country, by game, by venue (a pit is the venue's).
    subtotal_label: Promise


DIMENSIONS: dict[str, GroupDimension] = {
    d.code: d
    for d in [
        GroupDimension("venue", _("Venue"), "venue", _("Venue")),
        GroupDimension("country", _("Country"), "venue", _("Country")),
        GroupDimension("game", _("Game"), "game", _("Game")),
        GroupDimension("pit", _("Pit"), "pit", _("Venue")),
    ]
}


@dataclass(frozen=True)
class RateUsed:
    """Days in a row of one line converted at one rate."""

    start: date
    end: date
    rate: Decimal
    source: str
    version: int | None  # None: the venue's currency is the reporting currency

    def text(self) -> str:
        days = (
            self.start.isoformat()
            if self.start == self.end
            else f"{self.start.isoformat()}–{self.end.isoformat()}"
        )
        return f"{days}: {_rate_text(self.rate)} ({self.source})"


def _rate_text(rate: Decimal) -> str:
    return format(rate.normalize(), "f")


@dataclass(frozen=True)
class Missing:
    currency: str
    to_currency: str
    day: date

    def text(self) -> str:
        return gettext(
            "approve a %(pair)s rate for %(day)s (proposed by one group manager, approved "
            "by another)"
        ) % {"pair": f"{self.currency}→{self.to_currency}", "day": self.day.isoformat()}


@dataclass
class GroupLine:
    member: GroupVenue
    key: str
    label: str
    subtotal_key: str
    subtotal_label: str
    local: dict[str, Decimal]
    #: Each figure in the reporting currency; None when a day of the line has no rate.
    reporting: dict[str, Decimal] | None
    rates: list[RateUsed]
    missing_days: list[date]

    @property
    def venue(self) -> Any:
        return self.member.venue

    @property
    def currency(self) -> str:
        return self.member.venue.currency

    def rates_text(self) -> str:
        return "; ".join(rate.text() for rate in self.rates)


@dataclass
class Subtotal:
    key: str
    label: str
    reporting: dict[str, Decimal] | None


@dataclass
class Consolidation:
    group: OperatingGroup
    period: Period
    dimension: GroupDimension
    lines: list[GroupLine]
    subtotals: list[Subtotal]
    #: The group's total in the reporting currency; None while a line is missing a rate.
    total: dict[str, Decimal] | None
    missing: list[Missing] = field(default_factory=list)
    rates: list[ExchangeRate] = field(default_factory=list)

    @property
    def currency(self) -> str:
        return self.group.reporting_currency


def _summed(parts: list[dict[str, Decimal] | None]) -> dict[str, Decimal] | None:
    if any(part is None for part in parts):
        return None
    return {name: sum((part[name] for part in parts), ZERO) for name in FIGURES}  # type: ignore[index]


def consolidated(
    *,
    group: OperatingGroup,
    period: Period,
    dimension: str = "venue",
    members: list[GroupVenue] | None = None,
) -> Consolidation:
    """The group's lines for the period (its ``start`` to ``end``) by ``dimension``
    (venue, country, game or pit) for ``members`` (the venues read: by default every venue
    of the group), their subtotals and total in the reporting currency, the rates missing
    and the rates used (module docstring).

    Long because the lines, their subtotals and the total are summed in this one pass, so
    that a figure and the sums it is in cannot disagree (a missing line makes its sums
    missing here, not in a second place)."""
    dim = DIMENSIONS[dimension]
    if members is None:
        members = list(
            GroupVenue.objects.filter(group=group)
            .select_related("venue")
            .order_by("country", "venue__code")
        )
    target = group.reporting_currency
    currencies = {m.venue.currency for m in members} - {target}
    in_force = rates_in_force(
        group=group, currencies=currencies, start=period.start, end=period.end
    )
    lines: list[GroupLine] = []
    missing: set[Missing] = set()
    used: dict[int, ExchangeRate] = {}
    # every venue's tallies in one pass (one GROUP BY), each venue's lines as its own
    read = venues_daily_lines(
        venues=[member.venue for member in members],
        start=period.start,
        end=period.end,
        dimension=dim.venue_dimension,
    )
    for member in members:
        venue = member.venue
        by_key: dict[str, list[dict[str, Any]]] = {}
        labels: dict[str, str] = {}
        for day_line in read[venue.pk]:
            by_key.setdefault(day_line["key"], []).append(day_line)
            labels[day_line["key"]] = day_line["label"]
        for key, days in by_key.items():
            local = {name: ZERO for name in FIGURES}
            reporting: dict[str, Decimal] | None = {name: ZERO for name in FIGURES}
            rates: list[RateUsed] = []
            missing_days = []
            for day_line in days:
                day = day_line["gaming_date"]
                amounts = {name: day_line[name] or ZERO for name in FIGURES}
                for name in FIGURES:
                    local[name] += amounts[name]
                if venue.currency == target:
                    rate, source, version = Decimal(1), gettext("same currency"), None
                else:
                    found = in_force.get((venue.currency, day))
                    if found is None:
                        missing_days.append(day)
                        missing.add(Missing(venue.currency, target, day))
                        reporting = None
                        continue
                    used[found.pk] = found
                    rate, source, version = found.rate, found.source, found.version
                if reporting is not None:
                    for name in FIGURES:
                        reporting[name] += converted(amounts[name], rate, target)
                last = rates[-1] if rates else None
                if last and (last.rate, last.source, last.version) == (rate, source, version):
                    rates[-1] = RateUsed(last.start, day, rate, source, version)
                else:
                    rates.append(RateUsed(day, day, rate, source, version))
            if dim.code == "country":
                subtotal = (member.country, member.country)
            elif dim.code == "game":
                subtotal = (key, labels[key])
            else:
                subtotal = (venue.code, venue.name)
            lines.append(
                GroupLine(
                    member=member,
                    key=key,
                    label=labels[key],
                    subtotal_key=subtotal[0],
                    subtotal_label=subtotal[1],
                    local=local,
                    reporting=reporting,
                    rates=rates,
                    missing_days=missing_days,
                )
            )
    lines.sort(key=lambda line: (line.subtotal_key, line.member.country, line.venue.code, line.key))
    subtotals = []
    for key in dict.fromkeys(line.subtotal_key for line in lines):
        parts = [line for line in lines if line.subtotal_key == key]
        subtotals.append(
            Subtotal(key, parts[0].subtotal_label, _summed([line.reporting for line in parts]))
        )
    total = _summed([line.reporting for line in lines]) if lines else {n: ZERO for n in FIGURES}
    return Consolidation(
        group=group,
        period=period,
        dimension=dim,
        lines=lines,
        subtotals=subtotals,
        total=total,
        missing=sorted(missing, key=lambda m: (m.day, m.currency)),
        rates=sorted(used.values(), key=lambda r: (r.day, r.from_currency)),
    )

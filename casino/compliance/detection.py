"""The cash log searched for laundering patterns, and a case opened for each finding
(docs/compliance/README.md, "Patterns").

``patterns_detect(venue, gaming_date)`` reads the venue's cash log
(``casino.cage.cash_log.cash_log``) of the gaming day and the day before (structuring's
window spans the change of gaming day), turns each row that counts (cash, more than 0) into
a ``casino.compliance.patterns.Movement`` of its person, runs the patterns against the
venue's cash thresholds in force (``casino.cage.services.thresholds.thresholds_in_force``:
structuring just under the reporting threshold; little play from the logging threshold up,
the played amount the member's handle from their ratings and tallies,
``casino.reports.ratings.player_history``), and opens a draft case for each finding, with the
movements as its evidence (``casino.compliance.services.case_open_from_alert``).

A person is a member (an unknown patron linked to one counts as that member: the log says
so) or an unknown patron by their identifier. Little play is asked of members only: an
unknown patron's play is not rated, so how much they played is not known.

Run again over the same days, it opens nothing twice: a case keeps its finding's key, once
per venue (a database constraint). Run by the compliance staff's page, by
``manage.py detect_patterns`` and by the nightly task (``casino.compliance.tasks``).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from casino.cage.cash_log import CashMovement, Source, cash_log
from casino.cage.patrons import CashDirection
from casino.cage.services.thresholds import thresholds_in_force
from casino.compliance.models import CaseSource, SuspicionCase
from casino.compliance.patterns import Finding, Movement, little_play, structuring
from casino.compliance.services import case_open_from_alert
from casino.kernel.money import venue_money
from casino.kernel.timezones import venue_zone
from casino.players.models import Player
from casino.reports.ratings import player_history
from casino.venues.models import Venue
from casino.venues.services.gaming_days import gaming_date_of

#: The most movements a case's evidence names one by one.
MAX_EVIDENCE = 50


def _person(row: CashMovement) -> str:
    if row.player is not None:
        return f"member:{row.player.pk}"
    return f"patron:{row.unknown_patron.pk}" if row.unknown_patron is not None else ""


def _movements(rows: list[CashMovement]) -> tuple[list[Movement], dict[str, CashMovement]]:
    """The rows that count, as the patterns read them, and each one's row by reference."""
    found, by_reference = [], {}
    for row in rows:
        person = _person(row)
        if not person or not row.counts or row.amount <= 0:
            continue
        reference = f"{row.source}:{row.source_id}"
        way = "in" if row.direction == CashDirection.IN else "out"
        found.append(Movement(person, row.at, way, row.amount, reference, row.where))
        by_reference[reference] = row
    return found, by_reference


def _played(venue: Venue, gaming_date: date, people: set[str]) -> dict[str, Decimal]:
    ids = [int(person.split(":")[1]) for person in people if person.startswith("member:")]
    return {
        f"member:{player.pk}": player_history(
            player=player, date_from=gaming_date, date_to=gaming_date
        ).totals["handle"]
        for player in Player.objects.filter(pk__in=ids, venue=venue)
    }


def _evidence(finding: Finding, rows: dict[str, CashMovement], venue: Venue) -> list[dict]:
    lines: list[dict[str, Any]] = []
    zone = venue_zone(venue)
    for movement in finding.movements[:MAX_EVIDENCE]:
        row = rows[movement.reference]
        text = (
            f"{timezone.localtime(row.at, zone):%Y-%m-%d %H:%M} {row.where} {row.kind_label} "
            f"{row.direction_label} {venue_money(row.amount, venue)} ({row.person})"
        )
        if row.source == Source.TABLE:
            lines.append({"kind": "cash_transaction", "ref": row.source_id, "note": text})
        else:
            lines.append({"kind": "note", "ref": "", "note": f"{text} [{movement.reference}]"})
    return lines


def _grounds(finding: Finding, venue: Venue) -> str:
    figures = finding.figures
    if finding.kind == "structuring":
        return _(
            "Structuring: %(count)d cash transactions of one direction, each just under the "
            "reporting threshold of %(threshold)s (from %(near)s%% of it), within %(hours)s "
            "hours, together %(total)s."
        ) % {
            "count": figures["count"],
            "threshold": venue_money(figures["threshold"], venue),
            "near": int(figures["near"] * 100),
            "hours": int(figures["window_hours"]),
            "total": venue_money(figures["total"], venue),
        }
    return _(
        "Little play: %(cash_in)s of cash brought in and %(cash_out)s taken out on the gaming "
        "day, with %(played)s played (less than %(share)s%% of what was brought in)."
    ) % {
        "cash_in": venue_money(figures["cash_in"], venue),
        "cash_out": venue_money(figures["cash_out"], venue),
        "played": venue_money(figures["played"], venue),
        "share": int(figures["played_share"] * 100),
    }


def _open(venue: Venue, finding: Finding, rows: dict[str, CashMovement]) -> SuspicionCase | None:
    if SuspicionCase.objects.filter(venue=venue, finding=finding.key).exists():
        return None
    first = rows[finding.movements[0].reference]
    with translation.override(venue.language):
        grounds, evidence = _grounds(finding, venue), _evidence(finding, rows, venue)
    patron = first.unknown_patron if first.player is None else None
    try:
        with transaction.atomic():
            return case_open_from_alert(
                venue=venue,
                grounds=grounds,
                evidence=evidence,
                detected_at=timezone.now(),
                player=first.player,
                subject_description=(
                    f"{patron.code}: {patron.description}" if patron is not None else ""
                ),
                source=CaseSource.PATTERN,
                finding=finding.key,
            )
    except IntegrityError:  # another run opened it at the same moment
        return None


def patterns_detect(venue: Venue, gaming_date: date) -> list[SuspicionCase]:
    """Search the venue's cash log of ``gaming_date`` (and the day before) and open a case
    for each new finding; the cases opened."""
    thresholds = thresholds_in_force(venue)
    if thresholds is None:
        return []
    day = cash_log(gaming_date=gaming_date, venue=venue)
    before = cash_log(gaming_date=gaming_date - timedelta(days=1), venue=venue)
    both, rows = _movements(before + day)
    today = [m for m in both if rows[m.reference].gaming_date == gaming_date]
    findings = [
        finding
        for finding in structuring(both, threshold=thresholds.reporting_threshold)
        if any(rows[m.reference].gaming_date == gaming_date for m in finding.movements)
    ]
    members = [m for m in today if m.person.startswith("member:")]
    least = thresholds.logging_threshold
    # the handle is read (a few queries a member) only of those whose cash could be little
    # play: as if they had played nothing
    maybe = {f.person for f in little_play(members, {}, least_cash=least)}
    played = _played(venue, gaming_date, maybe)
    findings += little_play([m for m in members if m.person in maybe], played, least_cash=least)
    opened = [_open(venue, finding, rows) for finding in findings]
    return [case for case in opened if case is not None]


def patterns_detect_ended(at: Any = None) -> list[tuple[Venue, list[SuspicionCase]]]:
    """Every venue's gaming day before the one under way at ``at`` (now), searched."""
    at = at or timezone.now()
    return [
        (venue, patterns_detect(venue, gaming_date_of(venue, at) - timedelta(days=1)))
        for venue in Venue.objects.order_by("code")
    ]

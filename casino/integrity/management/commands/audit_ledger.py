"""Verify the ledger: every round, slip and drop sums to zero, every closed session reconciles.

``--tallies`` also checks that the reports' tallies (casino.floor.services.tallies) hold exactly
the settled rounds' bets and seats, each bet in the hour on its venue's clocks it settled
in (tallies bucketed by the UTC hour before hours were local show as differences at a
venue half an hour off UTC: ``manage.py rebuild_tallies --venue CODE`` makes them again),
and that each shift's integrity tallies hold exactly what its settled, not voided rounds
count (``integrity_differences``: the same recount ``rebuild_tallies --integrity`` writes,
here only compared; a pass over the rounds in Python, three queries per 500 rounds).
``--resettle`` (implied by ``--tallies`` and ``--shift``) settles every settled round again
from its record with its game's engine and names each bet or ledger figure that differs
(``casino.integrity.resettlement``; another pass over the rounds in Python).

Everything else is computed in the database (GROUP BY / HAVING), so it runs over millions of
rounds in seconds and memory that does not grow with them. Exit status 1 when anything is
wrong, so it can run from cron or CI.
"""

from __future__ import annotations

import itertools
import time

from django.core.management.base import BaseCommand, CommandError
from django.db.models import DecimalField, Exists, F, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from casino.floor.models import Box, Round, RoundStatus, TableSession
from casino.floor.services.tallies import tally_differences
from casino.integrity.models import CardTally, CategoryTally
from casino.integrity.resettlement import differences as resettlement_differences
from casino.integrity.tallies import integrity_differences
from casino.kernel.progress import command_progress
from casino.ledger.models import Account, LedgerEntry

ZERO = Value(0, output_field=DecimalField())


def unbalanced(owner: str) -> list[tuple[int, object]]:
    """Owners (round, slip, drop) whose entries do not sum to zero."""
    return list(
        LedgerEntry.objects.filter(**{f"{owner}__isnull": False})
        .values_list(owner)
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .order_by(owner)[:20]
    )


def settled_without_entries() -> list[int]:
    """Settled rounds that moved money on a box but have no ledger entries.

    A game posts each box's result (``ledger_lines``), not each bet's: a box whose bets net
    to zero (a win on one bet paid by its losses on the others) posts nothing, and is no
    fault."""
    posted = LedgerEntry.objects.filter(round=OuterRef("round"))
    return list(
        Box.objects.filter(round__status=RoundStatus.SETTLED)
        .filter(~Exists(posted))
        .annotate(net=Sum("bets__net"))
        .exclude(net=0)
        .exclude(net__isnull=True)
        .order_by("round")
        .values_list("round", flat=True)
        .distinct()[:20]
    )


def sessions_off() -> list[tuple[int, object, object]]:
    """Closed or reconciled sessions whose stored win by ledger is not the ledger's."""
    house = (
        LedgerEntry.objects.filter(
            session=OuterRef("pk"), round__isnull=False, account=Account.HOUSE
        )
        .values("session")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return list(
        TableSession.objects.exclude(status=TableSession.Status.OPEN)
        .annotate(ledger_total=Coalesce(Subquery(house), ZERO))
        .filter(
            ~Q(win_by_ledger=F("ledger_total")) | ~Q(variance=F("win_by_count") - F("ledger_total"))
        )
        .values_list("pk", "win_by_ledger", "ledger_total")[:20]
    )


def shifts_tallied(shift_id: int | None) -> list[int]:
    """The shifts whose integrity tallies to check (one, or every shift with a settled round
    or an integrity tally)."""
    if shift_id is not None:
        return [shift_id]
    shifts = set(
        Round.objects.filter(status=RoundStatus.SETTLED)
        .values_list("session__shift_id", flat=True)
        .distinct()
    )
    for model in (CategoryTally, CardTally):
        shifts.update(model.objects.values_list("shift_id", flat=True).distinct())
    return sorted(shifts)


class Command(BaseCommand):
    help = "Check that every round, slip and drop balances and every closed session reconciles."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--tallies",
            action="store_true",
            help="also check the reports' tallies against the settled bets, and the integrity "
            "tallies against a recount of the settled rounds (two more passes)",
        )
        parser.add_argument("--shift", type=int, help="check the tallies of this shift only")
        parser.add_argument(
            "--resettle",
            action="store_true",
            help="also settle every settled round again from its record (cards, stakes, "
            "declarations, ruleset version) and compare each bet and ledger entry",
        )

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        tallies = bool(options["tallies"] or options["shift"])
        resettle = tallies or bool(options["resettle"])
        # The checks are a few large queries: progress counts checks, not rows.
        progress = command_progress(
            self,
            (8 if tallies else 6) + resettle,
            verbosity=options["verbosity"],
            label="audit_ledger",
            unit="checks",
        )
        problems = []
        for owner in ("round", "slip", "drop"):
            for pk, total in unbalanced(owner):
                problems.append(f"{owner} {pk}: its entries sum to {total}, not 0")
            progress.advance()
        for pk in settled_without_entries():
            problems.append(f"round {pk}: settled with results but no ledger entries")
        progress.advance()
        for pk, stored, ledger in sessions_off():
            problems.append(f"session {pk}: win by ledger stored {stored}, ledger says {ledger}")
        progress.advance()
        if tallies:
            problems += tally_differences(options["shift"])[:20]
            progress.advance()
            integrity = []
            for shift_id in shifts_tallied(options["shift"]):
                integrity += integrity_differences(shift_id)
            problems += integrity[:20]
            progress.advance()
        if resettle:
            found = resettlement_differences(shift_id=options["shift"])
            problems += [str(difference) for difference in itertools.islice(found, 20)]
            progress.advance()
        entries = LedgerEntry.objects.count()
        rounds = Round.objects.count()
        progress.advance()
        progress.finish()
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"checked {rounds} rounds and {entries} ledger entries in {elapsed:.1f} s"
        )
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(problems)} problem(s) found (at most 20 of each kind shown)")
        self.stdout.write(
            self.style.SUCCESS("the ledger balances and every closed session reconciles")
        )

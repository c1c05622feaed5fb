"""Make a shift's tallies again from its settled rounds, then check them.

The tallies follow every settlement and void by themselves; this is for rows repaired by
hand in the database (``audit_ledger --tallies`` names the difference), and for tallies
written before report hours were the venue's local hours: a venue whose zone is not a whole
number of hours off UTC (Asia/Kolkata, Australia/Adelaide) had them bucketed by the UTC
hour (``--venue CODE`` makes that venue's again). Rebuild the shifts' reports afterwards
from the reports page.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from casino.floor.services.tallies import tally_differences, tally_rebuild
from casino.integrity.tallies import integrity_rebuild
from casino.kernel.progress import command_progress
from casino.venues.models import Shift, Venue


class Command(BaseCommand):
    help = "Make the tallies of one shift (or every shift) again from its settled rounds."

    def add_arguments(self, parser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--shift", type=int, help="the shift's id (on its report's page)")
        which.add_argument("--venue", help="every shift of the venue with this code")
        which.add_argument("--all", action="store_true", help="every shift")
        parser.add_argument(
            "--integrity",
            action="store_true",
            help="also count the integrity tallies again (reads every settled round's hands)",
        )

    def handle(self, *args, **options) -> None:
        if options["all"]:
            shifts = list(Shift.objects.order_by("pk").values_list("pk", flat=True))
        elif options["venue"]:
            venue = Venue.objects.filter(code=options["venue"]).first()
            if venue is None:
                raise CommandError(f"there is no venue with the code {options['venue']!r}")
            shifts = list(venue.shifts.order_by("pk").values_list("pk", flat=True))
        else:
            if not Shift.objects.filter(pk=options["shift"]).exists():
                raise CommandError(f"there is no shift {options['shift']}")
            shifts = [options["shift"]]
        progress = command_progress(
            self,
            len(shifts),
            verbosity=options["verbosity"],
            label="rebuild_tallies",
            unit="shifts",
        )
        for shift_id in shifts:
            with transaction.atomic():
                tally_rebuild(shift_id)
                if options["integrity"]:
                    integrity_rebuild(shift_id)
                problems = tally_differences(shift_id)
                if problems:  # rolled back: the tallies stay as they were
                    raise CommandError(f"shift {shift_id}: " + "; ".join(problems[:5]))
            self.stdout.write(f"shift {shift_id}: tallies made again from its settled rounds")
            progress.advance()
        progress.finish()

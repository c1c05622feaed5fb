"""Set up a site's database to send the group its records (docs/OPERATIONS.md, "A group of
sites"): its keys moved into the site's range (once, on the empty database, before its
first venue) and its publication made or brought up to date (after every migrate). Run
again, it changes nothing that is already so."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from casino.kernel.errors import InvalidInput
from casino.ops.sites import MOST_SITES, site_init, site_publish


class Command(BaseCommand):
    help = "Move this site's keys into its range and publish its records to the group."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--site", type=int, required=True, help=f"this site's number, 1 to {MOST_SITES}"
        )

    def handle(self, *args, **options) -> None:
        try:
            moved = site_init(options["site"])
        except InvalidInput as error:
            raise CommandError(str(error.message)) from None
        self.stdout.write(f"site {options['site']}: {len(moved)} sequences moved into its range")
        self.stdout.write(site_publish())

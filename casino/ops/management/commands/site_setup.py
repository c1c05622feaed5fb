"""Set up a site's database to send the group its records (docs/OPERATIONS.md, "A group of
sites"): its keys moved into the site's range (once, on the empty database, before its
first venue), its members' group keys written (``GROUP_PSEUDONYM_KEY``), its publication
made or brought up to date (after every migrate, and after a venue's members' data sent to
the group changed: ``Venue.group_player_data``; refused while its venues disagree) and,
with ``--group-conninfo``, its subscription to the barrings of the group's other sites. Run
again, it changes nothing that is already so."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from casino.kernel.errors import InvalidInput
from casino.ops.sites import (
    MOST_SITES,
    site_init,
    site_player_columns,
    site_publish,
    subscribe_barrings,
)
from casino.players.services import group_keys_written


class Command(BaseCommand):
    help = "Move this site's keys into its range and publish its records to the group."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--site", type=int, required=True, help=f"this site's number, 1 to {MOST_SITES}"
        )
        parser.add_argument(
            "--group-conninfo",
            default="",
            help="the group's database (host=... port=... dbname=... user=...): receive the "
            "barrings of the group's other sites",
        )

    def handle(self, *args, **options) -> None:
        try:
            site_player_columns()  # its venues agree, before anything changes
            moved = site_init(options["site"])
        except InvalidInput as error:
            raise CommandError(str(error.message)) from None
        self.stdout.write(f"site {options['site']}: {len(moved)} sequences moved into its range")
        self.stdout.write(f"members' group keys written: {group_keys_written()}")
        self.stdout.write(site_publish())
        if options["group_conninfo"]:
            self.stdout.write(subscribe_barrings(options["site"], options["group_conninfo"]))

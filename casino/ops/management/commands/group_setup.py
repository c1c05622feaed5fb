"""Make the group's database ready to receive the sites' records, and subscribe it to a
site (docs/OPERATIONS.md, "A group of sites"). Without ``--site``: the columns the sites do
not send given empty defaults (after every migrate of the group's database). With ``--site
NAME --conninfo '...'``: that too, then the subscription to the site made (its rows copied,
then its changes followed) or, if it exists, refreshed."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from casino.kernel.errors import InvalidInput
from casino.ops.sites import group_prepare, subscribe


class Command(BaseCommand):
    help = "Make the group's database ready to receive, and subscribe it to a site."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--site", default="", help="the site's short name (e.g. vn_hanoi)")
        parser.add_argument(
            "--conninfo",
            default="",
            help="how to reach the site's database: host=... port=... dbname=... user=...",
        )

    def handle(self, *args, **options) -> None:
        if bool(options["site"]) != bool(options["conninfo"]):
            raise CommandError("give both --site and --conninfo, or neither")
        try:
            for line in group_prepare():
                self.stdout.write(line)
            if options["site"]:
                self.stdout.write(subscribe(options["site"], options["conninfo"]))
        except InvalidInput as error:
            raise CommandError(str(error.message)) from None

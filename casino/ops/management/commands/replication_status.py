"""What to watch in a group of sites, one JSON line each (docs/OPERATIONS.md, "A group of
sites"): on a site, its replication slots (whether the group is connected, the WAL kept for
it); on the group, its subscriptions (when each last heard from its site, the lag)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from casino.ops.sites import replication_status


class Command(BaseCommand):
    help = "Show the replication slots (a site) or subscriptions (the group), as JSON lines."

    def handle(self, *args, **options) -> None:
        for row in replication_status():
            self.stdout.write(json.dumps(row))

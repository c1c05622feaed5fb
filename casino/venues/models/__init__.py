"""Venues and what they are made of: their tables with limits and pits, the gaming days
and shifts they keep, a table's ruleset changes and the dealers' spells at the tables. The
tables keep the names they had in the ``casino`` app (``Meta.db_table``).

Pits are a venue's groups of tables, each run by its supervisors; a table's limits change
on a schedule (``TableLimitChange``).

A table's change of ruleset: one manager asks, another approves, then it applies. A ruleset
is the table's paytable, so assigning another one is approved by a second person like a
paytable is; it applies when it is approved, and only while no session is open at the
table. Requests are never deleted: they end applied, refused or withdrawn.

Dealer rotation: who dealt at a table session, and when. A session opens with one dealer's
spell; a supervisor records a relief at the open table (``casino.floor.services.rotation``): the
spell on duty ends and the incoming dealer's begins at the same instant. The dealer on duty
is the session's open spell, and ``TableSession.dealer`` keeps the same person (the last one
once the table is closed), so a round takes its dealer from the session row it locks
without another query.
"""

from casino.venues.models.days import DealerSpell, GamingDay, Shift
from casino.venues.models.tables import Pit, Table, TableLimit, TableLimitChange, TableRulesetChange
from casino.venues.models.venues import Venue, game_choices, validate_time_zone

__all__ = [
    "DealerSpell",
    "GamingDay",
    "Pit",
    "Shift",
    "Table",
    "TableLimit",
    "TableLimitChange",
    "TableRulesetChange",
    "Venue",
    "game_choices",
    "validate_time_zone",
]

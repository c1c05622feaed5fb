"""The floor's models, one module per part; import them from here."""

from casino.models.floor import GamingDay, Shift, Table, TableLimit, TableSession
from casino.models.pits import Pit, TableLimitChange
from casino.models.rotation import DealerSpell
from casino.models.rounds import Bet, Box, Round, RoundStatus
from casino.models.rulesets import Ruleset, RulesetVersion, VersionStatus
from casino.models.table_changes import TableRulesetChange
from casino.models.tallies import BetTally, SeatTally
from casino.models.venues import Venue, game_choices, validate_time_zone

__all__ = [
    "Bet",
    "BetTally",
    "Box",
    "DealerSpell",
    "GamingDay",
    "Pit",
    "Round",
    "RoundStatus",
    "Ruleset",
    "RulesetVersion",
    "SeatTally",
    "Shift",
    "Table",
    "TableLimit",
    "TableLimitChange",
    "TableRulesetChange",
    "TableSession",
    "Venue",
    "VersionStatus",
    "game_choices",
    "validate_time_zone",
]

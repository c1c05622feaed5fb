"""The floor's models, one module per part; import them from here."""

from casino.models.audit import AuditAction, AuditEvent, audit_action_choices
from casino.models.cash import (
    CashAlert,
    CashInstrument,
    CashKind,
    CashLevel,
    CashThresholds,
    CashTransaction,
)
from casino.models.count import BoxCount, CountDay, DropBox, DropBoxSession
from casino.models.floor import GamingDay, Player, Shift, Table, TableLimit, TableSession
from casino.models.integrity import CardTally, CategoryTally, IntegrityResult, IntegrityRun
from casino.models.investigations import FluctuationInvestigation, InvestigationNote
from casino.models.ledger import (
    Account,
    Drop,
    EntryKind,
    LedgerEntry,
    Slip,
    SlipStatus,
    slip_label,
)
from casino.models.logins import ApiToken, LoginAttempt, StaffPin
from casino.models.pits import Pit, TableLimitChange
from casino.models.players import Comp, CompPolicy, PlayerBarring
from casino.models.reports import (
    BetTally,
    SeatTally,
    ShiftReport,
    ShiftReportCell,
    ShiftReportFile,
)
from casino.models.rotation import DealerSpell
from casino.models.rounds import Bet, Box, Round, RoundStatus
from casino.models.rulesets import Ruleset, RulesetVersion, VersionStatus
from casino.models.table_changes import TableRulesetChange
from casino.models.venues import StaffRole, Venue, game_choices, validate_time_zone

__all__ = [
    "Account",
    "ApiToken",
    "AuditAction",
    "AuditEvent",
    "Bet",
    "BetTally",
    "Box",
    "BoxCount",
    "CardTally",
    "CashAlert",
    "CashInstrument",
    "CashKind",
    "CashLevel",
    "CashThresholds",
    "CashTransaction",
    "CategoryTally",
    "Comp",
    "CompPolicy",
    "CountDay",
    "DealerSpell",
    "Drop",
    "DropBox",
    "DropBoxSession",
    "EntryKind",
    "FluctuationInvestigation",
    "GamingDay",
    "IntegrityResult",
    "IntegrityRun",
    "InvestigationNote",
    "LedgerEntry",
    "LoginAttempt",
    "Pit",
    "Player",
    "PlayerBarring",
    "Round",
    "RoundStatus",
    "Ruleset",
    "RulesetVersion",
    "SeatTally",
    "Shift",
    "ShiftReport",
    "ShiftReportCell",
    "ShiftReportFile",
    "Slip",
    "SlipStatus",
    "StaffPin",
    "StaffRole",
    "Table",
    "TableLimit",
    "TableLimitChange",
    "TableRulesetChange",
    "TableSession",
    "Venue",
    "VersionStatus",
    "audit_action_choices",
    "game_choices",
    "slip_label",
    "validate_time_zone",
]

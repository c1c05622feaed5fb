"""Integrity's models: the tallies settlement writes and the runs that test them
(``tallies``), and the investigations of a shift's fluctuations (``investigations``).
Their tables keep the names they had in the ``casino`` app (``Meta.db_table``)."""

from casino.integrity.models.investigations import FluctuationInvestigation, InvestigationNote
from casino.integrity.models.tallies import (
    CARDS_DEALT,
    CardTally,
    CategoryTally,
    IntegrityResult,
    IntegrityRun,
)

__all__ = [
    "CARDS_DEALT",
    "CardTally",
    "CategoryTally",
    "FluctuationInvestigation",
    "IntegrityResult",
    "IntegrityRun",
    "InvestigationNote",
]

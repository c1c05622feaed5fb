"""The floor's models, one module per part; import them from here."""

from casino.models.floor import TableSession
from casino.models.rounds import Bet, Box, Round, RoundStatus
from casino.models.tallies import BetTally, SeatTally

__all__ = [
    "Bet",
    "BetTally",
    "Box",
    "Round",
    "RoundStatus",
    "SeatTally",
    "TableSession",
]

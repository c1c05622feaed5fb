"""The floor's models, one module per part; import them from here."""

from casino.floor.models.rounds import Bet, Box, Round, RoundStatus
from casino.floor.models.sessions import TableSession
from casino.floor.models.tallies import BetTally, SeatTally

__all__ = [
    "Bet",
    "BetTally",
    "Box",
    "Round",
    "RoundStatus",
    "SeatTally",
    "TableSession",
]

"""A rated table game's rules, its presets and the theoretical win of a rating."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

CENT = Decimal("0.01")
SECONDS_PER_HOUR = Decimal(3600)


@dataclass(frozen=True)
class Ruleset:
    """What rates a table game's play: the game played (baccarat, blackjack, roulette...),
    the house edge per unit bet and the decisions (hands, spins) dealt per hour."""

    code: str
    name: str
    game_name: str
    house_edge: Decimal
    decisions_per_hour: int
    rounding_unit: Decimal = Decimal(1)
    rounding_mode: str = "up"

    def __post_init__(self) -> None:
        if not isinstance(self.house_edge, Decimal):
            raise TypeError("the house edge is a Decimal")
        if not Decimal(0) <= self.house_edge < Decimal(1):
            raise ValueError(f"the house edge is from 0 up to 1, got {self.house_edge}")
        if self.decisions_per_hour < 1:
            raise ValueError(f"decisions per hour are 1 or more, got {self.decisions_per_hour}")


def decisions(seconds: int | Decimal, decisions_per_hour: int) -> int:
    """The decisions a player sat through in ``seconds`` at that pace (to the nearest)."""
    return int(
        (Decimal(seconds) * decisions_per_hour / SECONDS_PER_HOUR).quantize(
            Decimal(1), rounding=ROUND_HALF_EVEN
        )
    )


def theoretical_win(
    *, average_bet: Decimal, seconds: int | Decimal, decisions_per_hour: int, house_edge: Decimal
) -> Decimal:
    """Average bet x decisions per hour x hours played x house edge, to the cent."""
    if not isinstance(average_bet, Decimal) or not isinstance(house_edge, Decimal):
        raise TypeError("amounts and rates are Decimals")
    hours = Decimal(seconds) / SECONDS_PER_HOUR
    won = average_bet * decisions_per_hour * hours * house_edge
    return won.quantize(CENT, rounding=ROUND_HALF_EVEN)


#: The shipped presets: published house edges at common paces (a venue's copy is its own to
#: edit and approve).
PRESET_DATA: dict[str, dict[str, object]] = {
    "blackjack-6deck": {
        "name": "Blackjack, 6 decks, dealer stands on soft 17",
        "game_name": "Blackjack",
        "house_edge": "0.02",
        "decisions_per_hour": 60,
    },
    "baccarat-punto": {
        "name": "Baccarat (punto banco)",
        "game_name": "Baccarat",
        "house_edge": "0.012",
        "decisions_per_hour": 70,
    },
    "roulette-single-zero": {
        "name": "Roulette, single zero",
        "game_name": "Roulette",
        "house_edge": "0.027",
        "decisions_per_hour": 40,
    },
}


def get(code: str) -> Ruleset:
    """The preset with this code (``KeyError`` names the ones there are)."""
    try:
        data = PRESET_DATA[code]
    except KeyError:
        raise KeyError(f"no preset {code!r}; there are {', '.join(PRESET_DATA)}") from None
    return Ruleset(
        code=code,
        name=str(data["name"]),
        game_name=str(data["game_name"]),
        house_edge=Decimal(str(data["house_edge"])),
        decisions_per_hour=int(str(data["decisions_per_hour"])),
    )


PRESETS = tuple(PRESET_DATA)

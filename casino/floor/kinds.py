"""How a shift report tells games apart: the house banks some (their bets are rated by the
house edge of the version they were played under), others take a fee from the winners while
players play each other (their theoretical win is the fee). Each game says which, and its
label, in its ``GameReports``."""

from __future__ import annotations

from casino import games


def fee_games() -> frozenset[str]:
    """The installed games whose players play each other, the house taking a fee."""
    return frozenset(game.code for game in games.all_games() if not game.reports.house_banked)


def game_label(code: str) -> str:
    """The game's name in a report (its code, for a game no longer installed)."""
    try:
        return str(games.get(code).reports.label)
    except LookupError:
        return code


def bet_type_label(code: str, bet_type: str) -> str:
    """A game's bet type in a report as its console names it, in the active language (the bet
    type as stored, for a game no longer installed)."""
    try:
        game = games.get(code)
    except LookupError:
        return f"{code} {bet_type}"
    return f"{game.reports.label} {game.reports.bet_label(bet_type)}"


def accounting_games() -> frozenset[str]:
    """The installed games kept for their accounting only: they deal no round on the
    system, so their tables have no bets, only a drop and a win by the count."""
    return frozenset(game.code for game in games.all_games() if not game.settles_rounds)

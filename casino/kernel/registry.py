"""The installed games: each game's app registers its adapter here when it is ready.

The lookup is kept apart from the game contract (``casino.games``: the adapter and its
types, which build on the rulesets and the ledger) so that every layer may ask which games
are installed (a table's game, a ruleset's, a role's) without importing what sits above it.
``casino.games`` re-exports these functions: a game and the floor ask the registry there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from casino.games import GameAdapter

_REGISTRY: dict[str, GameAdapter] = {}


def register(adapter: GameAdapter) -> None:
    _REGISTRY[adapter.code] = adapter


def get(code: str) -> GameAdapter:
    try:
        return _REGISTRY[code]
    except KeyError:
        raise LookupError(f"no game '{code}' is installed") from None


def of_version(version: object) -> GameAdapter:
    """The game whose ruleset versions ``version`` is one of (a version or its model)."""
    model = version if isinstance(version, type) else type(version)
    for game in _REGISTRY.values():
        if game.version_model is model:
            return game
    raise LookupError(f"no installed game keeps its rules in {model.__name__}")


def all_games() -> tuple[GameAdapter, ...]:
    return tuple(_REGISTRY.values())


def round_games() -> tuple[GameAdapter, ...]:
    """The installed games that deal rounds on the system (``settles_rounds``)."""
    return tuple(game for game in _REGISTRY.values() if game.settles_rounds)


def game_choices() -> list[tuple[str, str]]:
    """The installed games as model field choices (``Table.game``, ``Ruleset.game``)."""
    return [(game.code, game.name) for game in _REGISTRY.values()]


def game_name(code: str) -> str:
    """A game's name as its choices show it (``table.get_game_display``), in the active
    language; the code of a game no longer installed. Without building the choices each
    time, as Django's ``get_FOO_display`` does: the floor view names every table's game."""
    game = _REGISTRY.get(code)
    return code if game is None else str(game.name)

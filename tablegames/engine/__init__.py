"""The rules of a table game played for accounting only: no round is dealt on the system, the
play is rated by hand (a supervisor's average bet, time in and time out), and its expected win
is the theoretical win of those ratings.

Pure Python: a frozen :class:`Ruleset` (the game's name, house edge and decisions per hour),
the shipped presets and :func:`theoretical_win`.
"""

from tablegames.engine.rules import (
    PRESETS,
    Ruleset,
    decisions,
    get,
    theoretical_win,
)

__all__ = ["PRESETS", "Ruleset", "decisions", "get", "theoretical_win"]

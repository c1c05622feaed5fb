"""The one place that says which rules govern a table or a round.

A table deals under the version of its ruleset in force now; a round settles under the
version it recorded when it was dealt. Either way the game's adapter turns the version
into its engine's frozen rules (``GameAdapter.snapshot``, which caches approved versions
per process: an approved version never changes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino import games
from casino.floor.models import Round
from casino.kernel.errors import Conflict
from casino.rulesets.models import RulesetVersion
from casino.rulesets.selectors import version_in_force
from casino.venues.models import Table


class NoRulesInForce(Conflict):
    """The table's ruleset has no version in force: nothing can be dealt."""


@dataclass(frozen=True)
class RulesInForce:
    game: games.GameAdapter
    version: RulesetVersion
    rules: Any  # the game's engine rules


def rules_in_force(table: Table) -> RulesInForce:
    """The rules a round dealt at ``table`` now is settled by (one query).

    ``table`` comes with its ruleset loaded (``select_related("ruleset__venue")``).
    """
    game = games.get(table.game)
    version = version_in_force(model=game.version_model, ruleset=table.ruleset)
    if version is None:
        raise NoRulesInForce(
            _("the ruleset of table %(table)s has no version in force; a manager must activate one")
            % {"table": table.code},
            reason="no_rules_in_force",
        )
    version.ruleset = table.ruleset
    return RulesInForce(game=game, version=version, rules=game.snapshot(version))


def rules_of_round(round_: Round) -> Any:
    """The engine rules of the version ``round_`` recorded (its ``ruleset`` loaded)."""
    game = games.get(round_.game)
    version = game.version_model.objects.get(pk=round_.ruleset_version_id)
    version.ruleset = round_.ruleset
    return game.snapshot(version)


def rules_of_version(game: games.GameAdapter, version_id: int) -> Any:
    """The engine rules of ``game``'s version ``version_id`` (the one a round recorded,
    read by its key alone, as re-settling many rounds does: once per version)."""
    version = game.version_model.objects.select_related("ruleset__venue").get(pk=version_id)
    return game.snapshot(version)

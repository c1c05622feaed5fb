"""The house edge and the standard deviation per bet type of ruleset versions, as their
figures hold them: what a shift report's cells, a period's lines, a player's rating and the
integrity tests rate their handle at."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from casino.kernel import registry


@dataclass(frozen=True)
class VersionRates:
    """A ruleset version's house edge and SD per bet type (what its figures hold)."""

    game: str
    version_id: int
    label: str
    edges: dict[str, Decimal] = field(default_factory=dict)
    sds: dict[str, Decimal] = field(default_factory=dict)


def rates_of(used: Iterable[tuple[str, int]]) -> list[VersionRates]:
    """The rates of the ruleset versions named by (game, version id), in that order."""
    by_game: dict[str, list[int]] = defaultdict(list)
    for game, version_id in used:
        by_game[game].append(version_id)
    rates = []
    for game, ids in by_game.items():
        try:
            adapter = registry.get(game)
        except LookupError:
            adapter = None
        stored = {}
        if adapter is not None:
            stored = {
                v.pk: v
                for v in adapter.version_model.objects.filter(pk__in=ids).select_related("ruleset")
            }
        for version_id in ids:
            version = stored.get(version_id)
            if version is None:
                rates.append(VersionRates(game, version_id, f"{game} version #{version_id}"))
                continue
            sd_figures = (version.figures or {}).get("sd", {})
            rates.append(
                VersionRates(
                    game,
                    version_id,
                    f"{version.ruleset.code} v{version.number}",
                    edges={
                        b: edge
                        for b in adapter.bet_types
                        if (edge := version.house_edge(b)) is not None
                    },
                    sds={b: Decimal(sd_figures[b]) for b in adapter.bet_types if b in sd_figures},
                )
            )
    return rates

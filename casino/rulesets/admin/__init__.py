"""The rulesets' admin: rulesets, and the versions' four-eyes approval with the exact-odds
panel. Game apps extend :class:`RulesetVersionAdmin` for their own version models."""

from casino.rulesets.admin.versions import RulesetVersionAdmin

__all__ = ["RulesetVersionAdmin"]

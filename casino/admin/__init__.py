"""The admin: venues, tables, players and staff written through the services, rulesets with
their versions' four-eyes approval, and the floor's records read-only.

Game apps extend :class:`RulesetVersionAdmin` for their own version models.
"""

from casino.admin import floor, pits, records, rulesets  # noqa: F401
from casino.admin.base import ReadOnlyAdmin, VenueScopedAdmin
from casino.admin.rulesets import RulesetVersionAdmin

__all__ = ["ReadOnlyAdmin", "RulesetVersionAdmin", "VenueScopedAdmin"]

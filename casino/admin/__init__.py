"""The admin: venues, tables and pits written through the services, and the floor's records
read-only. The rulesets' admin is ``casino.rulesets.admin``."""

from casino.admin import floor, pits, records  # noqa: F401
from casino.admin.base import ReadOnlyAdmin, VenueScopedAdmin

__all__ = ["ReadOnlyAdmin", "VenueScopedAdmin"]

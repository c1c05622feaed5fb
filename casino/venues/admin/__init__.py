"""The venues' admin: venues, tables with their limits and ruleset changes, pits, the
scheduled changes of limits, shifts and gaming days."""

from casino.venues.admin import days, pits, tables, venues  # noqa: F401

"""Venues: the venue, its tables with limits and pits, its gaming days and shifts, a table's
ruleset changes and the dealers' spells at the tables."""

"""The venues' API: venues and their gaming days, tables, a table's ruleset changes."""

"""The venues' writes: ``venues`` (a venue's settings), ``tables`` (tables and their
limits), ``pits`` (pits and scheduled limit changes), ``gaming_days`` (gaming days and
shifts), ``rotation`` (dealer reliefs) and ``table_rulesets`` (a table's ruleset change,
four eyes)."""

"""The cage's writes: ``slips`` (fills and credits, from request to verification) and
``cash`` (cash transactions at the tables, the thresholds and their alerts)."""

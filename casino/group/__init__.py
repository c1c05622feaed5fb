"""The operating group: the venues it runs, its reporting currency and the exchange rates
of each gaming day (proposed by one group manager, approved by another), and the group's
figures of a period in that currency (``casino.group.consolidation``)."""

"""What the players ask of the apps above them, which they do not import (the kernel's
``Hook``: the app that owns the rule answers it when it is ready).

``operator_venue_ids`` (answered by the operating group, ``casino.group.apps``), with a venue's
id: the ids of the venues its operating group runs, the venue's own among them; empty when
the venue is in no group. The cash rule reads it where the venue's jurisdiction adds up the
operator's other venues (``Jurisdiction.aggregates_operator_venues``,
``casino.players.areas.cash_memberships``): which venues one operator runs is the group's to
say, and the group sits above the players.
"""

from __future__ import annotations

from casino.kernel.hooks import Hook

#: The ids of the venues run by the operating group of the venue with that id (itself
#: included); empty when it is in no group.
operator_venue_ids: Hook[[int], frozenset[int]] = Hook(
    "operator_venue_ids", answered_by="casino.group"
)

"""The API's views: each parses its input, calls one service or selector, and renders.

Access: each view declares the capability a GET needs (``read_capability``) and the one its
writes need (``write_capability``, both ``casino.staff.policy.Capability``), checked before anything
is looked up (403), then the object is looked up among the user's venues (404 when at another
venue, the same as when it does not exist), then the service checks the role at that venue
again.

The views are split by what they serve: ``venues`` (venues, tables, ruleset changes,
players), ``sessions`` (sessions, drops, slips) and ``rounds``; ``common`` holds what they
share. The domain apps hold their own (``casino.rulesets.api``, the audit trail's
``casino.ledger.api``, the cage's, the count's, the players').
"""

from casino.api.views.common import NoSuchEndpointView, parse
from casino.floor import selectors
from casino.floor.api.rounds import (
    RoundDetailView,
    RoundLedgerView,
    RoundListView,
    RoundSettleView,
    RoundVoidView,
)
from casino.floor.api.sessions import (
    SessionCloseView,
    SessionDetailView,
    SessionDropReverseView,
    SessionDropView,
    SessionListView,
    SessionReconcileView,
    SlipConfirmDealerView,
    SlipConfirmSupervisorView,
    SlipDetailView,
    SlipIssueView,
    SlipLedgerView,
    SlipListView,
    SlipReceiveView,
    SlipVoidView,
)

__all__ = [
    "NoSuchEndpointView",
    "RoundDetailView",
    "RoundLedgerView",
    "RoundListView",
    "RoundSettleView",
    "RoundVoidView",
    "SessionCloseView",
    "SessionDetailView",
    "SessionDropReverseView",
    "SessionDropView",
    "SessionListView",
    "SessionReconcileView",
    "SlipConfirmDealerView",
    "SlipConfirmSupervisorView",
    "SlipDetailView",
    "SlipIssueView",
    "SlipLedgerView",
    "SlipListView",
    "SlipReceiveView",
    "SlipVoidView",
    "parse",
    "selectors",
]

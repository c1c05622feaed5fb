"""The API's views: each parses its input, calls one service or selector, and renders.

Access: each view declares the capability a GET needs (``read_capability``) and the one its
writes need (``write_capability``, both ``casino.staff.policy.Capability``), checked before anything
is looked up (403), then the object is looked up among the user's venues (404 when at another
venue, the same as when it does not exist), then the service checks the role at that venue
again.

The views are split by what they serve: ``venues`` (venues, tables, ruleset changes,
players), ``rulesets`` (rulesets, versions, the audit trail), ``sessions`` (sessions, drops,
slips) and ``rounds``; ``common`` holds what they share.
"""

from casino import selectors
from casino.api.views.common import NoSuchEndpointView, parse
from casino.api.views.rounds import (
    RoundDetailView,
    RoundLedgerView,
    RoundListView,
    RoundSettleView,
    RoundVoidView,
)
from casino.api.views.rulesets import (
    AuditEventDetailView,
    AuditEventListView,
    RulesetDetailView,
    RulesetListView,
    RulesetVersionDetailView,
)
from casino.api.views.sessions import (
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
from casino.api.views.venues import (
    TableDetailView,
    TableListView,
    TableRulesetChangeApproveView,
    TableRulesetChangeDetailView,
    TableRulesetChangeListView,
    TableRulesetChangeRefuseView,
    VenueDetailView,
    VenueGamingDayView,
    VenueListView,
)

__all__ = [
    "AuditEventDetailView",
    "AuditEventListView",
    "NoSuchEndpointView",
    "RoundDetailView",
    "RoundLedgerView",
    "RoundListView",
    "RoundSettleView",
    "RoundVoidView",
    "RulesetDetailView",
    "RulesetListView",
    "RulesetVersionDetailView",
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
    "TableDetailView",
    "TableListView",
    "TableRulesetChangeApproveView",
    "TableRulesetChangeDetailView",
    "TableRulesetChangeListView",
    "TableRulesetChangeRefuseView",
    "VenueDetailView",
    "VenueGamingDayView",
    "VenueListView",
    "parse",
    "selectors",
]

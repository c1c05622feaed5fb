"""The API's views: each parses its input, calls one service or selector, and renders.

Access: each view declares the capability a GET needs (``read_capability``) and the one its
writes need (``write_capability``, both ``casino.staff.policy.Capability``), checked before anything
is looked up (403), then the object is looked up among the user's venues (404 when at another
venue, the same as when it does not exist), then the service checks the role at that venue
again.

``common`` holds what every app's views share; each domain app holds its own
(``casino.floor.api``, ``casino.venues.api``, ``casino.rulesets.api``, ``casino.reports.api``,
the audit trail's ``casino.ledger.api``, the cage's, the count's, the players').
"""

from casino.api.views.common import NoSuchEndpointView, parse

__all__ = ["NoSuchEndpointView", "parse"]

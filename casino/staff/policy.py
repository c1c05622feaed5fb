"""Who may do what: the one place that says it.

Each thing a person does on the floor is a ``Capability``, held by the roles of
``casino.staff.roles`` at a venue (``allows``). Every view and endpoint declares the capability
it answers to (``declare`` on a function view, ``read_capability``/``write_capability`` on
an API view, the admin site as a whole: ``capability_of`` reads the declaration, and
``tests/casino/test_policy.py`` walks the URL resolver and fails on a view without one).

A role is not always enough: segregation of duties refuses some people the act their role
allows, and each such rule is a function that the services call, so the console, the
API and the commands refuse alike, with the same reason (``UNLESS`` names each):
- ``box_count_refusal`` and ``count_close_refusal``, with the count they guard
  (casino/count/duties.py): a counter who took part at the box's table that gaming day
  (dealt a spell, opened, closed or confirmed a session, signed a slip) does not count its
  box, and a second counter confirms the close of a day's count;
- ``slip_line_refusal``: the dealer's line of a slip is signed by the dealer on duty at its
  table (or a supervisor covering it), the supervisor's line by a supervisor who is not
  that dealer, the cage's by a cashier; nobody signs two of its lines;
- ``approves_own`` (with the role, ``approval_refusal``): four eyes, whoever proposed or
  edited a thing does not approve it; ``group_rate_refusal``, the same for an operating
  group's exchange rates.

The operating group's capabilities (``GROUP_CAPABILITIES``) are held by the group's roles at
a group (``allows_group``), never at a venue; a venue's reader reads only their venues'
lines of the group's figures (``casino.group.selectors.readable_venues``).

``docs/OPERATIONS.md``'s "Who may do what" table is ``who_may_do_what()``, rendered by
``manage.py policy_table`` (a test fails when the two differ).

Long because it is the whole of who may do what, the venues' capabilities and the group's,
read in one place (the table in docs/OPERATIONS.md is printed from it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.admin import AdminSite
from django.utils.translation import gettext_lazy as _

from casino.kernel.errors import Forbidden
from casino.staff import roles
from casino.staff.models import StaffRole

if TYPE_CHECKING:
    from casino.cage.models import Slip
from casino.staff.roles import (
    AUDITOR,
    CASHIER,
    COMPLIANCE_WORK,
    COUNT_FIGURES,
    COUNT_TEAM,
    GROUP_RATES,
    GROUP_READ,
    GROUP_ROLES,
    MANAGE,
    MANAGER,
    PLAY,
    READ,
    ROLE_PERMISSIONS,
    ROLES,
    SUPERVISE,
    SUPERVISOR,
)


class Capability(StrEnum):
    """What a person does; ``ROLES_WITH`` names the roles that may, ``DOES`` what it is."""

    #: Anyone, signed in or not: the login pages, the favicon, the language, the API's login.
    PUBLIC = "public"
    #: Any account: its own PIN and tokens, the console's home listing what its roles open.
    SIGNED_IN = "signed-in"
    #: The admin: Django's model permissions of each role (``roles.ROLE_PERMISSIONS``),
    #: kept to the venues where the role is held.
    ADMIN = "admin"
    READ_FLOOR = "read-floor"
    PLAY_ROUND = "play-round"
    SIGN_SLIP_DEALER_LINE = "sign-slip-dealer-line"
    SIGN_SLIP_SUPERVISOR_LINE = "sign-slip-supervisor-line"
    SUPERVISE_TABLES = "supervise-tables"
    MANAGE_VENUE = "manage-venue"
    APPROVE = "approve"
    VOID_SLIP = "void-slip"
    CAGE = "cage"
    #: Count the cage at a cage shift's open or close, or sign a count as the second person.
    COUNT_CAGE = "count-cage"
    #: Read the cage's inventory, its shifts and the movements of its book.
    READ_CAGE = "read-cage"
    #: Record a patron nobody knows on the cage's screen of unknown patrons (the tables
    #: record theirs with the buy-in, ``PLAY_ROUND``).
    RECORD_PATRON = "record-patron"
    COUNT_BOX = "count-box"
    #: A table's manual series of paper forms for when the system is down.
    MANUAL_SERIES = "manual-series"
    ENTER_PAPER = "enter-paper"
    READ_COUNT_FIGURES = "read-count-figures"
    READ_SLIP_REPORT = "read-slip-report"
    READ_REPORTS = "read-reports"
    READ_INTEGRITY = "read-integrity"
    READ_AUDIT = "read-audit"
    #: The operating group's consolidated figures (a venue's readers: their venues' lines).
    READ_GROUP = "read-group"
    #: Propose and approve the operating group's exchange rates.
    GROUP_RATES = "group-rates"
    #: Suspicious-activity cases (open, submit, review, file) and the large-cash-transaction
    #: report files: the venue's compliance staff, and no floor role.
    COMPLIANCE = "compliance"

    @property
    def roles(self) -> frozenset[str]:
        """The roles that have it (every role for ``PUBLIC`` and ``SIGNED_IN``)."""
        return ROLES_WITH[self]


def _holders(app_label: str, codename: str) -> frozenset[str]:
    """The roles whose admin permissions include the permission (the admin's own rule)."""
    return frozenset(role for role in ROLES if (app_label, codename) in ROLE_PERMISSIONS[role])


ROLES_WITH: dict[Capability, frozenset[str]] = {
    Capability.PUBLIC: frozenset(ROLES),
    Capability.SIGNED_IN: frozenset(ROLES),
    Capability.ADMIN: frozenset(role for role in ROLES if ROLE_PERMISSIONS[role]),
    Capability.READ_FLOOR: READ,
    Capability.PLAY_ROUND: PLAY,
    # A supervisor covering a table deals there and signs as its dealer.
    Capability.SIGN_SLIP_DEALER_LINE: PLAY,
    Capability.SIGN_SLIP_SUPERVISOR_LINE: SUPERVISE,
    Capability.SUPERVISE_TABLES: SUPERVISE,
    Capability.MANAGE_VENUE: MANAGE,
    Capability.APPROVE: MANAGE,
    # A requested slip: either side; an issued one: the side its chips came from.
    Capability.VOID_SLIP: CASHIER | SUPERVISE,
    Capability.CAGE: CASHIER,
    Capability.COUNT_CAGE: CASHIER | MANAGE,
    Capability.READ_CAGE: CASHIER | SUPERVISE | {AUDITOR},
    # The cage and the pit's supervisors, who take cash at the tables; a dealer records an
    # unknown patron at the table, with the buy-in.
    Capability.RECORD_PATRON: CASHIER | SUPERVISE,
    Capability.COUNT_BOX: COUNT_TEAM,
    Capability.MANUAL_SERIES: MANAGE | CASHIER,
    Capability.ENTER_PAPER: SUPERVISE,
    Capability.READ_COUNT_FIGURES: COUNT_FIGURES,
    Capability.READ_SLIP_REPORT: CASHIER | SUPERVISE | {AUDITOR},
    Capability.READ_REPORTS: frozenset({SUPERVISOR, MANAGER, AUDITOR}),
    Capability.READ_INTEGRITY: frozenset({MANAGER, AUDITOR}),
    # The admin shows the audit trail to whoever may view it there; the API asks the same.
    Capability.READ_AUDIT: _holders("audit", "view_auditevent"),
    # The group's roles read every venue of the group; a venue's readers, its lines only.
    Capability.READ_GROUP: GROUP_READ | {SUPERVISOR, MANAGER, AUDITOR},
    Capability.GROUP_RATES: GROUP_RATES,
    Capability.COMPLIANCE: COMPLIANCE_WORK,
}

#: The capabilities held at an operating group by its roles, not at a venue.
GROUP_CAPABILITIES = frozenset({Capability.READ_GROUP, Capability.GROUP_RATES})

#: What each capability lets one do (the docs' table says it).
DOES: dict[Capability, str] = {
    Capability.PUBLIC: "log in and out, the favicon, choose a language, the API's login",
    Capability.SIGNED_IN: "own PIN and API tokens; the console's and count's home pages",
    Capability.ADMIN: "the admin, by the model permissions of the roles held at the venue",
    Capability.READ_FLOOR: (
        "read the venue's floor through the API; watch a table, its dealers, print a slip"
    ),
    Capability.PLAY_ROUND: (
        "open a table, deal and settle rounds, request voids, fills and credits, buy-ins"
    ),
    Capability.SIGN_SLIP_DEALER_LINE: "sign a slip's dealer line at the table",
    Capability.SIGN_SLIP_SUPERVISOR_LINE: "sign a slip's supervisor line at the table",
    Capability.SUPERVISE_TABLES: (
        "close and reconcile sessions, drops, reliefs, voids, the floor view, limits, "
        "ratings, link an unknown patron to a member"
    ),
    Capability.MANAGE_VENUE: (
        "tables, players, rulesets, the gaming day, thresholds, comps, exclusion areas, "
        "report rebuilds, integrity runs"
    ),
    Capability.APPROVE: (
        "approve a ruleset, a table's ruleset change, thresholds, a comp policy, an exclusion area"
    ),
    Capability.VOID_SLIP: "void a slip not yet posted",
    Capability.CAGE: (
        "issue slips and receive credits at the cage; chip purchases, redemptions and vault "
        "transfers at the cage window"
    ),
    Capability.COUNT_CAGE: "count the cage to open or close a cage shift, or sign a count",
    Capability.READ_CAGE: (
        "read the cage's inventory, its shifts and its book's movements, the day's unknown patrons"
    ),
    Capability.RECORD_PATRON: (
        "record an unknown patron on the cage's screen (linking one to a member: supervise-tables)"
    ),
    Capability.COUNT_BOX: "count the drop boxes and close a gaming day's count",
    Capability.MANUAL_SERIES: "issue a table's manual series of paper forms and print it",
    Capability.ENTER_PAPER: (
        "enter the paper slips and round sheets of a system-down period, record a spoiled paper"
    ),
    Capability.READ_COUNT_FIGURES: "read the count and the win per table",
    Capability.READ_SLIP_REPORT: "read the day's slip report",
    Capability.READ_REPORTS: (
        "read shift and period reports, players, comps, exclusion areas, investigations"
    ),
    Capability.READ_INTEGRITY: "read the game integrity tests",
    Capability.READ_AUDIT: "read the audit trail (the admin and the API)",
    Capability.READ_GROUP: (
        "read the group's figures in its reporting currency and their rates (a venue's "
        "supervisors, managers and auditors: that venue's lines only)"
    ),
    Capability.GROUP_RATES: "propose and approve the group's exchange rates",
    Capability.COMPLIANCE: (
        "read and work suspicious-activity cases (open, submit, decide, file), see who read "
        "them, build the large-cash-transaction report files"
    ),
}

#: Who of those roles is still refused (segregation of duties), and the function saying so.
UNLESS: dict[Capability, str] = {
    Capability.SIGN_SLIP_DEALER_LINE: (
        "only the dealer on duty at the slip's table (or a supervisor covering it); not the "
        "cashier who issued it, nor the supervisor line's signer (`slip_line_refusal`)"
    ),
    Capability.SIGN_SLIP_SUPERVISOR_LINE: (
        "not the dealer on duty, the dealer line's signer, nor the issuing cashier "
        "(`slip_line_refusal`)"
    ),
    Capability.APPROVE: "never what one proposed or edited oneself (`approves_own`)",
    Capability.GROUP_RATES: "never approves a rate one proposed (`group_rate_refusal`)",
    Capability.VOID_SLIP: "an issued fill only by a cashier, an issued credit only by a supervisor",
    Capability.CAGE: (
        "a credit is received by none of its signers at the table (`slip_line_refusal`)"
    ),
    Capability.ENTER_PAPER: (
        "a paper slip's three signers (cashier, dealer, supervisor) are three people, and "
        "whoever enters a paper fill is not its cashier (`manual_slip_enter`)"
    ),
    Capability.COUNT_CAGE: "a count is signed by a second person, not its counter",
    Capability.COMPLIANCE: (
        "a case is decided by a compliance officer other than its author "
        "(`casino.compliance.services.case_decide`); neither decided nor filed by one who "
        "dealt to its player, supervised their table or recorded their cash on its days "
        "(`case_conflict_refusal`); not read by its player's dealer or supervisor "
        "(`case_read_refusal`)"
    ),
    Capability.COUNT_BOX: (
        "not one who supervises at the venue, nor one who dealt a spell, opened, closed or "
        "confirmed a session, or signed a slip at the box's table that gaming day; the "
        "second count by another counter (`box_count_refusal`)"
    ),
}


def allows(user: Any, capability: Capability, venue_id: int) -> bool:
    """Whether the user holds a role with ``capability`` at the venue (``PUBLIC`` and
    ``SIGNED_IN``: whether they may be here at all)."""
    if capability == Capability.PUBLIC:
        return True
    if capability == Capability.SIGNED_IN:
        return bool(getattr(user, "is_authenticated", False))
    if capability in GROUP_CAPABILITIES:
        return False  # held at a group (``allows_group``), never at a venue
    return roles.can(user, capability.roles, venue_id)


def holds_anywhere(user: Any, capability: Capability) -> bool:
    """Whether the user holds ``capability`` at some venue: the gate before the object's
    venue is known (``allows`` decides at the venue)."""
    if capability == Capability.PUBLIC:
        return True
    if capability == Capability.SIGNED_IN:
        return bool(getattr(user, "is_authenticated", False))
    if capability in GROUP_CAPABILITIES and groups_allowing(user, capability):
        return True
    return roles.has_role(user, capability.roles)


def allows_group(user: Any, capability: Capability, group_id: int) -> bool:
    """Whether the user holds a group role with ``capability`` at the operating group."""
    return group_id in groups_allowing(user, capability)


def groups_allowing(user: Any, capability: Capability) -> frozenset[int]:
    """The operating groups at which the user has ``capability`` (a group capability)."""
    if capability not in GROUP_CAPABILITIES:
        return frozenset()
    return roles.groups_where(user, capability.roles)


def venues_allowing(user: Any, capability: Capability) -> frozenset[int]:
    """The venues at which the user has ``capability``."""
    return roles.venues_where(user, capability.roles)


# Declarations


View = TypeVar("View")


def declare(capability: Capability) -> Callable[[View], View]:
    """Say which capability a view answers to (its gate checks it, or its service). Set on
    the function itself, so decorators that wrap it (``functools.wraps``) keep it; on an
    admin site, every view of the site."""

    def mark(view: View) -> View:
        view.capability = capability  # type: ignore[attr-defined]
        return view

    return mark


#: The HTTP methods of a class view that read, and those that write.
_READS = ("get",)
_WRITES = ("post", "put", "patch", "delete")


def _admin_site(callback: Any) -> AdminSite | None:
    """The admin site whose view ``callback`` is (Django marks its own views with their
    site or model admin; a model admin's extra views wrap one of its bound methods)."""
    seen: Any = callback
    while seen is not None:
        for holder in (seen, getattr(seen, "model_admin", None), getattr(seen, "__self__", None)):
            if isinstance(holder, AdminSite):
                return holder
            site = getattr(holder, "admin_site", None)
            if isinstance(site, AdminSite):
                return site
        seen = getattr(seen, "__wrapped__", None)
    return None


def capability_of(callback: Any) -> dict[str, Capability | None]:
    """What the view behind a URL pattern's ``callback`` declares: its capability per
    method it answers (``"*"`` for a view declared as a whole: a function view, a Django
    class view, an admin site's). ``None`` marks a method with no declaration."""
    site = _admin_site(callback)
    if site is not None:
        return {"*": getattr(site, "capability", None)}
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is None or "capability" in vars(callback):
        return {"*": vars(callback).get("capability")}
    if getattr(view_class, "capability", None) is not None:  # declared as a whole
        return {"*": view_class.capability}
    declared: dict[str, Capability | None] = {}
    actions = getattr(callback, "actions", None)  # a DRF viewset's: method -> action
    if actions:
        for method, action in actions.items():
            name = "read_capability" if method in _READS else "write_capability"
            handler = getattr(view_class, action, None)
            declared[method] = getattr(handler, "capability", None) or getattr(
                view_class, name, None
            )
        return declared
    for method in (*_READS, *_WRITES):
        if hasattr(view_class, method):
            name = "read_capability" if method in _READS else "write_capability"
            declared[method] = getattr(view_class, name, None)
    return declared


# Segregation of duties


def holders_at(venue_id: int, capability: Capability) -> list[str]:
    """The usernames of the venue's active staff who hold ``capability`` there: whom a page
    tells one to ask when the act is someone else's."""
    return sorted(
        set(
            StaffRole.objects.filter(
                venue_id=venue_id, role__in=capability.roles, user__is_active=True
            ).values_list("user__username", flat=True)
        )
    )


#: A slip's lines: the cage's (issued, received) and the table's two.
CAGE_ISSUE, DEALER_LINE, SUPERVISOR_LINE, CAGE_RECEIVE = (
    "issue",
    "confirm-dealer",
    "confirm-supervisor",
    "receive",
)
TABLE_LINES = (DEALER_LINE, SUPERVISOR_LINE)


def slip_role_refusal(*, user: Any, slip: Slip, line: str) -> Forbidden | None:
    """Why ``user``'s roles at the slip's venue do not let them sign ``line``, or None."""
    venue_id = slip.venue_id
    if line == CAGE_ISSUE and not allows(user, Capability.CAGE, venue_id):
        return Forbidden(_("only the cage's cashier issues a slip"), reason="not_cashier")
    if line == CAGE_RECEIVE and not allows(user, Capability.CAGE, venue_id):
        return Forbidden(
            _("only the cage's cashier receives a credit's chips"), reason="not_cashier"
        )
    if line == DEALER_LINE and not allows(user, Capability.SIGN_SLIP_DEALER_LINE, venue_id):
        return Forbidden(
            _("only the table's dealer or a supervisor signs for the chips at the table"),
            reason="not_table",
        )
    if line == SUPERVISOR_LINE and not allows(user, Capability.SIGN_SLIP_SUPERVISOR_LINE, venue_id):
        return Forbidden(
            _("only a supervisor signs the supervisor's line at the table"),
            reason="not_supervisor",
        )
    return None


def slip_person_refusal(*, user: Any, slip: Slip, line: str) -> Forbidden | None:
    """Why ``user``, whose roles allow ``line``, is still not the one to sign it: the
    dealer's line is the dealer's on duty at the slip's table (a supervisor may cover it),
    the supervisor's line is not that dealer's, the cage and the table are different
    people, and the table's two lines are two people."""
    session = slip.session
    covering = allows(user, Capability.SUPERVISE_TABLES, slip.venue_id)
    if line == DEALER_LINE and user.pk != session.dealer_id and not covering:
        return Forbidden(
            _(
                "only the table's dealer signs the dealer's line: %(dealer)s is on duty at "
                "table %(table)s, or a supervisor signs for them"
            )
            % {"dealer": session.dealer.get_username(), "table": session.table.code},
            reason="not_on_duty",
        )
    if line == SUPERVISOR_LINE and user.pk == session.dealer_id:
        return Forbidden(
            _(
                "you are the dealer on duty at table %(table)s; a supervisor other than the "
                "dealer signs the supervisor's line"
            )
            % {"table": session.table.code},
            reason="dealer_as_supervisor",
        )
    if line in TABLE_LINES and slip.issued_by_id == user.pk:
        return Forbidden(
            _(
                "you issued slip %(slip)s at the cage; the table's dealer and a supervisor "
                "other than you sign for it"
            )
            % {"slip": slip.label},
            reason="cashier_at_table",
        )
    other_line = {
        DEALER_LINE: slip.supervisor_confirmed_by_id,
        SUPERVISOR_LINE: slip.dealer_confirmed_by_id,
    }
    if line in TABLE_LINES and other_line[line] == user.pk:
        return Forbidden(
            _("you already signed slip %(slip)s; a second person signs the other line")
            % {"slip": slip.label},
            reason="same_person_twice",
        )
    if line == CAGE_RECEIVE and user.pk in (
        slip.dealer_confirmed_by_id,
        slip.supervisor_confirmed_by_id,
    ):
        return Forbidden(
            _("you signed credit %(slip)s out at the table; another person receives it at the cage")
            % {"slip": slip.label},
            reason="table_at_cage",
        )
    return None


def slip_line_refusal(*, user: Any, slip: Slip, line: str) -> Forbidden | None:
    """Why ``user`` may not sign ``line`` of ``slip``, whatever its state, or None."""
    return slip_role_refusal(user=user, slip=slip, line=line) or slip_person_refusal(
        user=user, slip=slip, line=line
    )


def may_sign_slip_line(*, user: Any, slip: Slip, line: str) -> bool:
    return slip_line_refusal(user=user, slip=slip, line=line) is None


def approves_own(*, user: Any, made_by: Iterable[int | None]) -> bool:
    """Four eyes: whether ``user`` is one of those who proposed or edited (``made_by``:
    their ids) what they would approve. Each approval's service refuses them, saying who
    approves instead."""
    return getattr(user, "pk", None) in set(made_by)


def approval_refusal(
    *, user: Any, venue_id: int, made_by: Iterable[int | None]
) -> Forbidden | None:
    """Why ``user`` may not approve at the venue what ``made_by`` proposed or edited, or
    None: a manager of the venue, and not one of them."""
    if not allows(user, Capability.APPROVE, venue_id):
        return Forbidden(_("only a manager of the venue approves this"), reason="not_manager")
    if approves_own(user=user, made_by=made_by):
        return Forbidden(
            _("you proposed or edited this yourself; a second manager approves it"),
            reason="four_eyes",
        )
    return None


def may_approve(*, user: Any, venue_id: int, made_by: Iterable[int | None]) -> bool:
    return approval_refusal(user=user, venue_id=venue_id, made_by=made_by) is None


def group_rate_refusal(
    *, user: Any, group_id: int, made_by: Iterable[int | None] = ()
) -> Forbidden | None:
    """Why ``user`` may not propose (``made_by`` empty) or approve (``made_by``: who
    proposed it) an exchange rate of the operating group, or None: a group manager, and
    for an approval not the one who proposed it. A group auditor changes nothing."""
    if not allows_group(user, Capability.GROUP_RATES, group_id):
        return Forbidden(
            _(
                "only a group manager proposes and approves the group's exchange rates; "
                "ask one of them"
            ),
            reason="not_group_manager",
        )
    if approves_own(user=user, made_by=made_by):
        return Forbidden(
            _("you proposed this rate yourself; a second group manager approves it"),
            reason="four_eyes",
        )
    return None


def may_see_exclusion_area(*, user: Any, venue_ids: Iterable[int]) -> bool:
    """Whether ``user`` sees an exclusion area (a version) holding ``venue_ids``: one who
    reads the reports of one of its venues, whose players its barrings reach. Who proposes
    and approves it is its services' to say (``casino.players.services``)."""
    return not venues_allowing(user, Capability.READ_REPORTS).isdisjoint(venue_ids)


# The second factor

#: The roles that log in with a code after the password: those who approve money rules and
#: handle money or its records (managers approve, the cage and the count hold chips and
#: cash, auditors read everything, compliance reads the suspicious-activity cases). Dealers
#: and supervisors keep password + PIN at the table.
SECOND_FACTOR_ROLES = (
    MANAGE | Capability.APPROVE.roles | CASHIER | COUNT_TEAM | {AUDITOR} | COMPLIANCE_WORK
)
#: The group's roles read every venue's figures and approve its rates: a code too.
SECOND_FACTOR_GROUP_ROLES = GROUP_READ


def needs_second_factor(user: Any) -> bool:
    """Whether ``user`` logs in with a code (TOTP or a recovery code) after the password:
    a superuser, or one holding a role of ``SECOND_FACTOR_ROLES`` at some venue. Every
    login asks it: the login page and the admin's (``casino.staff.second_factor``'s
    middleware) and the API's token login (``casino/api/auth.py``)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return (
        bool(user.is_superuser)
        or roles.has_role(user, SECOND_FACTOR_ROLES)
        or bool(roles.groups_where(user, SECOND_FACTOR_GROUP_ROLES))
    )


def may_reset_second_factor(user: Any) -> bool:
    """Whether ``user`` may reset another account's second factor (a lost phone): a
    superuser, who then hands the account back to its owner to enrol again."""
    return bool(getattr(user, "is_superuser", False))


# The table of who may do what


def who_may_do_what() -> str:
    """The Markdown table of every capability: the roles that have it, what it lets them
    do, and who of them is still refused."""
    lines = [
        "| capability | roles | what | unless |",
        "| --- | --- | --- | --- |",
    ]
    for capability in Capability:
        if capability == Capability.PUBLIC:
            who = "anyone"
        elif capability == Capability.SIGNED_IN:
            who = "any account"
        else:
            who = ", ".join(role for role in (*ROLES, *GROUP_ROLES) if role in capability.roles)
        unless = UNLESS.get(capability, "")
        lines.append(f"| `{capability}` | {who} | {DOES[capability]} | {unless} |")
    return "\n".join(lines) + "\n"

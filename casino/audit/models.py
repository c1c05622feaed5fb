"""The audit trail: who did what to which object, with the state before and after, and the
actions it records. Every app records its writes here (``casino.audit.services``), the staff's
included, so the trail sits below every other app; its pages are the ledger's
(``casino.ledger.selectors``, ``casino.ledger.api``, ``casino.ledger.admin``).

The table keeps the name it had in the ``casino`` app (``Meta.db_table``). On PostgreSQL,
triggers refuse UPDATE, DELETE and TRUNCATE.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditAction(models.TextChoices):
    """What the floor's audit events record, each value as it is stored. A game names its
    own in a ``TextChoices`` of its own, its values prefixed with a name of its own
    (``<game>.shoe_start``), given as its adapter's ``audit_actions``
    (``casino.games.GameParts``); :func:`audit_action_choices` gathers them all, and a value
    is never registered twice (``tests/casino/test_audit_actions.py``)."""

    CASH_ALERT = "cash.alert"
    CASH_BARRED_CASH_OUT = "cash.barred_cash_out"
    CASH_BUY_IN = "cash.buy_in"
    CASH_CASH_OUT = "cash.cash_out"
    CASH_THRESHOLDS_APPROVE = "cash.thresholds_approve"
    CASH_THRESHOLDS_PROPOSE = "cash.thresholds_propose"
    CASH_VOID = "cash.void"
    CASH_UNKNOWN_PATRON = "cash.unknown_patron"
    CASH_UNKNOWN_PATRON_LINK = "cash.unknown_patron_link"
    CAGE_COUNT = "cage.count"
    CAGE_COUNT_SIGN = "cage.count_sign"
    CAGE_MOVE = "cage.move"
    FRONT_MONEY_DEPOSIT = "front_money.deposit"
    FRONT_MONEY_DRAW = "front_money.draw"
    FRONT_MONEY_RETURN = "front_money.return"
    FRONT_MONEY_REVERSE = "front_money.reverse"
    CREDIT_LINE_APPROVE = "credit_line.approve"
    CREDIT_LINE_PROPOSE = "credit_line.propose"
    MARKER_ISSUE = "marker.issue"
    MARKER_PAY = "marker.pay"
    MARKER_PAYMENT_REVERSE = "marker.payment_reverse"
    MARKER_TERMS_SET = "marker.terms_set"

    COMP_ISSUE = "comp.issue"

    EXCLUSION_AREA_APPROVE = "exclusion_area.approve"
    EXCLUSION_AREA_PROPOSE = "exclusion_area.propose"

    COMPLIANCE_CASE_DECIDE = "compliance.case.decide"
    COMPLIANCE_CASE_FILE = "compliance.case.file"
    COMPLIANCE_CASE_OPEN = "compliance.case.open"
    COMPLIANCE_CASE_SUBMIT = "compliance.case.submit"
    COMPLIANCE_CASE_VIEW = "compliance.case.view"
    COMPLIANCE_LCTR_BUILD = "compliance.lctr.build"

    COMP_POLICY_APPROVE = "comp_policy.approve"
    COMP_POLICY_PROPOSE = "comp_policy.propose"

    CONSOLE_LOCK = "console.lock"
    CONSOLE_TAKEOVER = "console.takeover"
    CONSOLE_UNLOCK = "console.unlock"

    COUNT_CLOSE = "count.close"
    COUNT_FIRST = "count.first"
    COUNT_REOPEN = "count.reopen"
    COUNT_SECOND = "count.second"

    DROP_RECORD = "drop.record"
    DROP_REVERSE = "drop.reverse"

    GROUP_CREATE = "group.create"
    GROUP_RATE_APPROVE = "group.rate_approve"
    GROUP_RATE_PROPOSE = "group.rate_propose"
    GROUP_ROLE_GRANT = "group.role_grant"
    GROUP_VENUE_ADD = "group.venue_add"

    INTEGRITY_REQUEST = "integrity.request"
    INTEGRITY_RUN = "integrity.run"

    INVESTIGATION_CLOSE = "investigation.close"
    INVESTIGATION_FINDINGS = "investigation.findings"
    INVESTIGATION_FLAG_CLEARED = "investigation.flag_cleared"
    INVESTIGATION_NOTE = "investigation.note"
    INVESTIGATION_OPEN = "investigation.open"
    INVESTIGATION_REASSIGN = "investigation.reassign"
    INVESTIGATION_SIGN_OFF = "investigation.sign_off"

    MANUAL_PAPER_SPOIL = "manual.paper_spoil"
    MANUAL_ROUND_ENTER = "manual.round_enter"
    MANUAL_SERIES_ISSUE = "manual.series_issue"
    MANUAL_SLIP_ENTER = "manual.slip_enter"

    PIN_SET = "pin.set"

    PIT_CREATE = "pit.create"
    PIT_UPDATE = "pit.update"

    PLAYER_BAR = "player.bar"
    PLAYER_CREATE = "player.create"
    PLAYER_IDENTITY = "player.identity"
    PLAYER_LINK = "player.link"
    PLAYER_RENUMBER = "player.renumber"
    PLAYER_UNBAR = "player.unbar"
    PLAYER_UNLINK = "player.unlink"
    PLAYER_UPDATE = "player.update"

    REPORT_BUILD = "report.build"
    REPORT_REQUEST = "report.request"

    ROUND_CREATE = "round.create"
    ROUND_SETTLE = "round.settle"
    ROUND_VOID = "round.void"
    ROUND_VOID_REQUEST = "round.void_request"

    RULESET_ACTIVATE = "ruleset.activate"
    RULESET_APPROVE = "ruleset.approve"
    RULESET_APPROVE_OVERRIDE = "ruleset.approve_override"
    RULESET_CLONE = "ruleset.clone"
    RULESET_COPY = "ruleset.copy"
    RULESET_CREATE = "ruleset.create"
    RULESET_CREATE_RULESET = "ruleset.create_ruleset"
    RULESET_EDIT = "ruleset.edit"
    RULESET_INSTALL_PRESET = "ruleset.install_preset"
    RULESET_RENAME = "ruleset.rename"
    RULESET_RETIRE = "ruleset.retire"

    SECOND_FACTOR_ENROL = "second_factor.enrol"
    SECOND_FACTOR_ENROL_START = "second_factor.enrol_start"
    SECOND_FACTOR_RECOVERY_USED = "second_factor.recovery_used"
    SECOND_FACTOR_RESET = "second_factor.reset"

    SESSION_CLOSE = "session.close"
    SESSION_OPEN = "session.open"
    SESSION_RECONCILE = "session.reconcile"
    SESSION_RELIEVE = "session.relieve"

    SLIP_CONFIRM_DEALER = "slip.confirm-dealer"
    SLIP_CONFIRM_SUPERVISOR = "slip.confirm-supervisor"
    SLIP_ISSUE = "slip.issue"
    SLIP_REQUEST = "slip.request"
    SLIP_VERIFY = "slip.verify"
    SLIP_VOID = "slip.void"

    STAFF_UPDATE = "staff.update"

    TABLE_CREATE = "table.create"
    TABLE_RULESET_CHANGE_APPROVE = "table.ruleset_change.approve"
    TABLE_RULESET_CHANGE_REFUSE = "table.ruleset_change.refuse"
    TABLE_RULESET_CHANGE_REQUEST = "table.ruleset_change.request"
    TABLE_RULESET_CHANGE_WITHDRAW = "table.ruleset_change.withdraw"
    TABLE_UPDATE = "table.update"

    TABLE_LIMIT_SCHEDULE = "table_limit.schedule"

    TOKEN_ISSUE = "token.issue"  # noqa: S105 (an action's name, no secret)
    TOKEN_REVOKE = "token.revoke"  # noqa: S105
    TOKEN_REVOKE_ALL = "token.revoke_all"  # noqa: S105

    VENUE_CREATE = "venue.create"
    VENUE_GAMING_DAY = "venue.gaming_day"
    VENUE_STAFF = "venue.staff"
    VENUE_UPDATE = "venue.update"


def audit_action_choices() -> list[tuple[str, str]]:
    """Every action an audit event may record: the floor's and each installed game's, read
    when a form or check asks (the games are registered when the apps are ready, after the
    models are defined). An action reads as it is stored, a code (``round.settle``)."""
    from casino.kernel.registry import all_games

    enums = [AuditAction, *(enum for game in all_games() for enum in game.audit_actions)]
    return [(value, value) for enum in enums for value in enum.values]


class AuditEvent(models.Model):
    """Who did what to which object, with the state before and after. Never edited: on
    PostgreSQL triggers refuse UPDATE, DELETE and TRUNCATE (migration 0010)."""

    at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("when"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("user"),
    )
    venue = models.ForeignKey(
        "venues.Venue",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("venue"),
    )
    action = models.CharField(
        max_length=64, db_index=True, choices=audit_action_choices, verbose_name=_("action")
    )
    object_type = models.CharField(max_length=64, verbose_name=_("object type"))
    object_id = models.CharField(max_length=64, verbose_name=_("object ID"))
    summary = models.CharField(max_length=255, blank=True, verbose_name=_("summary"))
    before = models.JSONField(null=True, blank=True, verbose_name=_("state before"))
    after = models.JSONField(null=True, blank=True, verbose_name=_("state after"))

    class Meta:
        db_table = "casino_auditevent"
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type}#{self.object_id}"

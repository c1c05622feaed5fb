"""Rounds, their boxes and bets. A round keeps the ruleset version it was dealt under."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.models.floor import Player, TableSession, money_field
from casino.models.rulesets import Ruleset
from casino.money import RATE_DECIMAL_PLACES, RATE_MAX_DIGITS


class RoundStatus(models.TextChoices):
    DEALT = "dealt", _("Dealt")
    SETTLED = "settled", _("Settled")
    VOIDED = "voided", _("Voided")


class Round(models.Model):
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=16)
    status = models.CharField(max_length=16, choices=RoundStatus.choices, default=RoundStatus.DEALT)
    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="+")
    # The game's version row (its pk in the game's version model) and its number, so a
    # later edit of the ruleset never changes how this round settles.
    ruleset_version_id = models.PositiveBigIntegerField()
    ruleset_version_number = models.PositiveIntegerField()
    dealer_cards = models.CharField(max_length=64, blank=True)
    dealer_evaluation = models.JSONField(null=True, blank=True)
    #: The dealer on duty when the round was dealt (the session's, read from its locked row).
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    create_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL: no key)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The Idempotency-Key the round was settled with; unique within its session.
    settle_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL: none)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    settled_at = models.DateTimeField(null=True, blank=True)
    house_net = money_field(null=True, blank=True, help_text=_("What the house won (+) or lost."))
    void_reason = models.CharField(max_length=255, blank=True)
    void_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_requested_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_per_session"),
            models.UniqueConstraint(
                fields=["session", "create_key"], name="round_create_key_per_session"
            ),
            models.UniqueConstraint(
                fields=["session", "settle_key"], name="round_settle_key_per_session"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="voided")
                | models.Q(voided_by__isnull=False, void_requested_by__isnull=False),
                name="round_void_has_two_people",
            ),
            models.CheckConstraint(
                condition=~models.Q(voided_by=models.F("void_requested_by")),
                name="round_void_approver_is_not_requester",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of session {self.session_id} ({self.get_status_display()})"


class Box(models.Model):
    """One box of a round, at its ``position``, with its cards (the screens of a game whose
    sheets say "seat" call it a seat)."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="boxes")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="boxes"
    )
    cards = models.CharField(max_length=64)
    evaluation = models.JSONField(null=True, blank=True)
    quit = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="box_position_per_round"),
        ]

    def __str__(self) -> str:
        return f"box {self.position} of round {self.round_id}"


class Bet(models.Model):
    """A stake on one bet type in a box, and how it settled (copied from the engine)."""

    class Outcome(models.TextChoices):
        WIN = "win", _("Win")
        LOSE = "lose", _("Lose")
        PUSH = "push", _("Push")

    box = models.ForeignKey(Box, on_delete=models.PROTECT, related_name="bets")
    bet_type = models.CharField(max_length=16)
    stake = money_field()
    deposit_shown = money_field(null=True, blank=True)
    deposit_required = money_field()
    outcome = models.CharField(max_length=8, choices=Outcome.choices, blank=True)
    odds = models.DecimalField(
        max_digits=RATE_MAX_DIGITS, decimal_places=RATE_DECIMAL_PLACES, null=True, blank=True
    )
    gross = money_field(null=True, blank=True)
    commission = money_field(null=True, blank=True)
    net = money_field(null=True, blank=True, help_text=_("The player's result: + won, - lost."))

    class Meta:
        ordering = ["box", "bet_type"]
        constraints = [
            models.UniqueConstraint(fields=["box", "bet_type"], name="bet_type_per_box"),
            models.CheckConstraint(condition=models.Q(stake__gt=0), name="bet_stake_positive"),
            models.CheckConstraint(
                condition=models.Q(commission__isnull=True) | models.Q(commission__gte=0),
                name="bet_commission_not_negative",
            ),
        ]
        # A report's largest payouts: the few bets above a threshold, not a scan of all.
        indexes = [
            models.Index(fields=["net"], condition=models.Q(net__gt=0), name="bet_net_won"),
        ]

    def __str__(self) -> str:
        return f"{self.bet_type} {self.stake} in {self.box}"

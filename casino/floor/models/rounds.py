"""Rounds, their boxes and bets. A round keeps the ruleset version it was dealt under."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.floor.models.sessions import TableSession
from casino.kernel.fields import money_field
from casino.kernel.money import RATE_DECIMAL_PLACES, RATE_MAX_DIGITS
from casino.rulesets.models import Ruleset


class RoundStatus(models.TextChoices):
    DEALT = "dealt", _("Dealt")
    SETTLED = "settled", _("Settled")
    VOIDED = "voided", _("Voided")


class Round(models.Model):
    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("session")
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    game = models.CharField(max_length=16, verbose_name=_("game"))
    status = models.CharField(
        max_length=16,
        choices=RoundStatus.choices,
        default=RoundStatus.DEALT,
        verbose_name=_("status"),
    )
    ruleset = models.ForeignKey(
        Ruleset, on_delete=models.PROTECT, related_name="+", verbose_name=_("ruleset")
    )
    # The game's version row (its pk in the game's version model) and its number, so a
    # later edit of the ruleset never changes how this round settles.
    ruleset_version_id = models.PositiveBigIntegerField(verbose_name=_("ruleset version (id)"))
    ruleset_version_number = models.PositiveIntegerField(verbose_name=_("ruleset version"))
    dealer_cards = models.CharField(max_length=64, blank=True, verbose_name=_("dealer cards"))
    dealer_evaluation = models.JSONField(null=True, blank=True, verbose_name=_("dealer's hand"))
    #: The dealer on duty when the round was dealt (the session's, read from its locked row).
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("dealer"),
    )
    create_key = models.CharField(  # noqa: DJ001 (NULL: no key)
        max_length=64, null=True, blank=True, verbose_name=_("deal request key")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # The Idempotency-Key the round was settled with; unique within its session.
    settle_key = models.CharField(  # noqa: DJ001 (NULL: none)
        max_length=64, null=True, blank=True, verbose_name=_("settle request key")
    )
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("settled by"),
    )
    settled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("settled at"))
    house_net = money_field(
        null=True,
        blank=True,
        help_text=_("What the house won (+) or lost."),
        verbose_name=_("house result"),
    )
    void_reason = models.CharField(max_length=255, blank=True, verbose_name=_("void reason"))
    void_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("void requested by"),
    )
    void_requested_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("void requested at")
    )
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("voided by"),
    )
    voided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("voided at"))

    class Meta:
        db_table = "casino_round"  # its name before the floor had its own app
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
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

    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="boxes", verbose_name=_("round")
    )
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="boxes",
        verbose_name=_("player"),
    )
    cards = models.CharField(max_length=64, verbose_name=_("cards"))
    evaluation = models.JSONField(null=True, blank=True, verbose_name=_("hand"))
    quit = models.BooleanField(default=False, verbose_name=_("quit the round"))

    class Meta:
        db_table = "casino_box"  # its name before the floor had its own app
        verbose_name = _("box")
        verbose_name_plural = _("boxes")
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
        db_table = "casino_bet"  # its name before the floor had its own app
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

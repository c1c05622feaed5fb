"""Rated table games: a ruleset version names the game played (baccarat, blackjack,
roulette...) with the house edge and pace that rate it, edited as a draft and approved by a
second person (``casino.rulesets.services``); a rating is a supervisor's record of one
player's play at a table session, corrected by a new rating that replaces it (nothing is
deleted)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.kernel.money import (
    MONEY_DECIMAL_PLACES,
    MONEY_MAX_DIGITS,
    RATE_DECIMAL_PLACES,
    RATE_MAX_DIGITS,
)
from casino.rulesets.models import ROUNDING_FIELDS, RulesetVersion

#: The fields of a version that are rules (copied by a clone, shown in the audit trail).
RULE_FIELDS = (*ROUNDING_FIELDS, "game_name", "house_edge_rate", "decisions_per_hour")


class RatingAuditAction(models.TextChoices):
    """The audit actions of the ratings' services (the adapter's ``audit_actions``), named
    ``rating.*`` as they have always been stored."""

    ENTER = "rating.enter"
    CORRECT = "rating.correct"


class TableGameRulesetVersion(RulesetVersion):
    """One version of a venue's rules for a rated table game: the game's name, the house
    edge and the decisions per hour that a rating's theoretical win is worked out with."""

    game_name = models.CharField(
        _("game"),
        max_length=60,
        blank=True,
        help_text=_("The game played at the tables of this ruleset: Baccarat, Blackjack..."),
    )
    house_edge_rate = models.DecimalField(
        _("house edge"),
        max_digits=RATE_MAX_DIGITS,
        decimal_places=RATE_DECIMAL_PLACES,
        default=Decimal("0.02"),
        validators=[
            MinValueValidator(Decimal(0), _("The house edge is from 0 up to 1 (0.02 is 2%).")),
            MaxValueValidator(
                Decimal("0.9999"), _("The house edge is from 0 up to 1 (0.02 is 2%).")
            ),
        ],
        help_text=_("What the house keeps of each unit bet, on average: 0.02 for 2%."),
    )
    decisions_per_hour = models.PositiveSmallIntegerField(
        _("decisions per hour"),
        default=60,
        validators=[MinValueValidator(1, _("Decisions per hour are 1 or more."))],
        help_text=_("Hands or spins dealt per hour at a full table."),
    )

    @property
    def house_edge_pct(self) -> Decimal:
        """The house edge as people write it, a percentage (0.02 is 2)."""
        return self.house_edge_rate * 100

    class Meta(RulesetVersion.Meta):
        verbose_name = _("table game ruleset version")
        verbose_name_plural = _("table game ruleset versions")
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "number"], name="tablegames_version_number"),
            models.CheckConstraint(
                condition=models.Q(house_edge_rate__gte=0, house_edge_rate__lt=1),
                name="tablegames_house_edge_from_0_below_1",
            ),
            models.CheckConstraint(
                condition=models.Q(decisions_per_hour__gte=1),
                name="tablegames_decisions_at_least_1",
            ),
        ]
        permissions = [("approve_tablegamerulesetversion", _("Can approve and activate versions"))]


class Rating(models.Model):
    """A player's play at one table session as the supervisor rated it. A correction is a
    new rating that ``replaces`` this one; the replaced one stays, out of every figure."""

    session = models.ForeignKey(
        "floor.TableSession", on_delete=models.PROTECT, related_name="tablegames_ratings"
    )
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    version = models.ForeignKey(
        TableGameRulesetVersion,
        on_delete=models.PROTECT,
        related_name="ratings",
        help_text=_("The ruleset version in force when the rating was entered."),
    )
    average_bet = models.DecimalField(
        _("average bet"), max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES
    )
    started_at = models.DateTimeField(_("time in"))
    ended_at = models.DateTimeField(_("time out"))
    decisions = models.PositiveIntegerField(_("decisions"))
    theoretical_win = models.DecimalField(
        _("theoretical win"), max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES
    )
    actual_win = models.DecimalField(
        _("house's win from the player"),
        max_digits=MONEY_MAX_DIGITS,
        decimal_places=MONEY_DECIMAL_PLACES,
        null=True,
        blank=True,
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    reason = models.TextField(_("reason for the correction"), blank=True)

    class Meta:
        ordering = ["session", "started_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ended_at__gt=models.F("started_at")),
                name="tablegames_rating_ends_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(average_bet__gt=0), name="tablegames_rating_bet_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"rating {self.pk}: player {self.player_id} at session {self.session_id}"

"""Baccarat (Punto Banco) ruleset versions, the shoes of a session and its commission box.

Every number of the rules (docs/RULES.md, Baccarat) is a field here, edited in the admin as a
draft and approved by a second person (``casino.rulesets.services``); ``baccarat.selectors``
turns a version into the engine's frozen ``baccarat.engine.Ruleset``.

The choices below spell out the engine's enums' values (``Variant``, ``Collection``,
``BetType``) so the tables never depend on the engine's module being imported.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.floor.models import TableSession
from casino.kernel.fields import money_field
from casino.kernel.money import RATE_DECIMAL_PLACES, RATE_MAX_DIGITS
from casino.players.models import Player
from casino.rulesets.models import ROUNDING_FIELDS, RulesetVersion

#: The most decks a shoe holds, and the fewest.
MAX_DECKS = 8


class BaccaratAuditAction(models.TextChoices):
    """The audit actions of baccarat's own services (the adapter's ``audit_actions``)."""

    SHOE_START = "baccarat.shoe_start"
    COMMISSION_COLLECT = "baccarat.commission_collect"


class Variant(models.TextChoices):
    COMMISSION = "commission", _("Commission: a winning Banker bet pays less the commission")
    NO_COMMISSION = "no_commission", _("No commission: a Banker win on 6 pays half")


class Collection(models.TextChoices):
    AT_WIN = "at_win", _("Taken from each winning Banker bet")
    BOX = "box", _("Owed in the commission box, collected at the end of the shoe")


#: The bets in table order, with their names (the console and reports name them alike).
BET_TYPE_LABELS = {
    "player": _("Player"),
    "banker": _("Banker"),
    "tie": _("Tie"),
    "player_pair": _("Player Pair"),
    "banker_pair": _("Banker Pair"),
    "super6": _("Super 6"),
}
BET_TYPES = tuple(BET_TYPE_LABELS)
#: The bets a version may leave out, each with its switch; Player and Banker are always offered.
OPTIONAL_BET_FIELDS = {
    "tie": "offers_tie",
    "player_pair": "offers_player_pair",
    "banker_pair": "offers_banker_pair",
    "super6": "offers_super6",
}


def rate_field(verbose_name, **kwargs) -> models.DecimalField:
    return models.DecimalField(
        verbose_name, max_digits=RATE_MAX_DIGITS, decimal_places=RATE_DECIMAL_PLACES, **kwargs
    )


def odds_field(verbose_name, default: str, help_text) -> models.DecimalField:
    return rate_field(
        verbose_name,
        default=Decimal(default),
        validators=[MinValueValidator(Decimal(0), _("Odds are 0 or more (N:1)."))],
        help_text=help_text,
    )


class BaccaratRulesetVersion(RulesetVersion):
    """One version of a venue's Baccarat rules."""

    decks = models.PositiveSmallIntegerField(
        _("decks in the shoe"),
        default=MAX_DECKS,
        validators=[
            MinValueValidator(1, _("A shoe holds 1 to 8 decks.")),
            MaxValueValidator(MAX_DECKS, _("A shoe holds 1 to 8 decks.")),
        ],
        help_text=_("A card may be dealt at most this many times in one round."),
    )
    variant = models.CharField(
        _("variant"), max_length=16, choices=Variant.choices, default=Variant.COMMISSION
    )
    banker_commission = rate_field(
        _("Banker commission"),
        default=Decimal("0.05"),
        validators=[
            MinValueValidator(Decimal(0), _("The commission is from 0 up to 1 (0.05 is 5%).")),
            MaxValueValidator(Decimal(1), _("The commission is from 0 up to 1 (0.05 is 5%).")),
        ],
        help_text=_(
            "Share of a winning Banker bet's win the house takes, 0.05 for 5% (the commission "
            "variant); rounded to the rounding unit in the rounding mode."
        ),
    )
    banker_six_odds = odds_field(
        _("Banker win on 6 pays (N:1)"),
        "0.5",
        _("The no-commission variant: a Banker bet that wins with 6 pays this, 0.5 for 1:2."),
    )
    tie_odds = odds_field(_("Tie pays (N:1)"), "8", _("A Player and a Banker bet push on a tie."))
    pair_odds = odds_field(
        _("pairs pay (N:1)"), "11", _("The hand's first two cards of one rank (K-K, not 10-J).")
    )
    super6_two_card_odds = odds_field(
        _("Super 6 with two cards pays (N:1)"), "12", _("The Banker wins with a two-card 6.")
    )
    super6_three_card_odds = odds_field(
        _("Super 6 with three cards pays (N:1)"), "20", _("The Banker wins with a three-card 6.")
    )
    offers_tie = models.BooleanField(_("offers Tie"), default=True)
    offers_player_pair = models.BooleanField(_("offers Player Pair"), default=True)
    offers_banker_pair = models.BooleanField(_("offers Banker Pair"), default=True)
    offers_super6 = models.BooleanField(_("offers Super 6"), default=True)
    collection = models.CharField(
        _("commission collected"),
        max_length=8,
        choices=Collection.choices,
        default=Collection.AT_WIN,
        help_text=_(
            "Box: each seat's commission is owed in the commission box and collected at the "
            "end of the shoe or when the player leaves; a new shoe waits until it is collected."
        ),
    )

    class Meta(RulesetVersion.Meta):
        verbose_name = _("Baccarat ruleset version")
        verbose_name_plural = _("Baccarat ruleset versions")
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "number"], name="baccarat_version_number"),
            models.CheckConstraint(
                condition=models.Q(decks__gte=1, decks__lte=MAX_DECKS),
                name="baccarat_decks_1_to_8",
            ),
            models.CheckConstraint(
                condition=models.Q(banker_commission__gte=0, banker_commission__lte=1),
                name="baccarat_commission_0_to_1",
            ),
        ]
        permissions = [("approve_baccaratrulesetversion", _("Can approve and activate versions"))]

    def offered_bet_types(self) -> list[str]:
        """The bets this version takes, in table order."""
        return [
            bet
            for bet in BET_TYPES
            if bet not in OPTIONAL_BET_FIELDS or getattr(self, OPTIONAL_BET_FIELDS[bet])
        ]


#: The fields of a version that are rules (copied by a clone, shown in the audit trail).
RULE_FIELDS = (
    *ROUNDING_FIELDS,
    "decks",
    "variant",
    "banker_commission",
    "banker_six_odds",
    "tie_odds",
    "pair_odds",
    "super6_two_card_odds",
    "super6_three_card_odds",
    *OPTIONAL_BET_FIELDS.values(),
    "collection",
)


class Shoe(models.Model):
    """A shoe dealt at a table session, numbered from 1 in the session.

    A round belongs to the last shoe of its session started before it was created; a
    session's rounds before any shoe was recorded are shoe 1's.
    """

    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="+", verbose_name=_("session")
    )
    number = models.PositiveIntegerField(_("shoe"))
    started_at = models.DateTimeField(_("started at"))
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("started by"),
    )

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("shoe")
        verbose_name_plural = _("shoes")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="baccarat_shoe_number"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="baccarat_shoe_number_from_1"
            ),
        ]

    def __str__(self) -> str:
        return f"shoe {self.number} of session {self.session_id}"


class CommissionCollection(models.Model):
    """Commission the house collected from a seat's commission box (a negative amount: the
    house gave back what a voided round had been charged)."""

    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="+", verbose_name=_("session")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player"),
    )
    amount = money_field(_("amount"))
    shoe = models.ForeignKey(
        Shoe,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("shoe"),
    )
    collected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("collected by"),
    )
    collected_at = models.DateTimeField(_("collected at"))
    reason = models.CharField(_("reason"), max_length=255, blank=True)

    class Meta:
        ordering = ["session", "collected_at", "pk"]
        verbose_name = _("commission collection")
        verbose_name_plural = _("commission collections")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount=0), name="baccarat_collection_not_zero"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} from seat {self.position} of session {self.session_id}"


class RulesFigures(models.Model):
    """The exact odds of a set of rules, computed once per content hash."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Computing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    rules_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    odds = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = _("rules figures")

    def __str__(self) -> str:
        return f"{self.rules_hash[:12]} ({self.status})"

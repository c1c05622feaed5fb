"""Niu Niu ruleset versions: paytable rows, bonus lines, switches and deposit multiples."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.kernel.money import RATE_DECIMAL_PLACES, RATE_MAX_DIGITS
from casino.rulesets.models import ROUNDING_FIELDS, RulesetVersion
from niuniu.engine.rules import MAX_BOXES, BetType, BonusPredicate, Category

#: The hands in the words of niuniu.console.labels (context "hand"): the admin's paytable and
#: figures name a hand as the console does, and the hand Niu Niu apart from the game.
CATEGORY_LABELS = {
    Category.FIVE_SMALL: pgettext_lazy("hand", "Five Small"),
    Category.FOUR_OF_A_KIND: pgettext_lazy("hand", "Four of a Kind"),
    Category.FIVE_FACE: pgettext_lazy("hand", "Five Face (Super Niu Niu)"),
    Category.NIU_NIU: pgettext_lazy("hand", "Niu Niu"),
    **{Category(n): format_lazy(_("Niu {n}"), n=n) for n in range(9, 0, -1)},
    Category.NO_NIU: pgettext_lazy("hand", "No Niu"),
}
CATEGORY_CHOICES = [(c.name, CATEGORY_LABELS[c]) for c in sorted(Category, reverse=True)]

BET_TYPE_LABELS = {
    BetType.SINGLE: _("Single / Even"),
    BetType.DOUBLE: _("Double"),
    BetType.SUPER: _("Super"),
    BetType.BONUS: _("Bonus"),
}
PAYTABLE_BET_TYPE_CHOICES = [
    (b.value, BET_TYPE_LABELS[b]) for b in (BetType.SINGLE, BetType.DOUBLE, BetType.SUPER)
]
PREDICATE_CHOICES = [
    (BonusPredicate.ALL_FACE.value, _("All five are J, Q or K")),
    (BonusPredicate.ALL_TEN_VALUE.value, _("All five are 10, J, Q or K")),
    (BonusPredicate.ALL_SPADES.value, _("All five are spades")),
    (BonusPredicate.ALL_SAME_SUIT.value, _("All five of one suit")),
    (BonusPredicate.ALL_BLACK.value, _("All five are spades or clubs")),
    (BonusPredicate.ALL_RED.value, _("All five are hearts or diamonds")),
    (BonusPredicate.NIU_NIU.value, _("Any Niu Niu hand")),
    (BonusPredicate.FOUR_OF_A_KIND.value, _("Four of a kind")),
    (BonusPredicate.FIVE_SMALL.value, _("Five small (all below 5, total at most 10)")),
]


class SpecialRank(models.TextChoices):
    """Where a special hand ranks (docs/RULES.md A1, "Settings a venue may choose")."""

    ABOVE_NIU_NIU = "above", _("Above Niu Niu")
    LEVEL_WITH_NIU_NIU = "level", _("Level with Niu Niu (the high card decides)")


#: The version's field that says where each special hand ranks.
SPECIAL_RANK_FIELDS = {
    Category.FIVE_SMALL: "five_small_rank",
    Category.FOUR_OF_A_KIND: "four_of_a_kind_rank",
    Category.FIVE_FACE: "five_face_rank",
}
#: What a special hand's rank says on the sheets, quoted for the admin's help text.
SPECIAL_RANK_HELP = _(
    'Sheet 001 prints one row "Niu (0) & Super NIU NIU" (Niu and Super Niu Niu together): '
    "level with Niu Niu, the high card deciding between them, as any two hands of one rank "
    '("Jogador/Dealer com o mesmo total - A mão é classificada de acordo com o naipe", a '
    "player and dealer with the same total are ranked by suit). Above Niu Niu: the special "
    "hand beats every Niu Niu, as the presets play it."
)
DEPOSIT_BASIS_HELP = _(
    "The bet whose stake the deposit multiple applies to. Sheets 000 and 004 say the Super "
    'deposit is "gấp 10 lần cược Đôi" / "더블 베팅액의 10배" / "10 times the Double Bet"; '
    'sheet 001 says "100,00 na opção SUPER NIU ... no mínimo 1000,00", ten times the Super '
    "stake itself, as the presets take it."
)


def rate_field(verbose_name, **kwargs) -> models.DecimalField:
    return models.DecimalField(
        verbose_name,
        max_digits=RATE_MAX_DIGITS,
        decimal_places=RATE_DECIMAL_PLACES,
        **kwargs,
    )


def deposit_basis_field(verbose_name, own: BetType) -> models.CharField:
    """The bet whose stake a bet's deposit multiple applies to; ``own`` by default."""
    return models.CharField(
        verbose_name,
        max_length=8,
        choices=PAYTABLE_BET_TYPE_CHOICES,
        default=own.value,
        help_text=DEPOSIT_BASIS_HELP,
    )


def special_rank_field(verbose_name) -> models.CharField:
    """Where a special hand ranks; above Niu Niu by default."""
    return models.CharField(
        verbose_name,
        max_length=8,
        choices=SpecialRank.choices,
        default=SpecialRank.ABOVE_NIU_NIU,
        help_text=SPECIAL_RANK_HELP,
    )


class NiuNiuRulesetVersion(RulesetVersion):
    """One version of a venue's Niu Niu rules."""

    offers_double = models.BooleanField(_("offers Double"), default=True)
    offers_super = models.BooleanField(_("offers Super"), default=True)
    five_small = models.BooleanField(_("Five Small is a special hand"), default=False)
    four_of_a_kind = models.BooleanField(_("Four of a Kind is a special hand"), default=False)
    five_face = models.BooleanField(_("Five Face is a special hand"), default=False)
    double_deposit_multiple = rate_field(
        _("Double deposit multiple"),
        default=Decimal("3"),
        validators=[MinValueValidator(Decimal("1"))],
        help_text=_("The deposit a player shows for a Double bet, as a multiple of the stake."),
    )
    super_deposit_multiple = rate_field(
        _("Super deposit multiple"),
        default=Decimal("10"),
        validators=[MinValueValidator(Decimal("1"))],
        help_text=_("The deposit a player shows for a Super bet, as a multiple of the stake."),
    )
    double_deposit_basis = deposit_basis_field(_("Double deposit counted from"), BetType.DOUBLE)
    super_deposit_basis = deposit_basis_field(_("Super deposit counted from"), BetType.SUPER)
    five_small_rank = special_rank_field(_("Five Small ranks"))
    four_of_a_kind_rank = special_rank_field(_("Four of a Kind ranks"))
    five_face_rank = special_rank_field(_("Five Face ranks"))
    max_boxes = models.PositiveSmallIntegerField(
        _("player boxes"),
        default=MAX_BOXES,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BOXES)],
        help_text=format_lazy(
            _(
                'The most player boxes a round deals to besides the dealer, 1 to {most}: "từ 2 '
                'đến 6 người, bao gồm nhà cái" / "딜러(하우스) 및 다른 플레이어를 포함하여 '
                '2명에서 6명" / "2 to 6 players, including a dealer" (sheets 000 and 004).'
            ),
            most=MAX_BOXES,
        ),
    )

    class Meta(RulesetVersion.Meta):
        verbose_name = _("Niu Niu ruleset version")
        verbose_name_plural = _("Niu Niu ruleset versions")
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "number"], name="niuniu_version_number"),
        ]
        permissions = [("approve_niuniurulesetversion", _("Can approve and activate versions"))]

    def enabled_bet_types(self) -> list[BetType]:
        bet_types = [BetType.SINGLE]
        if self.offers_double:
            bet_types.append(BetType.DOUBLE)
        if self.offers_super:
            bet_types.append(BetType.SUPER)
        return bet_types

    def enabled_categories(self) -> list[Category]:
        switches = {
            Category.FIVE_SMALL: self.five_small,
            Category.FOUR_OF_A_KIND: self.four_of_a_kind,
            Category.FIVE_FACE: self.five_face,
        }
        return [c for c in sorted(Category, reverse=True) if switches.get(c, True)]

    def deposit_multiple(self, bet_type: BetType) -> Decimal:
        return {
            BetType.DOUBLE: self.double_deposit_multiple,
            BetType.SUPER: self.super_deposit_multiple,
        }.get(bet_type, Decimal("1"))

    def deposit_bases(self) -> dict[BetType, BetType]:
        """The bet whose stake each bet's deposit counts from, where it is not its own."""
        bases = {
            BetType.DOUBLE: BetType(self.double_deposit_basis),
            BetType.SUPER: BetType(self.super_deposit_basis),
        }
        return {bet: basis for bet, basis in bases.items() if basis is not bet}

    def level_with_niu_niu(self) -> frozenset[Category]:
        """The special hands this version ranks level with Niu Niu."""
        return frozenset(
            category
            for category, field in SPECIAL_RANK_FIELDS.items()
            if getattr(self, field) == SpecialRank.LEVEL_WITH_NIU_NIU
        )

    def clean(self) -> None:
        super().clean()
        offered = self.enabled_bet_types()
        errors = {}
        for field, bet_type in (
            ("double_deposit_basis", BetType.DOUBLE),
            ("super_deposit_basis", BetType.SUPER),
        ):
            basis = BetType(getattr(self, field))
            if bet_type in offered and basis not in offered:
                errors[field] = _(
                    "The %(bet)s deposit cannot count from the %(basis)s stake: this version "
                    "does not offer %(basis)s. Offer it, or count the deposit from another bet."
                ) % {"bet": BET_TYPE_LABELS[bet_type], "basis": BET_TYPE_LABELS[basis]}
        if errors:
            raise ValidationError(errors)


#: The readings of the sheets a version may take, each with the one the presets take (and
#: every version made before it was a setting has).
READING_DEFAULTS = {
    "double_deposit_basis": BetType.DOUBLE.value,
    "super_deposit_basis": BetType.SUPER.value,
    "five_small_rank": SpecialRank.ABOVE_NIU_NIU.value,
    "four_of_a_kind_rank": SpecialRank.ABOVE_NIU_NIU.value,
    "five_face_rank": SpecialRank.ABOVE_NIU_NIU.value,
    "max_boxes": MAX_BOXES,
}
#: The fields of a version that are rules (copied by a clone, shown in the audit trail).
RULE_FIELDS = (
    *ROUNDING_FIELDS,
    "offers_double",
    "offers_super",
    "five_small",
    "four_of_a_kind",
    "five_face",
    "double_deposit_multiple",
    "super_deposit_multiple",
    *READING_DEFAULTS,
)


class PaytableRow(models.Model):
    version = models.ForeignKey(
        NiuNiuRulesetVersion, on_delete=models.CASCADE, related_name="paytable_rows"
    )
    bet_type = models.CharField(_("bet type"), max_length=8, choices=PAYTABLE_BET_TYPE_CHOICES)
    category = models.CharField(_("hand"), max_length=16, choices=CATEGORY_CHOICES)
    win_odds = rate_field(
        _("win odds (N:1)"),
        validators=[MinValueValidator(Decimal("0"))],
        help_text=_("Paid to the player who wins with this hand."),
    )
    commission_rate = rate_field(
        _("commission rate"),
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("1"))],
        help_text=_("Share of the winnings taken, 0.05 for 5%."),
    )
    loss_multiple = rate_field(
        _("loss multiple"),
        default=Decimal("1"),
        validators=[MinValueValidator(Decimal("1"))],
        help_text=_("Collected from the player when the dealer wins with this hand."),
    )

    class Meta:
        verbose_name = _("paytable row")
        verbose_name_plural = _("paytable rows")
        ordering = ["version", "bet_type", "category"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "bet_type", "category"], name="niuniu_row_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(win_odds__gte=0), name="niuniu_row_win_odds_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(commission_rate__gte=0, commission_rate__lte=1),
                name="niuniu_row_commission_between_0_and_1",
            ),
            models.CheckConstraint(
                condition=models.Q(loss_multiple__gte=1), name="niuniu_row_loss_multiple_at_least_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_bet_type_display()} / {self.get_category_display()}"


class BonusLine(models.Model):
    version = models.ForeignKey(
        NiuNiuRulesetVersion, on_delete=models.CASCADE, related_name="bonus_lines"
    )
    position = models.PositiveSmallIntegerField(
        _("position"), help_text=_("1 is checked first; the first line the hand meets pays.")
    )
    name = models.CharField(_("name"), max_length=60)
    predicate = models.CharField(_("condition"), max_length=32, choices=PREDICATE_CHOICES)
    odds = rate_field(_("odds (N:1)"), validators=[MinValueValidator(Decimal("0"))])

    class Meta:
        verbose_name = _("bonus line")
        verbose_name_plural = _("bonus lines")
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "position"], name="niuniu_bonus_position"),
            models.CheckConstraint(condition=models.Q(odds__gte=0), name="niuniu_bonus_odds"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.name}"


class RulesFigures(models.Model):
    """The exact odds of a set of rules, computed once per content hash.

    Two versions with the same paytable, switches and bonus lines share one row, so an
    unchanged paytable is never recomputed (a clone, or a draft saved without changes).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Computing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    rules_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    odds = models.JSONField(null=True, blank=True, help_text=_("RulesetOdds.to_dict()"))
    error = models.TextField(blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = _("rules figures")

    def __str__(self) -> str:
        return f"{self.rules_hash[:12]} ({self.status})"

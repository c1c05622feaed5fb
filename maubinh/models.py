"""Mau Binh ruleset versions: row bonuses, instant-win amounts, the scoop, the fee and switches.

Every number of docs/RULES.md part B is a field or a child row here, edited in the admin as a draft
and approved by a second person (``casino.rulesets.services``). ``maubinh.selectors`` turns a
version into the engine's frozen :class:`maubinh.engine.Ruleset`.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.kernel.money import RATE_DECIMAL_PLACES, RATE_MAX_DIGITS
from casino.rulesets.models import ROUNDING_FIELDS, RulesetVersion
from maubinh.engine.rules import (
    FRONT_CATEGORIES,
    Declaring,
    FeeBasis,
    InstantWin,
    Row,
    RowCategory,
    TiedInstantWins,
)

if TYPE_CHECKING:
    from django.utils.functional import StrOrPromise

ROW_LABELS = {
    Row.BACK: _("Back row (chi 1)"),
    Row.MIDDLE: _("Middle row (chi 2)"),
    Row.FRONT: _("Front row (chi 3)"),
}
ROW_CHOICES = [(row.value, ROW_LABELS[row]) for row in Row]
#: Written out, not ``_(category.label)``, for makemessages to find them; in the context "row",
#: as the console's row names, so that a row's "Four of a Kind" has a word of its own.
CATEGORY_LABELS = {
    RowCategory.STRAIGHT_FLUSH: pgettext_lazy("row", "Straight Flush"),
    RowCategory.FOUR_OF_A_KIND: pgettext_lazy("row", "Four of a Kind"),
    RowCategory.FULL_HOUSE: pgettext_lazy("row", "Full House"),
    RowCategory.FLUSH: pgettext_lazy("row", "Flush"),
    RowCategory.STRAIGHT: pgettext_lazy("row", "Straight"),
    RowCategory.THREE_OF_A_KIND: pgettext_lazy("row", "Three of a Kind"),
    RowCategory.TWO_PAIR: pgettext_lazy("row", "Two Pair"),
    RowCategory.PAIR: pgettext_lazy("row", "Pair"),
    RowCategory.HIGH_CARD: pgettext_lazy("row", "High Card"),
}
CATEGORY_CHOICES = [(c.name, CATEGORY_LABELS[c]) for c in sorted(RowCategory, reverse=True)]
INSTANT_WIN_LABELS = {
    InstantWin.DRAGON_FLUSH: _("Dragon Flush (rồng cuốn: 2 to A of one suit)"),
    InstantWin.DRAGON: _("Dragon (sảnh rồng: one each of 2 to A)"),
    InstantWin.SIX_PAIRS: _("Six Pairs (lục phé bôn)"),
    InstantWin.THREE_FLUSHES: _("Three Flushes (ba thùng)"),
    InstantWin.THREE_STRAIGHTS: _("Three Straights (ba sảnh)"),
}
INSTANT_WIN_CHOICES = [(kind.value, INSTANT_WIN_LABELS[kind]) for kind in InstantWin]

#: The front holds three cards: these are the only categories a front-row bonus can name.
FRONT_CATEGORY_NAMES = tuple(c.name for c in sorted(FRONT_CATEGORIES, reverse=True))

TIED_INSTANT_WIN_CHOICES = [
    (TiedInstantWins.EACH_IN_FULL.value, _("each tied winner collects in full")),
    (TiedInstantWins.SHARE.value, _("tied winners share one payment")),
]
FEE_BASIS_CHOICES = [
    (FeeBasis.NET_RESULT.value, _("a seat's net result")),
    (FeeBasis.EACH_WIN.value, _("each amount won")),
]
DECLARING_CHOICES = [
    (Declaring.AUTOMATIC.value, _("automatic: always taken")),
    (Declaring.OPTIONAL.value, _("optional: the player declares")),
]

FEE_RATE_MESSAGE = _("The fee rate is from 0 up to, not including, 1 (0.05 is 5%).")


def _reading_field(
    verbose_name: StrOrPromise, choices: list, default: StrEnum, help_text: StrOrPromise
) -> models.CharField:
    """A reading of the sheet a venue chooses: one of its choices, stored as the engine's
    value."""
    return models.CharField(
        verbose_name, max_length=16, choices=choices, default=default.value, help_text=help_text
    )


def validate_fee_rate(value: Decimal) -> None:
    if not Decimal(0) <= value < Decimal(1):
        raise ValidationError(FEE_RATE_MESSAGE, code="fee_rate")


class MauBinhRulesetVersion(RulesetVersion):
    """One version of a venue's Mau Binh rules (docs/RULES.md part B)."""

    scoop_multiplier = models.PositiveSmallIntegerField(
        _("scoop multiplier"),
        default=2,
        validators=[MinValueValidator(1, _("The scoop multiplier is 1 (no scoop rule) or more."))],
        help_text=_(
            "Everything won from one opponent is multiplied by this when all three rows are "
            "won against them (sập 3 chi): 2 doubles it, 1 means no scoop rule."
        ),
    )
    fee_rate = models.DecimalField(
        _("table fee rate"),
        max_digits=RATE_MAX_DIGITS,
        decimal_places=RATE_DECIMAL_PLACES,
        default=Decimal("0.05"),
        validators=[validate_fee_rate],
        help_text=_(
            "Share of a player's positive result taken by the house, 0.05 for 5%; rounded to "
            "the version's rounding unit in its rounding mode. Losers pay no fee."
        ),
    )
    quit_penalty = models.PositiveSmallIntegerField(
        _("quit penalty (chi)"),
        default=6,
        validators=[
            MinValueValidator(1, _("The quit penalty is a whole number of chi, 1 or more."))
        ],
        help_text=_("Chi a player who quits a round pays to each other player."),
    )
    wheel_is_lowest = models.BooleanField(
        _("A-2-3-4-5 is the lowest straight"),
        default=True,
        help_text=_("Off: A-2-3-4-5 ranks just below A-K-Q-J-10, as some venues play it."),
    )
    foul_counts_as_scoop = models.BooleanField(
        _("beating a fouled hand counts as a scoop"),
        default=True,
        help_text=_(
            "A clean hand wins all three rows against a fouled one; on, the scoop "
            "multiplier applies to that."
        ),
    )
    dragon_flush_counts_as_dragon = models.BooleanField(
        _("a one-suit dragon is a Dragon when Dragon Flush is not paid"),
        default=True,
        help_text=_("Dragon Flush is paid when its amount below is above 0."),
    )

    # Where the sheet (seed 002) reads two ways; docs/RULES.md "Settings a venue may choose".
    tied_instant_wins = _reading_field(
        _("equal instant wins"),
        TIED_INSTANT_WIN_CHOICES,
        TiedInstantWins.EACH_IN_FULL,
        _(
            'The sheet: "Nếu bằng nhau thì chia tiền thắng" (if equal, the winnings are '
            "shared). Each in full: every player holding the same instant win takes its whole "
            "amount from each weaker player. Share: each weaker player pays the amount once, "
            "split equally between the tied winners (every amount must then be a multiple of "
            "6, to split between two or three)."
        ),
    )
    fee_basis = _reading_field(
        _("table fee basis"),
        FEE_BASIS_CHOICES,
        FeeBasis.NET_RESULT,
        _(
            'The sheet: "Số tiền người chơi thắng được bằng số tiền thắng của nhà cái thua '
            'cược trừ đi 5% phí bàn chơi" (a player wins what the losers pay, less a 5% table '
            "fee). Net result: the fee is taken from a seat's result over the whole table, when "
            "it is positive. Each amount won: the fee is taken from every amount won from one "
            "opponent, whatever the seat lost to the others."
        ),
    )
    declaring = _reading_field(
        _("declaring an instant win"),
        DECLARING_CHOICES,
        Declaring.AUTOMATIC,
        _(
            'The sheet: "Báo mậu binh gồm ba cái thùng, ba cái sảnh, lục phế bôn sẽ ăn mỗi '
            'người chơi 18 chi" (declaring mau binh, three flushes, three straights or six '
            "pairs, takes 18 chi from each player). Automatic: a hand holding an instant win "
            "always takes it. Optional: only when the player declares it (the console asks for "
            "every seat holding one); an undeclared hand plays its rows."
        ),
    )
    instant_win_when_fouled = models.BooleanField(
        _("Three Flushes and Three Straights count on a fouled layout"),
        default=True,
        help_text=_(
            'The sheet: "Khi đạt mậu binh thì người chơi sẽ thắng điểm những người còn lại mà '
            'không cần so sánh bài" (with mau binh a player wins without comparing cards), but '
            '"Người chơi bị binh lủng ... bị xử thua cả 3 chi" (a fouled player loses all '
            "three rows). On: ba thùng and ba sảnh pay even when the rows as laid out are "
            "fouled. Off: a fouled layout holds no instant win."
        ),
    )
    foul_pays_row_bonuses = models.BooleanField(
        _("row bonuses count against a fouled hand"),
        default=True,
        help_text=_(
            'The sheet: "Người chơi bị binh lủng (chi sau mạnh hơn chi trước) thì người chơi '
            'bị xử thua cả 3 chi luôn" (a fouled player loses all three rows). On: each row '
            "the clean hand wins scores as against any hand, its row bonus included (tứ quý chi "
            "đầu 8 and so on). Off: each row scores 1 chi."
        ),
    )

    class Meta(RulesetVersion.Meta):
        verbose_name = _("Mau Binh ruleset version")
        verbose_name_plural = _("Mau Binh ruleset versions")
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "number"], name="maubinh_version_number"),
            models.CheckConstraint(
                condition=models.Q(scoop_multiplier__gte=1), name="maubinh_scoop_at_least_1"
            ),
            models.CheckConstraint(
                condition=models.Q(fee_rate__gte=0, fee_rate__lt=1),
                name="maubinh_fee_rate_from_0_below_1",
            ),
            models.CheckConstraint(
                condition=models.Q(quit_penalty__gte=1), name="maubinh_quit_penalty_at_least_1"
            ),
        ]
        permissions = [("approve_maubinhrulesetversion", _("Can approve and activate versions"))]


#: The fields of a version that are rules (copied by a clone, shown in the audit trail).
RULE_FIELDS = (
    *ROUNDING_FIELDS,
    "scoop_multiplier",
    "fee_rate",
    "quit_penalty",
    "wheel_is_lowest",
    "foul_counts_as_scoop",
    "dragon_flush_counts_as_dragon",
    "tied_instant_wins",
    "fee_basis",
    "declaring",
    "instant_win_when_fouled",
    "foul_pays_row_bonuses",
)


class RowBonus(models.Model):
    """What a winning row of one category scores in one row; rows not listed score 1 chi."""

    version = models.ForeignKey(
        MauBinhRulesetVersion, on_delete=models.CASCADE, related_name="row_bonuses"
    )
    row = models.CharField(_("row"), max_length=8, choices=ROW_CHOICES)
    category = models.CharField(_("winning hand"), max_length=16, choices=CATEGORY_CHOICES)
    chi = models.PositiveSmallIntegerField(
        _("chi"),
        validators=[MinValueValidator(1, _("A row bonus is a whole number of chi, 1 or more."))],
        help_text=_("Scored by this row when it wins with this hand (a plain win scores 1)."),
    )

    class Meta:
        ordering = ["version", "row", "category"]
        verbose_name = _("row bonus")
        verbose_name_plural = _("row bonuses")
        constraints = [
            models.UniqueConstraint(
                fields=["version", "row", "category"], name="maubinh_row_bonus_unique"
            ),
            models.CheckConstraint(condition=models.Q(chi__gte=1), name="maubinh_row_bonus_chi"),
            models.CheckConstraint(
                condition=~models.Q(row=Row.FRONT.value)
                | models.Q(category__in=FRONT_CATEGORY_NAMES),
                name="maubinh_front_bonus_category",
                violation_error_message=_(
                    "The front row holds three cards, so it can only be Three of a Kind, Pair "
                    "or High Card."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_row_display()} / {self.get_category_display()}: {self.chi}"


class InstantWinAmount(models.Model):
    """Chi an instant win takes from every other player; 0 means the venue does not pay it."""

    version = models.ForeignKey(
        MauBinhRulesetVersion, on_delete=models.CASCADE, related_name="instant_wins"
    )
    kind = models.CharField(_("instant win"), max_length=16, choices=INSTANT_WIN_CHOICES)
    chi = models.PositiveSmallIntegerField(
        _("chi"), help_text=_("From each other player; 0: not paid (how Dragon Flush is off).")
    )

    class Meta:
        ordering = ["version", "kind"]
        verbose_name = _("instant-win amount")
        verbose_name_plural = _("instant-win amounts")
        constraints = [
            models.UniqueConstraint(fields=["version", "kind"], name="maubinh_instant_win_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.chi}"


class RulesFigures(models.Model):
    """The Monte Carlo of a set of rules (the house take), computed once per content hash.

    The hash covers what the simulation depends on (the rules that decide how hands are laid
    out and scored, the number of deals and the seed), not the fee rate: the take is the
    fee rate times the simulated chi won, so a change of fee alone is never recomputed.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Computing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    rules_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    figures = models.JSONField(null=True, blank=True, help_text=_("simulate_house_take()"))
    error = models.TextField(blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = _("rules figures")

    def __str__(self) -> str:
        return f"{self.rules_hash[:12]} ({self.status})"

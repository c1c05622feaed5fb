"""Game integrity: categories and cards tallied at settlement, and the runs that test them.

Each settlement adds its round to ``CategoryTally`` (per table session, dealer, gaming date,
player, ruleset version, subject and category: the dealer's hand category, a box's, a box's
outcome against the dealer, a seat's events, and how many cards the round dealt) and to
``CardTally`` (per session, dealer and card); a void takes it off again
(casino.integrity.tallies). An ``IntegrityRun`` reads the tallies of a venue's
period, tests them (casino.integrity.runs) and keeps one ``IntegrityResult`` per test; an
alert opens a ``FluctuationInvestigation`` in the same workflow as a report's flag.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from casino.floor.models.sessions import TableSession
from casino.venues.models import Pit, Shift, Table, Venue

#: The subject under which a round's number of cards dealt is tallied (the card test's
#: cards per round), category the number of cards.
CARDS_DEALT = "cards_dealt"


class CategoryTally(models.Model):
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Empty: the dealer's hand, or a box without a member."),
    )
    game = models.CharField(max_length=16)
    ruleset_version_id = models.PositiveBigIntegerField()
    subject = models.CharField(max_length=32)
    category = models.CharField(max_length=32)
    count = models.IntegerField(help_text=_("0 once every round counted was voided."))

    class Meta:
        db_table = "casino_categorytally"
        ordering = ["session", "subject", "category"]
        constraints = [
            models.UniqueConstraint(
                models.F("session"),
                models.F("dealer"),
                models.F("gaming_date"),
                Coalesce(models.F("player"), models.Value(0)),
                models.F("game"),
                models.F("ruleset_version_id"),
                models.F("subject"),
                models.F("category"),
                name="category_tally_key",
            ),
        ]
        indexes = [models.Index(fields=["venue", "gaming_date"]), models.Index(fields=["shift"])]

    def __str__(self) -> str:
        return f"{self.subject} {self.category} x{self.count} at session {self.session_id}"


class CardTally(models.Model):
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    gaming_date = models.DateField()
    game = models.CharField(max_length=16)
    rank = models.CharField(max_length=1)
    suit = models.CharField(max_length=1)
    count = models.IntegerField()

    class Meta:
        db_table = "casino_cardtally"
        ordering = ["session", "rank", "suit"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "dealer", "gaming_date", "game", "rank", "suit"],
                name="card_tally_key",
            ),
        ]
        indexes = [models.Index(fields=["venue", "gaming_date"]), models.Index(fields=["shift"])]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit} x{self.count} at session {self.session_id}"


class IntegrityRun(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="integrity_runs")
    date_from = models.DateField()
    date_to = models.DateField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    requested_at = models.DateTimeField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    fdr = models.FloatField(default=0.05, help_text=_("The false discovery rate controlled."))
    tests = models.PositiveIntegerField(default=0)
    alerts = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        db_table = "casino_integrityrun"
        ordering = ["venue__code", "-date_to", "-id"]
        indexes = [models.Index(fields=["venue", "date_to"])]

    def __str__(self) -> str:
        return f"integrity run {self.pk} of {self.venue_id} {self.date_from}..{self.date_to}"


class IntegrityResult(models.Model):
    class Scope(models.TextChoices):
        TABLE = "table", _("Table")
        DEALER = "dealer", _("Dealer")
        PLAYER = "player", _("Player")
        PIT = "pit", _("Pit")

    run = models.ForeignKey(IntegrityRun, on_delete=models.PROTECT, related_name="results")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="+")
    scope = models.CharField(max_length=8, choices=Scope.choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    pit = models.ForeignKey(Pit, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Test(models.TextChoices):
        DEALER_HAND = "dealer_hand", _("Dealer's hand categories")
        BOX_HAND = "box_hand", _("Boxes' hand categories")
        BOX_OUTCOME = "box_outcome", _("Boxes' wins against the dealer")
        INSTANT_WIN = "instant_win", _("Instant wins held")
        SCOOP_BALANCE = "scoop_balance", _("Scoops by the cards, given against taken")
        ROUND_RESULT = "round_result", _("Round results against the shoe's odds")
        CARDS = "cards", _("Cards dealt")
        NET_RESULT = "net_result", _("Net result against its expectation")
        BET_OUTCOME = "bet_outcome", _("Bets' wins on each side against the shoe's odds")
        DEAL_REPEAT = "deal_repeat", _("Deals repeated or recycled")
        DEAL_SERIAL = "deal_serial", _("Cards carried over from the deal before")
        RESETTLEMENT = "resettlement", _("Rounds settled again from their record")

    label = models.CharField(max_length=120)
    #: The seat of a table a per-seat test is of (a game whose players play each other); empty
    #: for the others.
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    game = models.CharField(max_length=16)
    test = models.CharField(max_length=32, choices=Test.choices)
    method = models.CharField(max_length=32, blank=True)
    n = models.PositiveIntegerField(help_text=_("Observations (hands, boxes, rounds, cards)."))
    rounds = models.PositiveIntegerField(default=0)
    #: [{"key", "observed", "expected", "low", "high"}] (the 95% band of a fair game).
    cells = models.JSONField(default=list)
    statistic = models.FloatField(null=True, blank=True)
    p_value = models.FloatField(null=True, blank=True, help_text=_("Empty: not enough data."))
    q_value = models.FloatField(null=True, blank=True)
    alert = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True)
    #: What the investigation shows: the sessions and dates the counts came from.
    evidence = models.JSONField(default=dict)

    class Meta:
        db_table = "casino_integrityresult"
        ordering = ["run", "-alert", "q_value", "id"]
        indexes = [models.Index(fields=["run", "alert"])]

    def __str__(self) -> str:
        return f"{self.test} of {self.subject}: p {self.p_value}"

    @property
    def certain(self) -> bool:
        """Whether the result is a certainty, not a p-value: the table's rounds settled
        again from their record (``casino.integrity.resettlement``) match or differ."""
        return self.test == self.Test.RESETTLEMENT

    @property
    def subject(self) -> str:
        """What the result is of, as the page names it: the table, dealer, player or pit,
        and the seat of a per-seat test."""
        if self.position is None:
            return self.label
        return _("%(label)s, seat %(seat)s") % {"label": self.label, "seat": self.position}

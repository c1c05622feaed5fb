"""The tallies settlement keeps up to date: ``BetTally`` (a session's bets summed per hour,
player, ruleset version and bet type) and ``SeatTally`` (a seat's rounds), and ``BetSums``,
the sums both a tally and a shift report's cell hold (``casino.reports.models``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, Count, DecimalField, F, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from casino.floor.models.sessions import TableSession
from casino.kernel.fields import money_field
from casino.kernel.timezones import LocalHour
from casino.venues.models import Shift, Table, Venue


class BetSums(models.Model):
    """Settled bets summed per table session, local hour (the venue's clocks), player,
    ruleset version and bet type: the columns a tally and a report's cell share."""

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    hour = models.DateTimeField(
        help_text=_("The start of the hour on the venue's clocks the rounds settled in.")
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    game = models.CharField(max_length=16)
    ruleset_version_id = models.PositiveBigIntegerField()
    bet_type = models.CharField(max_length=16)
    handle = money_field()
    # Sum of stakes squared: with the bet's SD it gives the variance of the house win.
    # Stakes squared outgrow money fields, hence the size.
    stake_squared = models.DecimalField(max_digits=40, decimal_places=2)
    player_result = money_field(help_text=_("Sum of the bets' net, the players' view."))
    commission = money_field()
    volume = money_field(
        help_text=_("Sum of the winning bets' gross (a fee game's volume between players).")
    )

    class Meta:
        abstract = True


class BetTally(BetSums):
    """The settled bets of a table session summed per local hour, player, ruleset version and
    bet type, kept up to date as rounds settle and are voided (casino.floor.services.tallies).

    A shift report copies its shift's tallies into its cells instead of summing millions of
    bets; ``manage.py audit_ledger --tallies`` checks them against the bets.
    """

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="+")
    bets = models.IntegerField(help_text=_("0 once every bet of the tally was voided."))
    max_net = money_field(
        null=True,
        blank=True,
        help_text=_("The largest single bet's net (read from the bets again after a void)."),
    )

    class Meta:
        db_table = "casino_bettally"  # its name before the floor had its own app
        ordering = ["session", "hour"]
        constraints = [
            # The key the settlement's upsert names (a member-less box is player 0).
            models.UniqueConstraint(
                models.F("session"),
                models.F("dealer"),
                models.F("hour"),
                Coalesce(models.F("player"), models.Value(0)),
                models.F("game"),
                models.F("ruleset_version_id"),
                models.F("bet_type"),
                name="bet_tally_key",
            ),
        ]
        indexes = [models.Index(fields=["shift"])]

    def __str__(self) -> str:
        return f"bets of session {self.session_id} at {self.hour:%Y-%m-%d %H:%M}Z"


class SeatTally(models.Model):
    """A member's play at a table session: rounds, hands (boxes), first deal and last
    settlement, kept up to date as rounds settle and are voided (player ratings).

    A void takes the round and its hands off; the times stay (the member was seated).
    """

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    rounds = models.IntegerField()
    hands = models.IntegerField()
    first_dealt_at = models.DateTimeField()
    last_settled_at = models.DateTimeField()

    class Meta:
        db_table = "casino_seattally"  # its name before the floor had its own app
        ordering = ["session", "player"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="seat_tally_key"),
        ]
        indexes = [models.Index(fields=["shift"])]

    def __str__(self) -> str:
        return f"player {self.player_id} at session {self.session_id}"


ZERO = Decimal("0.00")
TALLY_MONEY = DecimalField(max_digits=40, decimal_places=2)

#: BetTally column -> the expression on ``Bet`` it is grouped by.
BET_KEYS: dict[str, Any] = {
    "shift_id": F("box__round__session__shift_id"),
    "venue_id": F("box__round__session__table__venue_id"),
    "session_id": F("box__round__session_id"),
    "table_id": F("box__round__session__table_id"),
    "dealer_id": F("box__round__dealer_id"),
    # The start of the hour on the venue's clocks (an instant): a venue half an hour off
    # UTC has hours from :30 UTC. The venue's zone comes by the join the round's table
    # already makes, not by a query per round.
    "hour": LocalHour("box__round__settled_at", "box__round__session__table__venue__timezone"),
    "player_id": F("box__player_id"),
    "game": F("box__round__game"),
    "ruleset_version_id": F("box__round__ruleset_version_id"),
    "bet_type": F("bet_type"),
}
#: BetTally column -> its sum over the tally's bets (each signed by the caller).
BET_SUMS: dict[str, Any] = {
    "bets": Count("pk"),
    "handle": Sum("stake"),
    "stake_squared": Sum(F("stake") * F("stake"), output_field=TALLY_MONEY),
    "player_result": Sum("net"),
    "commission": Coalesce(Sum("commission"), Value(ZERO), output_field=TALLY_MONEY),
    "volume": Sum(
        Case(When(gross__gt=0, then=F("gross")), default=Value(ZERO), output_field=TALLY_MONEY)
    ),
}

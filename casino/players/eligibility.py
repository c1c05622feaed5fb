"""The one question every service that takes a player asks: may this member play, buy in,
cash out, receive a comp or be rated here today?

``player_eligibility`` answers it (``players_eligibility`` for several players at once, in
one query), ``check_player_may`` refuses with the answer's reason. Rounds (every game's, as
the floor deals them), buy-ins and cash-outs, comps and ratings ask it, and the console's
member field shows its answer, so a screen and the service it calls say the same thing.
``tests/test_services_ask_eligibility.py`` finds every service function that takes a player
and fails on one that does not ask.

The answer is read from:

- **the venue**: a player is a member of one venue; at another they are nobody
  (``player_not_of_venue``);
- **the player's status**: ``barred`` bars them without an end;
- **the barrings in force** on the venue's date of ``at`` (now unless given, the venue's
  clocks): not lifted, begun, not ended, of kind barring or self-exclusion;
- **the barrings of the same person at the area's other venues**: where the venue is in an
  exclusion area in force at ``at`` (``casino.players.areas``), a barring (or the barred
  status) of a membership linked to the player (the same ``Person``) at another venue of the
  area bars them here too, from its first day read on this venue's date. The refusal names
  the venue that recorded it and its kind; its dates and reason only where the area shares
  details (``ExclusionArea.shares_details``). A venue outside the area reads nothing of it;
- **the barrings at the group's other sites** (a site of a group with its own database,
  docs/OPERATIONS.md "A group of sites"): a barring recorded at another site of a member
  with the same group key (their identity document, hashed with the group's secret), as the
  group sent it (``GroupBarring``), bars them here too; the refusal names that venue and the
  kind, never the details.

What a barred player may still do (``player_barred`` otherwise):

============  =========  ===========================================================
activity      barred     why
============  =========  ===========================================================
``play``      refused    no new round; a round already dealt is settled as dealt
``buy_in``    refused    whatever the instrument: cash, chips, a marker
``cash_out``  allowed    the house does not keep their money; the cash-out is
                         recorded, its audit event says the player is barred and a
                         WARNING line on ``casino.security`` alerts the venue
``comp``      refused    nothing is given to a barred player
``rate``      refused    a rating earns comps; play on a barred day is not rated
============  =========  ===========================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from casino.kernel.errors import Conflict, InvalidInput, ServiceError
from casino.kernel.timezones import venue_today, venue_zone
from casino.players.areas import area_of, area_venue_ids
from casino.players.models import GroupBarring, Player, PlayerBarring
from casino.players.selectors import barrings_on
from casino.venues.models import Venue


class Activity(StrEnum):
    """What a service is about to let a player do."""

    PLAY = "play"
    BUY_IN = "buy_in"
    CASH_OUT = "cash_out"
    COMP = "comp"
    RATE = "rate"


#: What a barred player may still do (see the module's description).
ALLOWED_WHEN_BARRED = frozenset({Activity.CASH_OUT})

#: Why a barred player is refused, per activity: by status only, by a barring with a last
#: day, by a barring until lifted.
_BARRED = {
    Activity.PLAY: (
        gettext_noop("player %(number)s is barred and cannot play"),
        gettext_noop(
            "player %(number)s is barred from %(from)s until %(until)s (%(reason)s) and cannot play"
        ),
        gettext_noop("player %(number)s is barred from %(from)s (%(reason)s) and cannot play"),
    ),
    Activity.BUY_IN: (
        gettext_noop("player %(number)s is barred and cannot buy in"),
        gettext_noop(
            "player %(number)s is barred from %(from)s until %(until)s (%(reason)s) and "
            "cannot buy in"
        ),
        gettext_noop("player %(number)s is barred from %(from)s (%(reason)s) and cannot buy in"),
    ),
    Activity.COMP: (
        gettext_noop("player %(number)s is barred and cannot receive a comp"),
        gettext_noop(
            "player %(number)s is barred from %(from)s until %(until)s (%(reason)s) and "
            "cannot receive a comp"
        ),
        gettext_noop(
            "player %(number)s is barred from %(from)s (%(reason)s) and cannot receive a comp"
        ),
    ),
    Activity.RATE: (
        gettext_noop("player %(number)s is barred and their play is not rated"),
        gettext_noop(
            "player %(number)s is barred from %(from)s until %(until)s (%(reason)s) and "
            "their play is not rated"
        ),
        gettext_noop(
            "player %(number)s is barred from %(from)s (%(reason)s) and their play is not rated"
        ),
    ),
}


#: Why a player barred at another venue of the area is refused here, per activity: the
#: venue and the kind only, or with the barring's dates and reason where the area shares them.
_BARRED_ELSEWHERE = {
    Activity.PLAY: (
        gettext_noop("player %(number)s is barred at %(venue)s (%(kind)s) and cannot play"),
        gettext_noop(
            "player %(number)s is barred at %(venue)s %(dates)s (%(kind)s: %(reason)s) and "
            "cannot play"
        ),
    ),
    Activity.BUY_IN: (
        gettext_noop("player %(number)s is barred at %(venue)s (%(kind)s) and cannot buy in"),
        gettext_noop(
            "player %(number)s is barred at %(venue)s %(dates)s (%(kind)s: %(reason)s) and "
            "cannot buy in"
        ),
    ),
    Activity.COMP: (
        gettext_noop(
            "player %(number)s is barred at %(venue)s (%(kind)s) and cannot receive a comp"
        ),
        gettext_noop(
            "player %(number)s is barred at %(venue)s %(dates)s (%(kind)s: %(reason)s) and "
            "cannot receive a comp"
        ),
    ),
    Activity.RATE: (
        gettext_noop(
            "player %(number)s is barred at %(venue)s (%(kind)s) and their play is not rated"
        ),
        gettext_noop(
            "player %(number)s is barred at %(venue)s %(dates)s (%(kind)s: %(reason)s) and "
            "their play is not rated"
        ),
    ),
}


@dataclass(frozen=True)
class Elsewhere:
    """A barring of the player's person at another venue of the area: the membership there,
    its barring (None: barred by status), and whether the area shares its details."""

    membership: Player
    barring: PlayerBarring | None
    shares_details: bool


@dataclass(frozen=True)
class Eligibility:
    """The answer for one player and activity: ``allowed``, and if not, why (``reason``, in
    the active language) under a stable ``code`` (``player_barred``,
    ``player_not_of_venue``). ``barred`` and ``barring`` say whether a barring (or the
    status) applies even where the activity is allowed (a barred player's cash-out)."""

    player: Player
    activity: Activity
    allowed: bool
    reason: str = ""
    code: str = ""
    barred: bool = False
    barring: PlayerBarring | None = None
    #: Set when the barring that applies was recorded at another venue of the area.
    elsewhere: Elsewhere | None = None

    @property
    def barring_shown(self) -> PlayerBarring | None:
        """The barring as this venue may read it: its own, or another venue's where the area
        shares details; else None (the reason says the venue and the kind)."""
        if self.elsewhere is not None and not self.elsewhere.shares_details:
            return None
        return self.barring

    def check(self, *, field: str = "player") -> Eligibility:
        """The answer itself if allowed; the refusal as a ``ServiceError`` otherwise."""
        if self.allowed:
            return self
        error: type[ServiceError] = InvalidInput if self.code == "player_not_of_venue" else Conflict
        raise error(self.reason, field=field, reason=self.code)


def barrings_in_force(player_ids: Iterable[int], on: date) -> dict[int, PlayerBarring]:
    """Player id -> the barring that keeps them from play on ``on`` (the venue's date)."""
    rows = (
        barrings_on(on)
        .filter(player_id__in=list(player_ids))
        .order_by("player_id", "-starts_on", "-pk")
    )
    found: dict[int, PlayerBarring] = {}
    for barring in rows:
        found.setdefault(barring.player_id, barring)
    return found


def barring_text(player: Player, barring: PlayerBarring | None, activity: Activity) -> str:
    """Why a barred player may not do ``activity``, naming the barring when there is one."""
    by_status, until, from_ = _BARRED[activity]
    if barring is None:
        return gettext(by_status) % {"number": player.membership_number}
    values = {
        "number": player.membership_number,
        "from": barring.starts_on.isoformat(),
        "until": barring.ends_on.isoformat() if barring.ends_on else "",
        "reason": barring.reason,
    }
    return gettext(until if barring.ends_on else from_) % values


def barred_elsewhere_text(player: Player, elsewhere: Elsewhere, activity: Activity) -> str:
    """Why a player barred at another venue of the area may not do ``activity`` here."""
    brief, detailed = _BARRED_ELSEWHERE[activity]
    barring = elsewhere.barring
    kind = barring.get_kind_display() if barring is not None else PlayerBarring.Kind.BARRING.label
    values = {
        "number": player.membership_number,
        "venue": elsewhere.membership.venue.name,
        "kind": kind,
    }
    if barring is None or not elsewhere.shares_details:
        return gettext(brief) % values
    dates = gettext("from %(from)s") % {"from": barring.starts_on.isoformat()}
    if barring.ends_on:
        dates += " " + gettext("until %(until)s") % {"until": barring.ends_on.isoformat()}
    return gettext(detailed) % {**values, "dates": dates, "reason": barring.reason}


def barred_elsewhere(
    players: list[Player], venue: Venue, on: date, at: datetime | None
) -> dict[int, Elsewhere]:
    """Player id -> a barring of their person at another venue of ``venue``'s area in force
    on ``on``; only players linked to a person cost anything (two queries and one more for
    their memberships' barrings)."""
    linked = {p.pk: p.person_id for p in players if p.person_id and p.venue_id == venue.pk}
    if not linked:
        return {}
    area = area_of(venue.pk, at)
    if area is None:
        return {}
    others = list(
        Player.objects.filter(person_id__in=set(linked.values()), venue_id__in=area_venue_ids(area))
        .exclude(pk__in=list(linked))
        .select_related("venue")
        .order_by("venue__code", "pk")
    )
    barrings = barrings_in_force([o.pk for o in others], on) if others else {}
    by_person: dict[int, Elsewhere] = {}
    for other in others:
        barring = barrings.get(other.pk)
        if barring is None and other.status != Player.Status.BARRED:
            continue
        by_person.setdefault(
            other.person_id, Elsewhere(other, barring, shares_details=area.shares_details)
        )
    return {pk: by_person[person] for pk, person in linked.items() if person in by_person}


def barred_at_other_sites(players: list[Player], venue: Venue, on: date) -> dict[int, Elsewhere]:
    """Player id -> a barring of the same person recorded at another site of the group and
    in force on ``on``, as the group sent it (``GroupBarring``, found by the member's group
    key; docs/OPERATIONS.md "A group of sites"). A barring made at this site is read where
    it was made (the venue's own, or its area's: ``barred_elsewhere``). One query, for the
    members with a group key only. The venue and the kind are named, never the details:
    the barring there is not a row of this database (``Elsewhere`` holds it as the group
    sent it)."""
    keyed: dict[str, list[int]] = {}
    for player in players:
        if player.group_key and player.venue_id == venue.pk:
            keyed.setdefault(player.group_key, []).append(player.pk)
    if not keyed:
        return {}
    rows = (
        GroupBarring.objects.filter(group_key__in=list(keyed), starts_on__lte=on)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on), lifted_at__isnull=True)
        .exclude(barring_id__in=PlayerBarring.objects.values("pk"))
        .order_by("group_key", "-starts_on", "-barring_id")
    )
    found: dict[int, Elsewhere] = {}
    for row in rows:
        there = Elsewhere(
            Player(venue=Venue(code=row.venue_code, name=row.venue_name), membership_number=""),
            PlayerBarring(kind=row.kind, starts_on=row.starts_on, ends_on=row.ends_on),
            shares_details=False,
        )
        for pk in keyed[row.group_key]:
            found.setdefault(pk, there)
    return found


def _answer(
    player: Player,
    venue: Venue,
    activity: Activity,
    barring: PlayerBarring | None,
    elsewhere: Elsewhere | None = None,
) -> Eligibility:
    if player.venue_id != venue.pk:
        return Eligibility(
            player,
            activity,
            allowed=False,
            reason=gettext("No player with membership number %(number)s at this venue.")
            % {"number": player.membership_number},
            code="player_not_of_venue",
        )
    barred = player.status == Player.Status.BARRED or barring is not None
    if not barred and elsewhere is not None:
        barred, barring = True, elsewhere.barring
        if activity in ALLOWED_WHEN_BARRED:
            return Eligibility(
                player, activity, allowed=True, barred=True, barring=barring, elsewhere=elsewhere
            )
        return Eligibility(
            player,
            activity,
            allowed=False,
            reason=barred_elsewhere_text(player, elsewhere, activity),
            code="player_barred",
            barred=True,
            barring=barring,
            elsewhere=elsewhere,
        )
    if not barred or activity in ALLOWED_WHEN_BARRED:
        return Eligibility(player, activity, allowed=True, barred=barred, barring=barring)
    return Eligibility(
        player,
        activity,
        allowed=False,
        reason=barring_text(player, barring, activity),
        code="player_barred",
        barred=True,
        barring=barring,
    )


def players_eligibility(
    *,
    players: Iterable[Player],
    venue: Venue,
    activity: Activity,
    at: datetime | None = None,
) -> dict[int, Eligibility]:
    """Player id -> the answer for each of ``players`` at ``venue`` on the venue's date of
    ``at`` (now unless given), in one query at most.

    A player read with ``barred_today`` (``casino.players.selectors.barred_on`` of the venue's
    today, as the console's lookups read them) and not barred costs no query when ``at``
    is not given, unless linked to a person (whose barrings elsewhere in the venue's area
    are read, ``barred_elsewhere``); the others' barrings are read together.
    """
    players = list(players)
    on = venue_today(venue) if at is None else timezone.localdate(at, timezone=venue_zone(venue))
    unsure = [
        player.pk
        for player in players
        if player.venue_id == venue.pk and (at is not None or getattr(player, "barred_today", True))
    ]
    barrings = barrings_in_force(unsure, on) if unsure else {}
    elsewhere = {
        **barred_at_other_sites(players, venue, on),
        **barred_elsewhere(players, venue, on, at),
    }
    return {
        player.pk: _answer(
            player, venue, activity, barrings.get(player.pk), elsewhere.get(player.pk)
        )
        for player in players
    }


def player_eligibility(
    *, player: Player, venue: Venue, activity: Activity, at: datetime | None = None
) -> Eligibility:
    """May ``player`` do ``activity`` at ``venue`` on the venue's date of ``at`` (now)?"""
    return players_eligibility(players=[player], venue=venue, activity=activity, at=at)[player.pk]


def check_player_may(
    *,
    player: Player,
    venue: Venue,
    activity: Activity,
    at: datetime | None = None,
    field: str = "player",
) -> Eligibility:
    """The answer if ``player`` may do ``activity``; else the refusal, raised: ``Conflict``
    (409, reason ``player_barred``) for a barred player, ``InvalidInput`` (400, reason
    ``player_not_of_venue``) for a player of another venue, ``field`` naming the input."""
    answer = player_eligibility(player=player, venue=venue, activity=activity, at=at)
    return answer.check(field=field)

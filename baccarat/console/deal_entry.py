"""Reading Baccarat's deal from the round form: six card fields in deal order, ``bac-p1``,
``bac-b1``, ``bac-p2``, ``bac-b2`` (the first four cards, Player, Banker, Player, Banker),
``bac-p3`` and ``bac-b3`` (the third cards the tableau draws, each in its own field).

Each card field holds one card, read by the console's one card reader. The deal is
followed card by card with the engine's tableau (``baccarat.engine.hands_so_far``): each
hand's total, a natural, whether it draws or stands, and a card the tableau does not take
named on its own field; the screen's notes ("Player draws on 4") come from the same reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from baccarat import engine
from baccarat.adapter import deal_message
from baccarat.console.labels import CARD_FIELDS, card_field_label, winner_label
from baccarat.engine import Coup, DealError, Hand, Progress
from casino.floor.console import forms
from casino.kernel.cards import Card, parse_cards

FIRST_FOUR = CARD_FIELDS[:4]
PLAYER_THIRD, BANKER_THIRD = CARD_FIELDS[4], CARD_FIELDS[5]


@dataclass
class CardEntry:
    """One card field: what was typed, the card read, what is wrong with it."""

    name: str
    text: str
    card: Card | None = None
    error: str = ""

    @property
    def label(self) -> str:
        return card_field_label(self.name)

    @property
    def side(self) -> str:
        return "player" if self.name.startswith("bac-p") else "banker"

    @property
    def filled(self) -> bool:
        return self.card is not None


def read_card(name: str, text: str) -> CardEntry:
    entry = CardEntry(name=name, text=(text or "").strip())
    read = forms.read_cards(entry.text, twice=_("%(card)s is typed twice in one field"))
    if read.error:
        entry.error = read.error
    elif len(read.cards) > 1:
        entry.error = _("%(field)s holds one card; %(count)s are typed") % {
            "field": entry.label,
            "count": len(read.cards),
        }
    elif read.cards:
        entry.card = read.cards[0]
    return entry


@dataclass
class DealEntry:
    """The deal as typed: six card fields, the cards in deal order, what the tableau says."""

    fields: list[CardEntry]
    dealt: list[CardEntry] = field(default_factory=list)
    progress: Progress | None = None
    #: The field to type next (None: the deal is complete, or a field is wrong).
    next_field: str | None = FIRST_FOUR[0]
    coup: Coup | None = None
    error: str = ""

    def by_name(self, name: str) -> CardEntry:
        return next(f for f in self.fields if f.name == name)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(f.card for f in self.dealt if f.card is not None)

    @property
    def canonical(self) -> str:
        return " ".join(str(card) for card in self.cards)

    @property
    def field_errors(self) -> list[CardEntry]:
        return [f for f in self.fields if f.error]

    @property
    def has_errors(self) -> bool:
        return bool(self.error or self.field_errors)

    @property
    def complete(self) -> bool:
        return self.coup is not None and not self.has_errors

    @property
    def typed(self) -> str:
        """What the card fields held, in order, joined by ``|``: the browser matches it to
        the fields as they are now, so an answer to an earlier keystroke ("3" before "3s")
        is never taken for the answer to the deal as typed."""
        return "|".join(f.text for f in self.fields)

    def hand(self, side: str) -> Hand:
        if self.coup is not None:
            return self.coup.player if side == "player" else self.coup.banker
        if self.progress is not None:
            return self.progress.player if side == "player" else self.progress.banker
        return Hand.of(())

    @property
    def player(self) -> Hand:
        return self.hand("player")

    @property
    def banker(self) -> Hand:
        return self.hand("banker")

    @property
    def natural(self) -> bool:
        return self.progress is not None and self.progress.reason == "natural"

    @property
    def player_waits(self) -> bool:
        """The Player draws and its third card is not typed yet."""
        return self.next_field == PLAYER_THIRD

    # What the screen says of each hand and of the two third-card fields

    def note(self, side: str) -> str:
        """ "Player draws on 4", "Banker stands on 7", "Natural 9"... ('' before four cards)."""
        hand = self.hand(side)
        if len(self.cards) < 4:  # a natural of the other hand may yet make it stand
            return ""
        total = {"total": hand.total}
        player = side == "player"
        if self.natural:
            if hand.total >= 8:
                return _("Natural %(total)s") % total
            if player:
                return _("Player stands on %(total)s: the Banker has a natural") % total
            return _("Banker stands on %(total)s: the Player has a natural") % total
        if hand.drew:
            if player:
                return _("Player drew a third card: %(total)s") % total
            return _("Banker drew a third card: %(total)s") % total
        if player:
            if engine.player_draws(hand.total):
                return _("Player draws on %(total)s") % total
            return _("Player stands on %(total)s") % total
        if len(self.player.cards) < 2 or self.player_waits:
            return _("Banker waits for the Player's third card")
        third = self.player.cards[2] if self.player.drew else None
        if engine.banker_draws(hand.total, third):
            return _("Banker draws on %(total)s") % total
        return _("Banker stands on %(total)s") % total

    @property
    def player_note(self) -> str:
        return self.note("player")

    @property
    def banker_note(self) -> str:
        return self.note("banker")

    def third_note(self, side: str) -> str:
        """Whether the hand draws a third card, beside its field."""
        if len(self.dealt) < 4 and not (self.progress and self.progress.error):
            if side == "player":
                return _("The Player draws on 0-5")
            return _("The Banker draws by the tableau")
        if self.natural:
            return _("No third card: a natural")
        hand = self.hand(side)
        if hand.drew:
            return ""
        note = self.note(side)
        if side == "player":
            if engine.player_draws(hand.total):
                return _("%(note)s: enter the card") % {"note": note}
            return _("%(note)s: leave it empty") % {"note": note}
        if self.player_waits:
            return note
        if self.next_field == BANKER_THIRD:
            return _("%(note)s: enter the card") % {"note": note}
        return _("%(note)s: leave it empty") % {"note": note}

    @property
    def player_third_note(self) -> str:
        return self.third_note("player")

    @property
    def banker_third_note(self) -> str:
        return self.third_note("banker")

    @property
    def status(self) -> str:
        """The deal in one line: who won, or what comes next."""
        if self.coup is not None:
            coup = self.coup
            words = {
                "winner": winner_label(str(coup.winner)),
                "player": coup.player.total,
                "banker": coup.banker.total,
            }
            if coup.super6:
                return _("%(winner)s, %(banker)s to %(player)s: Super 6") % words
            if str(coup.winner) == "player":
                return _("%(winner)s, %(player)s to %(banker)s") % words
            return _("%(winner)s, %(banker)s to %(player)s") % words
        if self.next_field is not None and not self.has_errors:
            return _("Next: %(field)s") % {"field": card_field_label(self.next_field)}
        return ""


def _blame(deal: DealEntry, error: DealError, message: str | None = None) -> None:
    """Put the engine's refusal on the field of the card it names (else on the deal)."""
    text = message or deal_message(error)
    if error.index is not None and error.index < len(deal.dealt):
        deal.dealt[error.index].error = text
    else:
        deal.error = text


def _follow(deal: DealEntry, rules: engine.Ruleset) -> Progress:
    progress = engine.hands_so_far(deal.cards, rules)
    deal.progress = progress
    if progress.error is not None:
        _blame(deal, progress.error)
    return progress


def _too_many(code: str, params: dict, card: Card) -> str:
    return deal_message(DealError("", code=code, params={**params, "card": str(card)}))


def read_deal(data: Mapping[str, str], rules: engine.Ruleset) -> DealEntry:
    """The six card fields read and followed through the tableau, each mistake on its field:
    a card missing before one typed, a third card the tableau does not draw, a card dealt
    more often than the shoe holds it. The deal is complete when the tableau is."""
    deal = DealEntry(fields=[read_card(name, data.get(name) or "") for name in CARD_FIELDS])
    if deal.field_errors:
        deal.next_field = None
        return deal
    first, p3, b3 = (
        [deal.by_name(name) for name in FIRST_FOUR],
        deal.by_name(PLAYER_THIRD),
        deal.by_name(BANKER_THIRD),
    )
    for entry in first:
        if not entry.filled:
            break
        deal.dealt.append(entry)
    missing = len(deal.dealt)
    if missing < 4:
        later = [f for f in deal.fields[missing + 1 :] if f.filled]
        if later:
            later[0].error = _(
                "Enter %(missing)s first: the cards go in deal order, Player, Banker, "
                "Player, Banker"
            ) % {"missing": first[missing].label}
            deal.next_field = None
        else:
            deal.next_field = first[missing].name
        _follow(deal, rules)
        return deal
    progress = _follow(deal, rules)
    deal.next_field = None
    if progress.error is not None:
        return deal
    if progress.reason == "natural":
        for entry in (p3, b3):
            if entry.filled:
                entry.error = _too_many("natural", dict(progress.params), entry.card)
        return _complete(deal, rules)
    if progress.next_card == "player":
        if not p3.filled:
            if b3.filled:
                p3.error = deal_message(
                    DealError("", code="player_draws", params=dict(progress.params))
                )
            else:
                deal.next_field = PLAYER_THIRD
            return deal
        deal.dealt.append(p3)
        progress = _follow(deal, rules)
        if progress.error is not None:
            return deal
    elif p3.filled:
        p3.error = _(
            "Player stands on %(total)s: '%(card)s' is one card too many (a Banker's third "
            "card goes in its own field)"
        ) % {"total": progress.player.total, "card": p3.card}
        return deal
    if progress.next_card == "banker":
        if not b3.filled:
            deal.next_field = BANKER_THIRD
            return deal
        deal.dealt.append(b3)
        progress = _follow(deal, rules)
        if progress.error is not None:
            return deal
    elif b3.filled:
        b3.error = _too_many("banker_stands", {"total": progress.banker.total}, b3.card)
        return deal
    return _complete(deal, rules)


def _complete(deal: DealEntry, rules: engine.Ruleset) -> DealEntry:
    if deal.has_errors:
        return deal
    try:
        deal.coup = engine.deal(deal.cards, rules)
    except DealError as error:  # pragma: no cover - the tableau was followed card by card
        _blame(deal, error)
    return deal


def deal_fields(dealer_cards: str, rules: engine.Ruleset) -> dict[str, str]:
    """A deal in deal order ("9H 2C 3D KS 5H") as the six fields: the fifth card is the
    Player's third when the Player draws, else the Banker's."""
    cards = parse_cards(dealer_cards) if dealer_cards.strip() else ()
    names = list(FIRST_FOUR)
    if len(cards) > 4:
        progress = engine.hands_so_far(cards[:4], rules)
        names += [PLAYER_THIRD, BANKER_THIRD] if progress.next_card == "player" else [BANKER_THIRD]
    return {name: str(card) for name, card in zip(names, cards, strict=False)}

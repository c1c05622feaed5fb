"""The integrity run's stored words, read in the reader's language.

A run stores what it found as it found it (``IntegrityResult.note``, its cells' ``key``):
"50 rounds, 200 needed", "A♠ (rarest)". History is never rewritten, so these are put in the
reader's language when they are shown, from the shapes the run writes (``casino.integrity.runs``,
``casino.integrity.results``); a text of another shape is shown as it was stored.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, ngettext

_NEEDED = re.compile(r"^(?P<count>\d+) (?P<what>rounds|boxes), (?P<needed>\d+) needed$")
_CARD = re.compile(r"^(?P<card>.+) \((?P<which>rarest|commonest|too few|too many)\)$")


def note_shown(note: str) -> str:
    """A result's note (why it was not tested) in the reader's language."""
    found = _NEEDED.match(note or "")
    if not found:
        return note
    count, needed = int(found["count"]), int(found["needed"])
    if found["what"] == "rounds":
        text = ngettext(
            "%(count)s round, %(needed)s needed", "%(count)s rounds, %(needed)s needed", count
        )
    else:
        text = ngettext(
            "%(count)s box, %(needed)s needed", "%(count)s boxes, %(needed)s needed", count
        )
    return text % {"count": count, "needed": needed}


def key_shown(key: object) -> str:
    """A cell's key (a category, a card, the rarest or commonest card) for the reader."""
    text = str(key)
    if text == "shared":  # the deal-order test's one cell (casino.integrity.deals)
        return gettext("cards shared with the deal before")
    found = _CARD.match(text)
    if not found:
        return text
    words = {
        "rarest": gettext("%(card)s (rarest)"),
        "commonest": gettext("%(card)s (commonest)"),
        "too few": gettext("%(card)s (too few)"),
        "too many": gettext("%(card)s (too many)"),
    }
    return words[found["which"]] % {"card": found["card"]}


def figure_shown(name: str) -> str:
    """A figure a round settled again from its record is compared on
    (``casino.integrity.resettlement.Difference.field``), for the reader."""
    from casino.ledger.models import Account, EntryKind

    if name.startswith("ledger:"):
        _, account, kind = name.split(":", 2)
        return gettext("Ledger: %(account)s, %(kind)s") % {
            "account": Account(account).label if account in Account.values else account,
            "kind": EntryKind(kind).label if kind in EntryKind.values else kind,
        }
    names = {
        "outcome": gettext("Outcome"),
        "odds": gettext("Odds"),
        "gross": gettext("Gross"),
        "commission": gettext("Commission"),
        "net": gettext("Net"),
        "deposit_required": gettext("Deposit required"),
        "bet": gettext("Stake of a bet only one side has"),
        "house_net": gettext("House result"),
        "settlement": gettext("Settlement"),
    }
    return names.get(name, name)


def figure_value(name: str, value: str, venue: object) -> str:
    """A recorded or re-settled figure for the reader: an amount in the venue's currency and
    grouping, an outcome by its name, anything else as stored."""
    from decimal import Decimal, InvalidOperation

    from casino.floor.models import Bet
    from casino.kernel.money import venue_money

    if name == "outcome" and value in Bet.Outcome.values:
        return str(Bet.Outcome(value).label)
    if name in ("odds", "settlement"):
        return value
    try:
        amount = Decimal(value)
    except InvalidOperation:
        return value
    return venue_money(amount, venue)

"""How the duplicate search compares names and identity documents: the keys a player's row
keeps (``Player.name_key``, ``Player.document_key``, written on every save) and a typed
search is put in, so the comparison is an equality the database's index serves, the same on
PostgreSQL and SQLite (no ``unaccent`` extension needed).

A name's key: Unicode decomposition (NFD) with the combining marks dropped (the accents and
tones of Vietnamese, Portuguese's cedilla and tildes), Vietnamese ``đ`` as ``d``, case folded,
anything but letters and digits as a space, then the words sorted, so ``Nguyễn Văn An``,
``nguyen van an`` and ``AN Nguyen Van`` (the order a passport writes) are one key. Hangul
and Han characters are kept as they are (recomposed after the decomposition).

A document's key: its type as a name's key, its number in capitals without spaces, ``-``,
``.`` or ``/``, its issuing country in capitals; none without a number. A member's group key
(``Player.group_key``): the document's key hashed with the group's secret, the one thing a
site sends the group that tells one person's memberships at two sites apart
(docs/OPERATIONS.md "A group of sites").

How a document number is shown to everyone but a manager: ``masked``, read by the players'
pages and the cage's cash records alike.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

#: Letters the decomposition keeps whole but a search types without their stroke.
_STROKES = str.maketrans({"đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L"})


def _words(text: str | None) -> list[str]:
    decomposed = unicodedata.normalize("NFD", (text or "").translate(_STROKES))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = unicodedata.normalize("NFC", bare).casefold()
    spaced = "".join(c if c.isalnum() else " " for c in folded)
    return spaced.split()


def name_key(name: str | None) -> str:
    """The key a name is compared by.

    >>> name_key("Nguyễn Văn An") == name_key("nguyen van  AN") == name_key("An, Nguyen Van")
    True
    >>> name_key("Đặng Thị Hồng")
    'dang hong thi'
    """
    return " ".join(sorted(_words(name)))[:120]


def group_key(document: str, secret: str) -> str:
    """A member's key across the sites of a group: a keyed hash (HMAC-SHA256) of their
    document's key (:func:`document_key`) with the group's secret, so that one document gives
    one key at every site and the key gives back no document; empty without either.

    >>> group_key("passport|B12345678|VN", "s3cret") == group_key("passport|B12345678|VN", "s3cret")
    True
    >>> group_key("", "s3cret"), group_key("passport|B12345678|VN", "")
    ('', '')
    """
    if not document or not secret:
        return ""
    return hmac.new(secret.encode(), document.encode(), hashlib.sha256).hexdigest()


def document_key(kind: str | None, number: str | None, country: str | None) -> str:
    """The key an identity document is compared by; empty without a number.

    >>> document_key("Passport", "b 1234-5678", "vn")
    'passport|B12345678|VN'
    """
    digits = "".join(c for c in (number or "").upper() if c.isalnum())
    if not digits:
        return ""
    issuer = "".join(c for c in (country or "").upper() if c.isalnum())
    return f"{' '.join(_words(kind))}|{digits}|{issuer}"[:200]


def masked(number: str) -> str:
    """A document number as everyone but a manager reads it: its last 4 characters.

    >>> masked("B12345678"), masked("12"), masked("")
    ('•••••5678', '••', '')
    """
    if not number:
        return ""
    shown = number[-4:] if len(number) > 4 else ""
    return "•" * (len(number) - len(shown)) + shown

"""A member's one identity: the stored form of a membership number.

A membership number is put in its stored form once, where it is typed, by
``membership_number``; registering, editing and every lookup use that one function, and the
database's CHECK constraint (``STORED_FORM``) refuses anything else, so two spellings of one
number are one member and two different numbers never find each other's owner:

1. surrounding spaces are dropped;
2. full-width ASCII (U+FF01-U+FF5E, what CJK keyboards type) becomes ASCII;
3. what is left may hold only the letters A-Z (either case), the digits 0-9 and ``-`` ``.``
   ``/``, 1 to 32 of them;
4. letters are stored upper-case.

Nothing else is folded: no Unicode case folding or compatibility mapping, which would turn
``ß`` into ``SS`` or the ligature ``ﬁ`` into ``FI`` and so make a look-alike find another
member. A number with any other character is refused when registering and finds nobody
when looked up. See docs/PLAYERS.md.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MAX_LENGTH = 32

#: The stored form. PostgreSQL's ``~`` and Python's ``re`` read it alike: ranges are code
#: points whatever the collation, and ``\A``/``\Z`` (unlike ``$``) admit no final newline.
STORED_FORM = r"\A[A-Z0-9./-]{1,32}\Z"

_ALLOWED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-./")

#: U+FF01-U+FF5E are ASCII U+0021-U+007E shifted by 0xFEE0, one to one.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}

#: How many of the wrong characters a message names.
_NAMED = 5


class NotAMembershipNumber(ValueError):
    """The text cannot be put in the stored form; the message says why, for a person."""


def _shown(character: str) -> str:
    # The code point tells look-alikes apart (Cyrillic А from A) and shows invisible ones.
    code = f"U+{ord(character):04X}"
    return f"“{character}” ({code})" if character.isprintable() else code


def membership_number(text: str | None) -> str:
    """The stored form of a membership number as typed; ``NotAMembershipNumber`` if none.

    >>> membership_number(" hanoi-0001 "), membership_number("ＭＢ－００１")
    ('HANOI-0001', 'MB-001')
    """
    typed = (text or "").strip().translate(_FULL_WIDTH)
    if not typed:
        raise NotAMembershipNumber(
            _("Enter a membership number: 1 to 32 letters A to Z, digits 0 to 9 and - . /.")
        )
    wrong = list(dict.fromkeys(c for c in typed if c not in _ALLOWED))
    if wrong:
        raise NotAMembershipNumber(
            _(
                "A membership number may hold only the letters A to Z, the digits 0 to 9 and "
                "the signs - . /; retype it without %(characters)s."
            )
            % {"characters": ", ".join(_shown(c) for c in wrong[:_NAMED])}
        )
    if len(typed) > MAX_LENGTH:
        raise NotAMembershipNumber(
            _("A membership number has at most %(most)s characters; this one has %(count)s.")
            % {"most": MAX_LENGTH, "count": len(typed)}
        )
    return typed.upper()


def membership_key(text: str | None) -> str | None:
    """The stored form to look a typed number up by, or None: such a number finds nobody.

    >>> membership_key("hanoi-0001"), membership_key("MB-ﬁ1"), membership_key("")
    ('HANOI-0001', None, None)
    """
    try:
        return membership_number(text)
    except NotAMembershipNumber:
        return None


class MembershipNumberFormField(forms.CharField):
    """A form's membership number: cleaned into the stored form, or a message why not."""

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return value
        try:
            return membership_number(value)
        except NotAMembershipNumber as error:
            raise ValidationError(str(error), code="invalid") from None


class MembershipNumberField(models.CharField):
    """A membership number in the stored form; forms built on it (the admin's) clean into it."""

    description = gettext_lazy("Membership number")
    default_validators = [
        RegexValidator(
            STORED_FORM,
            gettext_lazy(
                "A membership number is stored as 1 to 32 capital letters A to Z, digits 0 to 9 "
                "and - . /."
            ),
        )
    ]

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("max_length", MAX_LENGTH)
        super().__init__(*args, **kwargs)

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": MembershipNumberFormField, **kwargs})

"""``note_shown`` and ``key_shown`` (``casino.integrity.words``) as template filters."""

from django import template

from casino.integrity.words import key_shown, note_shown

register = template.Library()
register.filter("note_shown", note_shown)
register.filter("key_shown", key_shown)

"""``note_shown``, ``key_shown`` and ``figure_shown`` (``casino.integrity.words``) as template
filters, ``figure_value`` as a tag (a figure, its value and the venue)."""

from django import template

from casino.integrity.words import figure_shown, figure_value, key_shown, note_shown

register = template.Library()
register.filter("note_shown", note_shown)
register.filter("key_shown", key_shown)
register.filter("figure_shown", figure_shown)
register.simple_tag(figure_value, name="figure_value")

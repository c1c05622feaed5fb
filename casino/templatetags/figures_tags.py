"""``{% definition "win_by_count" %}``: which definition a figure uses, in the reader's
language, from the one place figures are defined (``casino.floor.figures``)."""

from __future__ import annotations

from django import template

from casino.floor.figures import DEFINITIONS

register = template.Library()


@register.simple_tag
def definition(key: str) -> str:
    return str(DEFINITIONS[key])

"""The console's lock screen (``casino/console/lock.py``, ``static/js/lock.js``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

register = template.Library()


@register.inclusion_tag("console/_lock.html", takes_context=True)
def lock_screen(context: Any) -> dict[str, Any]:
    """The lock dialog, hidden until the console has been idle ``CONSOLE_IDLE_MINUTES``
    or its login ran out."""
    return {
        "user": context["request"].user,
        "idle_seconds": int(settings.CONSOLE_IDLE_MINUTES * 60),
    }

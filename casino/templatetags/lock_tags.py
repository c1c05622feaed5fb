"""The console's lock screen (``casino/floor/console/lock.py``, ``static/js/lock.js``)."""

from __future__ import annotations

from typing import Any

from django import template

from casino.floor.console.terminal import BEAT_SECONDS, idle_seconds

register = template.Library()


@register.inclusion_tag("console/_lock.html", takes_context=True)
def lock_screen(context: Any) -> dict[str, Any]:
    """The lock dialog, hidden until the console has been idle ``CONSOLE_IDLE_MINUTES``,
    is locked by hand or from another tab, or its login ran out; open at once on the page
    a locked console answers (``console_locked``)."""
    return {
        "user": context["request"].user,
        "idle_seconds": int(idle_seconds()),
        "beat_seconds": BEAT_SECONDS,
        "locked": bool(context.get("console_locked")),
    }

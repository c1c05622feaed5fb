"""The count's answers to what the floor tells (``casino.floor.signals``), connected when the
app is ready."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from casino.count.boxes import dropbox_attach
from casino.floor.models import TableSession
from casino.floor.signals import session_opened


@receiver(session_opened, dispatch_uid="casino.count.boxes")
def session_into_box(sender: Any, *, session: TableSession, **kwargs: Any) -> None:
    """An opened session's drop put into a box; the open refused when its gaming day's count
    is closed (``dropbox_attach``)."""
    dropbox_attach(session=session)

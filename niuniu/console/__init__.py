"""Niu Niu's round screen in the dealer's console (``CONSOLE``, a ``GameConsole``)."""

from niuniu.console.screen import CONSOLE

__all__ = ["CONSOLE"]

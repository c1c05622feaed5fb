"""Baccarat's round screen in the dealer's console (``CONSOLE``, a ``GameConsole``)."""

from baccarat.console.screen import CONSOLE

__all__ = ["CONSOLE"]

"""Mau Binh's round screen in the dealer's console (``CONSOLE``, a ``GameConsole``)."""

from maubinh.console.screen import CONSOLE

__all__ = ["CONSOLE"]

"""Progress lines for long commands (``simulate``, ``audit_ledger``, ``rebuild_tallies``).

One line every ``every`` seconds or every tenth of the work, whichever comes first, and a
final one: what is done of the total, the percent, the rate per second and the time left
at that rate::

    simulate: 3,000/10,000 rounds (30%), 512.0/s, ETA 14 s
    simulate: 10,000/10,000 rounds (100%), 498.2/s, in 20 s

Pure Python: the clock and where lines go are passed in (a fake clock in tests, the
command's stderr in a command).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.core.management.base import BaseCommand

#: At most this long between two lines (seconds) ...
EVERY_SECONDS = 2.0
#: ... and a line at least every this fraction of the total.
EVERY_FRACTION = 0.1


def duration(seconds: float) -> str:
    """A short duration: ``14 s``, ``2 min 05 s``, ``1 h 02 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Progress:
    """Counts work done and writes a progress line now and then through ``write``."""

    def __init__(
        self,
        total: int,
        *,
        label: str,
        unit: str = "",
        write: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float = EVERY_SECONDS,
        fraction: float = EVERY_FRACTION,
    ) -> None:
        self.total = max(0, total)
        self.label = label
        self.unit = unit
        self.write = write
        self.clock = clock
        self.every = every
        self.step = max(1, int(self.total * fraction)) if self.total else 1
        self.done = 0
        self.started = clock()
        self._last_time = self.started
        self._last_done = 0

    def advance(self, count: int = 1) -> None:
        """``count`` more units done; writes a line when one is due."""
        self.done += count
        now = self.clock()
        if self.done < self.total and (
            now - self._last_time >= self.every or self.done - self._last_done >= self.step
        ):
            self._emit(self.line(now))
            self._last_time, self._last_done = now, self.done

    def finish(self) -> None:
        """The final line: everything done and how long it took."""
        self._emit(self.line(self.clock(), final=True))

    def line(self, now: float, *, final: bool = False) -> str:
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        unit = f" {self.unit}" if self.unit else ""
        percent = self.done * 100 // self.total if self.total else 100
        text = f"{self.label}: {self.done:,}/{self.total:,}{unit} ({percent}%), {rate:,.1f}/s"
        if final:
            return f"{text}, in {duration(elapsed)}"
        if rate > 0:
            return f"{text}, ETA {duration((self.total - self.done) / rate)}"
        return text

    def _emit(self, text: str) -> None:
        if self.write is not None:
            self.write(text)


def command_progress(
    command: BaseCommand, total: int, *, verbosity: int, **kwargs: Any
) -> Progress:
    """A command's progress on its stderr; nothing at ``--verbosity 0``."""
    write = command.stderr.write if verbosity > 0 else None
    return Progress(total, write=write, **kwargs)

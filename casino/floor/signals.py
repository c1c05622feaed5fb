"""What the floor's writers tell the apps above the floor, which the floor does not know:
sent inside the writer's transaction and received synchronously, so what a receiver writes
commits or rolls back with the floor's write, and a receiver's refusal (a ``ServiceError``)
refuses the write with its own message.

``session_opened`` (with ``session``, holding its table's lock): sent by ``session_open``
(``casino.floor.services.sessions``); the count puts the session's drop into a box, or
refuses the open when the gaming day's count is closed (``casino.count.receivers``).

``round_tallied`` (sent by the round's writers, ``casino.floor.services.settlement`` and
``voids``, with ``round_``, ``result``: the engine's ``RoundResult``, ``boxes`` and
``sign``: 1 when the round settles, -1 when a settled round is voided): integrity counts the
round's cards and hands into its tallies (``casino.integrity.receivers``).
"""

from django.dispatch import Signal

session_opened = Signal()
round_tallied = Signal()

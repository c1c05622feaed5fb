"""What a round's settlement tells the apps above the floor, which the floor does not know:
sent by the round's writers (``casino.floor.services.settlement`` and ``voids``) inside their
transaction, and received synchronously, so what a receiver writes commits or rolls back
with the round.

``round_tallied`` (with ``round_``, ``result``: the engine's ``RoundResult``, ``boxes`` and
``sign``: 1 when the round settles, -1 when a settled round is voided): integrity counts the
round's cards and hands into its tallies (``casino.integrity.receivers``).
"""

from django.dispatch import Signal

round_tallied = Signal()

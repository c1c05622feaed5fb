"""What a shift's close tells the apps above the venues, which the venues and the floor do
not know: sent by the writer, inside its transaction, received synchronously.

``shift_closing`` (with ``shift_id``): a shift's figures changed as it closed, when a table's
session closed (``casino.floor.services.closing``) or the count closed the shift's gaming
day (``casino.count.services``). The reports request the shift's report when the shift has
ended and no table of it is open (``casino.reports.receivers``).
"""

from django.dispatch import Signal

shift_closing = Signal()

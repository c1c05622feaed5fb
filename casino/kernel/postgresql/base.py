"""Django's PostgreSQL backend whose health check asks the socket, not the server.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection before a request's first
statement by sending ``SELECT 1``: a round trip on every request, which on a console
partial cost as much CPU as the partial's own statement (docs/BENCHMARKS.md "floor"). A
connection the server has closed while it sat idle (PostgreSQL restarted or stopped for a
failover, its backend terminated, PgBouncer's idle timeout) has the server's goodbye waiting
on its socket: the termination's error, then the end of the stream. So the check first asks
the socket, without waiting, whether anything arrived unasked: nothing did, the connection
is as it was left (idle, in no transaction) and is kept; something did, or the connection
is in any other state, and Django's own check (``SELECT 1``) decides. A connection cut
without a word (a host gone from the network) fails at the request's first statement,
as it would have failed at ``SELECT 1``.

Django offers no other hook for this than the backend's ``is_usable``, and no library does
it: the override is these few lines. ``casino/settings.py`` names this backend for every
PostgreSQL database; everything else is Django's.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return super().is_usable()
        try:
            socket = select.poll()  # poll, not select: any descriptor number
            socket.register(connection.fileno(), select.POLLIN)
            waiting = socket.poll(0)  # without waiting
        except (OSError, ValueError, psycopg.Error):  # the socket is gone
            return False
        return not waiting or super().is_usable()

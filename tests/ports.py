"""Free ports on this machine, for the servers a test starts of its own (PgBouncer, the
drills' PostgreSQL clusters)."""

from __future__ import annotations

import socket
import time


def free_port() -> int:
    """A port nobody listens on now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_listening(port: int, seconds: float, alive=lambda: True) -> bool:
    """Whether something listens on ``port`` within ``seconds`` (False at once when
    ``alive()`` says the server has died)."""
    deadline = time.monotonic() + seconds
    while not listening(port):
        if not alive() or time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True

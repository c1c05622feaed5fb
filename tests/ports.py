"""Free ports on this machine, for the servers the suite, the drills, the load runs and
`make prod-check` start of their own (gunicorn, nginx, PgBouncer, PostgreSQL clusters).

A port is drawn below the kernel's ephemeral range (``ip_local_port_range``), never from
it: every outgoing connection on the machine (a worker to Redis, the app to PgBouncer) and
every other program's ``bind(0)`` take their ports from that range, so a port the kernel
handed out a minute ago may be someone's by the time our server binds it. Below the range
only a server bound on purpose can take it. ``python -m tests.ports N`` prints N distinct
free ports, one per line, for the shell scripts.
"""

from __future__ import annotations

import errno
import random
import socket
import sys
import time
from pathlib import Path

_NO_IPV6 = (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT)  # no IPv6 loopback here
_FLOOR = 10_000  # below: the well-known and registered ports servers are configured on


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default


def _free(port: int) -> bool:
    """Whether nothing is bound to ``port`` on the loopback, IPv4 or IPv6 (``localhost``
    may be either)."""
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            with socket.socket(family) as probe:
                probe.bind((host, port))
        except OSError as error:
            if family == socket.AF_INET6 and error.errno in _NO_IPV6:
                continue
            return False
    return True


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports nobody is bound to now, below the ephemeral range."""
    low = _ephemeral_low()
    chosen: list[int] = []
    for port in random.sample(range(_FLOOR, max(low, _FLOOR + 1_000)), k=500):
        if port not in chosen and _free(port):
            chosen.append(port)
            if len(chosen) == count:
                return chosen
    raise RuntimeError(f"no {count} free ports between {_FLOOR} and {low}")


def free_port() -> int:
    """A port nobody is bound to now, below the ephemeral range."""
    return free_ports(1)[0]


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


if __name__ == "__main__":
    print(*free_ports(int(sys.argv[1]) if len(sys.argv) > 1 else 1), sep="\n")

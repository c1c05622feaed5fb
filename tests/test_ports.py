"""The ports our own servers take (tests/ports.py): distinct, free, and never from the
range the kernel hands to outgoing connections, where another program may take them
between the pick and the bind."""

import socket
import subprocess
import sys

from tests import ports


def test_ports_are_distinct_free_and_below_the_ephemeral_range():
    picked = ports.free_ports(6)
    assert len(set(picked)) == 6
    assert all(10_000 <= port < ports._ephemeral_low() for port in picked)
    for port in picked:
        with socket.socket() as server:
            server.bind(("127.0.0.1", port))


def test_a_port_someone_listens_on_is_not_free():
    with socket.socket() as server:
        server.bind(("127.0.0.1", ports.free_port()))
        server.listen()
        taken = server.getsockname()[1]
        assert not ports._free(taken)
        assert ports.listening(taken)


def test_the_shell_scripts_read_them_a_line_each():
    printed = subprocess.run(
        [sys.executable, "-m", "tests.ports", "4"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(set(printed)) == 4 and all(line.isdigit() for line in printed)

"""Progress lines of long commands: the shared helper with a fake clock, then a command."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from casino.kernel.progress import Progress, duration


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_tenth_or_two_seconds_with_rate_and_time_left():
    clock, lines = Clock(), []
    progress = Progress(1000, label="simulate", unit="rounds", write=lines.append, clock=clock)
    # 50 rounds in 1 s: neither a tenth nor 2 s yet
    clock.now += 1
    progress.advance(50)
    assert lines == []
    # a tenth (100 rounds) in 2 s: 50/s, 900 left, 18 s
    clock.now += 1
    progress.advance(50)
    assert lines == ["simulate: 100/1,000 rounds (10%), 50.0/s, ETA 18 s"]
    # 2 s pass with only 10 more: a line anyway (110 in 4 s: 27.5/s, 890 left, 32 s)
    clock.now += 2
    progress.advance(10)
    assert lines[-1] == "simulate: 110/1,000 rounds (11%), 27.5/s, ETA 32 s"
    # the rest, then the final line
    clock.now += 36
    progress.advance(890)
    assert len(lines) == 2  # done: only the final line says so
    progress.finish()
    assert lines[-1] == "simulate: 1,000/1,000 rounds (100%), 25.0/s, in 40 s"
    assert duration(125) == "2 min 05 s" and duration(3720) == "1 h 02 min"


@pytest.mark.django_db
def test_simulate_writes_progress_to_stderr_and_nothing_at_verbosity_0():
    err = io.StringIO()
    call_command(
        "simulate",
        "--rounds",
        "10",
        "--tables",
        "1",
        "--via",
        "services",
        stderr=err,
        stdout=io.StringIO(),
    )
    lines = err.getvalue().splitlines()
    pattern = r"simulate: (\d+)/10 rounds \((\d+)%\), [\d.,]+/s, (ETA .*|in .*)"
    assert len(lines) >= 2 and all(re.fullmatch(pattern, line) for line in lines), lines
    assert lines[0].startswith("simulate: 1/10 rounds (10%)")
    assert re.fullmatch(r"simulate: 10/10 rounds \(100%\), [\d.,]+/s, in \d+ s", lines[-1])

    quiet = io.StringIO()
    call_command("audit_ledger", "--verbosity", "0", stderr=quiet, stdout=io.StringIO())
    assert quiet.getvalue() == ""
    loud = io.StringIO()
    call_command("audit_ledger", stderr=loud, stdout=io.StringIO())
    assert loud.getvalue().splitlines()[-1].startswith("audit_ledger: 6/6 checks (100%)")

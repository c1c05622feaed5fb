"""Two checkouts side by side: a floor measurement run in each in turns, the medians.

The machine is shared, so a figure measured alone says little: this runs the same
measurement (a module of ``loadtest``, with its arguments) in the checkout ``--old`` (an
earlier commit unpacked with this checkout's ``.venv`` linked and these measurement
modules copied in) and in this checkout, alternately ``--turns`` times, each in its own
database prefix, and prints each JSON figure's median per checkout and their ratio, then
each turn's (before / after).

    git archive <commit> | tar -x -C /tmp/floor-old && ln -s $PWD/.venv /tmp/floor-old/
    cp loadtest/{common,http,floor,floor_setup,floor_model,floor_profile}.py \\
        /tmp/floor-old/loadtest/
    .venv/bin/python -m loadtest.floor_compare --old /tmp/floor-old --turns 3 -- \\
        loadtest.floor_profile --repeat 100 --kinds hand,preview,stakes,floor
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from loadtest.common import ROOT, emit


def measured(checkout: Path, prefix: str, command: list[str]) -> dict[str, float]:
    """Run ``python -m <command>`` in ``checkout``; its JSON figures by name."""
    env = {
        **os.environ,
        "LOADTEST_DB_PREFIX": prefix,
        "DJANGO_SETTINGS_MODULE": "loadtest.settings",
    }
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", *command],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    figures = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            figures[record["figure"]] = record["value"]
    if done.returncode:
        print(done.stdout[-2000:], done.stderr[-2000:])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--old", type=Path, required=True, help="the earlier checkout")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = [part for part in options.command if part != "--"]
    found: dict[str, dict[str, list[float]]] = {"old": defaultdict(list), "new": defaultdict(list)}
    for turn in range(options.turns):
        for label, checkout in (("old", options.old), ("new", ROOT)):
            for name, value in measured(checkout, f"cmp{label}", command).items():
                found[label][name].append(value)
            print(f"turn {turn + 1}: {label} measured; load average {os.getloadavg()[0]:.2f}")
    print(f"\nmedians of {options.turns} turns ({' '.join(command)}):")
    for name in sorted(found["new"]):
        old = statistics.median(found["old"].get(name, [0.0]))
        new = statistics.median(found["new"][name])
        ratio = old / new if new else 0.0
        turns = " / ".join(
            f"{found[label].get(name, [0.0])}".replace(" ", "") for label in ("old", "new")
        )
        print(f"  {name:48s} before {old:9.2f}  after {new:9.2f}  ({ratio:.1f}x)  {turns}")
        emit("floor-compare", f"{name}_before", old, "")
        emit("floor-compare", f"{name}_after", new, "")


if __name__ == "__main__":
    main()

"""A web worker's cyclic collector once the app is loaded (``casino.wsgi``): what the app
built is frozen out of its sight and the oldest generation is walked only rarely, so no
request waits for a full collection of every object the worker holds."""

from __future__ import annotations

import subprocess
import sys
from ast import literal_eval

from tests.casino.test_settings import ROOT

LOADED = (
    "import gc, time;"
    "import casino.wsgi;"
    "print(gc.get_threshold() == casino.wsgi.COLLECTOR_THRESHOLDS, gc.get_threshold());"
    "print(gc.get_freeze_count());"
    "started = time.perf_counter(); gc.collect(); print(time.perf_counter() - started)"
)


def test_the_loaded_app_is_frozen_and_the_oldest_generation_walked_rarely() -> None:
    # A process of its own: this one's collector stays as pytest set it.
    shown = subprocess.run(
        [sys.executable, "-c", LOADED], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0, shown.stderr
    thresholds, frozen, full_collection = shown.stdout.split("\n")[:3]
    same, set_to = thresholds.split(" ", 1)
    assert same == "True"
    assert literal_eval(set_to)[2] >= 1000
    # Django, the settings and the apps' modules: tens of thousands of objects, frozen.
    assert int(frozen) > 50_000
    # A full collection then walks only what was made after: a few milliseconds, where the
    # unfrozen app took 90 ms or more on the machine these were measured on.
    assert float(full_collection) < 0.05

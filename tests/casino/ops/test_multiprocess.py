"""Several processes' settles summed in one scrape: prometheus-client's multiprocess mode,
as gunicorn's workers run with ``PROMETHEUS_MULTIPROC_DIR`` (docs/OPERATIONS.md)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.casino.test_settings import ROOT

OBSERVE = "from casino.kernel.metrics import SETTLE_SECONDS; SETTLE_SECONDS.observe(0.03)"
SCRAPE = (
    "from prometheus_client import generate_latest;"
    "from casino.kernel.metrics import scrape_registry;"
    "print(generate_latest(scrape_registry()).decode())"
)


def python(code: str, folder: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_scrape_sums_every_processs_settles(tmp_path):
    for _worker in range(3):
        python(OBSERVE, str(tmp_path))
    scraped = python(SCRAPE, str(tmp_path))
    assert "casino_settle_seconds_count 3.0" in scraped
    assert 'casino_settle_seconds_bucket{le="0.05"} 3.0' in scraped
    assert 'casino_settle_seconds_bucket{le="0.025"} 0.0' in scraped

"""`make run`'s database is SQLite: every migration passes a fresh file (PostgreSQL-only steps
included), with no secret set, as the quick start runs; then a round is dealt, dealt again by
its key and settled there.

The suite runs on PostgreSQL; the statements a round builds once (``casino.compiled``) are
built on whichever database the process has, so this runs the round's services in a process
of their own on a fresh SQLite file, as `make run` does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ROUND = """
from decimal import Decimal as D
from django.core.management import call_command
from casino.games import BoxInput
from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.settlement import round_settle
from casino.floor.services.rounds import round_create

call_command("demo", verbosity=0)
session = TableSession.objects.filter(status="open", table__game="niuniu").first()
dealer = session.dealer or session.opened_by
boxes = [BoxInput(position=1, cards="KS QS 5H 4H TC", stakes={"single": D("10000")})]
dealt, _ = round_create(
    session=session, user=dealer, dealer_cards="JS QH JD AC 7H", boxes=boxes, create_key="k1"
)
again, _ = round_create(
    session=session, user=dealer, dealer_cards="JS QH JD AC 7H", boxes=boxes, create_key="k1"
)
assert again.pk == dealt.pk, (again.pk, dealt.pk)
settled, result = round_settle(round_=Round(pk=dealt.pk), user=dealer, key="s1")
assert settled.status == RoundStatus.SETTLED
print("settled", result.house_net)
"""


#: What the suite's environment sets and the quick start does not (`make run` sets DEBUG only;
#: its one database is the SQLite file, the replica's reads included).
NOT_IN_THE_QUICK_START = (
    "TESTING",
    "REPLICA_DATABASE_URL",
    "SECRET_KEY",
    "ALLOW_INSECURE_SECRET_KEY",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


@pytest.mark.slow
def test_a_round_is_dealt_and_settled_on_sqlite(tmp_path):
    database = tmp_path / "quick.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in NOT_IN_THE_QUICK_START}
    env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{database}", CELERY_BROKER_URL="")
    manage = [sys.executable, str(ROOT / "manage.py")]
    migrated = subprocess.run(
        [*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    assert database.stat().st_size > 0
    dealt = subprocess.run(
        [*manage, "shell", "-c", ROUND], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert dealt.returncode == 0, dealt.stderr[-3000:]
    assert "settled -10000.00" in dealt.stdout

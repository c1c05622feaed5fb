"""The console's live partials on PostgreSQL: server time of what a dealer waits for.

- ``evaluate``: the hand partial a card field asks for as the dealer types (read the cards,
  check them against the other hands, evaluate, render the 3+2 split);
- ``preview``: the settlement preview of a full table (five boxes with Single, Double and
  Super, and the dealer), in payment order with the table's totals;
- ``confirm``: recording and settling the previewed round (for reference; no target).

Each request goes through Django's test ``Client`` (middleware, session, login, template),
so the figure is the server's time for the answer, without the network. Runs against its
own database (``casino_bench_console``, or ``{prefix}_bench_console`` with
``LOADTEST_DB_PREFIX``, on the local PostgreSQL unless ``BENCH_DATABASE_URL`` says
otherwise), created and migrated on each run.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import database_url, django_on_fresh_database, emitter  # noqa: E402 (after the path)

emit = emitter("console")

DATABASE_URL = database_url("bench_console")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "300"))
WARMUP = 30
TARGET_MS = 30
HX = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"


def timed(call, count: int) -> list[float]:
    times = []
    for n in range(count):
        start = time.perf_counter()
        response = call(n)
        times.append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            raise SystemExit(
                f"unexpected answer {response.status_code}: {response.content[:500]!r}"
            )
    return times


def report(name: str, times: list[float], target: float | None) -> None:
    times = sorted(times)
    median = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    aim = f" (target <= {target} ms)" if target else ""
    print(f"  {name}: median {median:.2f} ms, p95 {p95:.2f} ms over {len(times)} requests{aim}")
    emit(f"{name}_partial_median_ms", round(median, 2), "ms", target)
    emit(f"{name}_partial_p95_ms", round(p95, 2), "ms")


def main() -> None:
    django_on_fresh_database(DATABASE_URL)

    from django.test import Client
    from django.urls import reverse

    from casino.floor.console.selectors import screen_for
    from casino.floor.services.sessions import session_open
    from casino.kernel.cards import DECK, format_cards
    from casino.staff.roles import DEALER, SUPERVISOR
    from casino.venues.models import Venue
    from niuniu.console import forms
    from tests.factories import niuniu_table, staff

    venue = Venue.objects.create(
        code="bench",
        name="Bench",
        currency="VND",
        rounding_unit=Decimal("1000"),
        timezone="Asia/Ho_Chi_Minh",
        language="vi",
    )
    table = niuniu_table(venue)
    dealer = staff("bench-dealer", DEALER, venue)
    supervisor = staff("bench-supervisor", SUPERVISOR, venue)
    session = session_open(
        table=table,
        counted_by=dealer,
        confirmed_by=supervisor,
        opening_chips={"1000000": 100},
    )
    screen = screen_for(session=session)
    client = Client()
    client.force_login(dealer)
    rng = random.Random(7)

    def deal() -> list[str]:
        deck = list(DECK)
        rng.shuffle(deck)
        return [format_cards(deck[5 * n : 5 * n + 5]) for n in range(6)]

    hand_url = reverse("console:hand", args=[session.pk])

    def evaluate(_n: int):
        hands = deal()
        params = {"box": "3", **{f"box-{p}-cards": hands[p] for p in range(1, 6)}}
        params["dealer-cards"] = hands[0]
        return client.get(hand_url, params, **HX)

    def round_data(key: str) -> dict[str, str]:
        hands = deal()
        data = {"key": key, "dealer-cards": hands[0]}
        for position in range(1, 6):
            data[f"box-{position}-cards"] = hands[position].lower()
            data[f"box-{position}-single"] = f"{rng.randint(1, 50) * 10},000"
            data[f"box-{position}-double"] = f"{rng.randint(1, 50) * 10},000"
            data[f"box-{position}-super"] = f"{rng.randint(1, 20) * 10},000"
        return data

    preview_url = reverse("console:preview", args=[session.pk])
    confirm_url = reverse("console:confirm", args=[session.pk])

    def post(url: str, data: dict[str, str]):
        # as htmx sends a form: urlencoded, not the test client's default multipart
        return client.post(url, urlencode(data), content_type=FORM, **HX)

    def preview(n: int):
        return post(preview_url, round_data(f"bench-preview-{n:08d}"))

    confirms = [round_data(f"bench-confirm-{n:08d}") for n in range(REQUESTS // 3 + WARMUP)]
    for data in confirms:
        data["digest"] = forms.read_round(data, screen, players={}).digest()

    def confirm(n: int):
        return post(confirm_url, confirms[n])

    timed(evaluate, WARMUP)
    timed(preview, WARMUP)
    print(f"console partials on PostgreSQL, {REQUESTS} requests each (Django test client):")
    report("evaluate", timed(evaluate, REQUESTS), TARGET_MS)
    report("preview", timed(preview, REQUESTS), TARGET_MS)
    confirm_times = timed(confirm, len(confirms))[WARMUP:]
    median = statistics.median(confirm_times)
    print(f"  confirm (deal + settle 5 boxes): median {median:.2f} ms over {len(confirm_times)}")
    emit("confirm_median_ms", round(median, 2), "ms")


if __name__ == "__main__":
    main()

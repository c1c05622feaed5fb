"""The floor load model (``loadtest.floor_model``) plays what it says it plays."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from types import SimpleNamespace
from typing import Any

from django.urls import reverse

from casino.floor.console.terminal import BEAT_SECONDS
from casino.floor.services.rounds import MAX_KEY_LENGTH
from loadtest.floor import niced, unit_nice
from loadtest.floor_model import Clock, dealer, page_beat
from loadtest.floor_setup import Desk

PREVIEW = SimpleNamespace(
    text='name="digest" value="d" name="rules_version" value="1" name="round_number" value="2"'
)


class Recorder:
    """A dealer's person answering every request at once, the Confirms' forms kept."""

    def __init__(self) -> None:
        self.confirmed: list[dict[str, str]] = []
        self.kinds: list[str] = []
        self.paths: dict[str, set[str]] = {}

    async def call(self, kind: str, path: str, **request: Any) -> Any:
        self.kinds.append(kind)
        self.paths.setdefault(kind, set()).add(path)
        if kind == "confirm":
            self.confirmed.append(request["form"])
        return PREVIEW if kind == "preview" else SimpleNamespace(text="")


def a_step(desk: Desk, pool: list[dict[str, str]]) -> list[dict[str, str]]:
    """The Confirms a dealer sends in a step of 10 minutes, played at once."""
    person = Recorder()
    clock = Clock(started=time.monotonic() - 3600, seconds=600)
    asyncio.run(dealer(person, desk, pool, clock))  # type: ignore[arg-type]
    return person.confirmed


def unkeyed(forms: list[dict[str, str]]) -> list[dict[str, str]]:
    return [{name: value for name, value in form.items() if name != "key"} for form in forms]


def cards_of(form: dict[str, str]) -> tuple[str, ...]:
    return tuple(form[name] for name in sorted(form) if name.endswith("cards"))


def test_each_step_deals_rounds_of_its_own_under_keys_of_its_own():
    """A key sent in an earlier step (or the warm-up) would be answered with the round it
    recorded, a repeat, not a round dealt: every step's keys are new. A deal seen again is
    an integrity alert a floor does not make: every round's cards are its own, five a hand
    from one deck; the players and stakes are the pool's, the same in every step."""
    desk = Desk(table_id=1, session_id=7, pit=1, cookie="c", supervisor="s")
    pool = [
        {"box-1-cards": f"AS 2S 3S 4S {n}S", "box-1-single": f"{n}00000", "dealer-cards": "x"}
        for n in range(5, 9)
    ]
    first, second = a_step(desk, pool), a_step(desk, pool)
    assert len(first) == len(second) >= 9  # a round about every minute
    stakes = [[form["box-1-single"] for form in step] for step in (first, second)]
    assert stakes[0] == stakes[1]  # the same players and stakes
    assert len(set(stakes[0])) > 1  # drawn from the pool
    deals = [cards_of(form) for form in first + second]
    assert len(set(deals)) == len(deals)  # no deal twice
    for deal in deals:
        cards = " ".join(deal).split()
        assert len(cards) == 10 == len(set(cards))  # two hands of five, one deck
        assert all(len(card) == 2 and card[1] in "SHDC" for card in cards)
    keys = [form["key"] for form in first + second]
    assert len(set(keys)) == len(keys)
    assert all(0 < len(key) <= MAX_KEY_LENGTH for key in keys)
    replayed = Desk(table_id=1, session_id=7, pit=1, cookie="c", supervisor="s")
    assert unkeyed(a_step(replayed, pool)) == unkeyed(first)  # a run's rounds, run again


def test_the_worker_runs_at_the_niceness_of_productions_unit(tmp_path: Any) -> None:
    """The run's Celery worker shares the CPU with gunicorn as production's does: the
    niceness is read from deploy/casino-worker.service (10: below the web tier), a unit
    that sets none runs it at 0, and the command's prefix gives the niceness asked for."""
    assert unit_nice() == 10
    plain = tmp_path / "plain.service"
    plain.write_text("[Service]\nExecStart=/bin/true\n")
    assert unit_nice(plain) == 0
    unit = tmp_path / "niced.service"
    unit.write_text("[Service]\nExecStart=/bin/true\nNice=7\n")
    assert unit_nice(unit) == 7
    shown = subprocess.run(
        [*niced(unit_nice(unit)), sys.executable, "-c", "import os; print(os.nice(0))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(shown.stdout) == min(19, os.nice(0) + 7)


def test_the_dealers_page_beats_as_the_dealer_types():
    """A poll is not use and the console locks after its idle minutes: the dealer's page
    reports use every ``BEAT_SECONDS`` (30 s) of typing (static/js/lock.js, reading the
    server's figure, as the model does), twice in a round's 30 cards."""
    person = Recorder()
    clock = Clock(started=time.monotonic() - 3600, seconds=600)
    desk = Desk(table_id=1, session_id=7, pit=1, cookie="c", supervisor="s")
    pool = [{"box-1-cards": "AS 2S 3S 4S 5S", "box-1-single": "100000", "dealer-cards": "x"}]
    asyncio.run(dealer(person, desk, pool, clock))  # type: ignore[arg-type]
    rounds = person.kinds.count("confirm")
    assert rounds >= 9
    assert abs(person.kinds.count("beat") - 2 * rounds) <= 2  # a round cut by the step's ends
    assert person.paths["beat"] == {reverse("console:active")}
    assert page_beat()[0] == BEAT_SECONDS
    assert abs(person.kinds.count("hand") - 6 * rounds) <= 6  # one a whole hand

"""The people of the floor run, each at human pace on the console's real screens.

Every person is a coroutine that waits for the times of their actions (arrivals scheduled
on a clock, never a closed loop), so a slow answer does not slow the floor down: the load
is what the floor asks, whatever the server answers. Each request goes through
``loadtest.http.LeanClient`` with the person's session cookie and the CSRF pair, as htmx
sends it (``HX-Request``), and is timed under its kind.

- a dealer (``dealer``): a round about every minute. The round screen's form keeps the
  last round's players and stakes, so the dealer types the 30 cards of the six hands,
  one about every 1.2 s (each round's cards dealt afresh from a shuffled deck, its players
  and stakes one of the run's pool of rounds: a floor deals no round twice, and a deal
  seen again is one of the integrity run's alerts). The browser draws a hand still short
  of five cards itself, and the fifth card asks the ``hand`` partial (with every hand's
  cards so far), as the round screen does (``hand_every`` ``WHOLE_HAND``; 1 asks it on
  every card, as the screen did before). The dealer types no card wrong. The dealer
  changes a stake on half the rounds (``stakes``), types a member on one in five
  (``player``), previews (``preview``) and confirms (``confirm``) with the preview's
  digest. One round in ten starts with the whole screen (``screen``: a reload, a break).
  One round in a hundred is voided (the history, then the void with the supervisor's
  password); a fill about every two hours per table (the slips screen, then the request);
- a supervisor per pit (``supervisor``): the floor view's poll every 5 s (``floor``);
- the cashier: the cage's lists every 15 s (``cage``), as the page polls them;
- the page's beat (``beat``, ``console:active``): a poll is not use, so the console locks
  after its idle minutes unless its page reports use; the dealer's page beats as the
  dealer types (every 30 s of typing), the supervisor's and the cashier's as each touches
  the screen, about once a minute;
- two counters: the count's home every 30 s (``count``);
- a manager: a report or an export every 30 s, in turn (``report``, ``export``), and an
  integrity run of the day asked for every 2 min (``integrity``), which the Celery worker
  runs.

A step starts with every dealer somewhere in a round (a random phase): what fell before
the start is skipped, so the step measures the floor in its steady state from its start.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from loadtest.common import Timings
from loadtest.floor_setup import PASSWORD, BigFloor, Desk
from loadtest.http import Answer, LeanClient

ROUND_SECONDS = 60
CARD_SECONDS = 1.2
FLOOR_POLL_SECONDS = 5
CAGE_POLL_SECONDS = 15
COUNT_POLL_SECONDS = 30
REPORT_SECONDS = 30
INTEGRITY_SECONDS = 120
#: A person watching a polling screen touches it once a minute (the page then beats:
#: ``page_beat``). Polls are not use: a screen only polled locks after the console's idle
#: minutes.
TOUCH_SECONDS = 60
VOID_RATE = 1 / 100
SLIP_RATE = 1 / 120
STAKE_RATE, PLAYER_RATE, SCREEN_RATE = 0.5, 0.2, 0.1
#: The round screen asks the hand partial at every fifth card typed: once a hand is whole.
WHOLE_HAND = 5
#: The fixed CSRF pair every person sends (a cookie Django accepts and the same header).
CSRF = "floorload" * 3 + "abcde"
POSITIONS = ("1", "2", "3", "4", "5", "dealer")
#: Each position's cards field on the round form, in the order the dealer types them.
HAND_FIELDS = tuple("dealer-cards" if p == "dealer" else f"box-{p}-cards" for p in POSITIONS)
#: The 52 cards as the round form types them.
DECK = tuple(rank + suit for suit in "SHDC" for rank in "23456789TJQKA")


@dataclass
class Clock:
    """The step's clock: ``started`` (monotonic) and how long it runs."""

    started: float
    seconds: float

    async def until(self, at: float) -> bool:
        """Wait until ``at`` seconds into the step; False when that is past its end."""
        if at >= self.seconds:
            return False
        await asyncio.sleep(max(0.0, self.started + at - time.monotonic()))
        return True


class Person:
    """One console user: their cookie, the client and where their timings go."""

    def __init__(self, client: LeanClient, cookie: str, timings: Timings, names: Any) -> None:
        self.client = client
        self.timings = timings
        self.headers = {
            "Cookie": f"{names.session}={cookie}; {names.csrf}={CSRF}",
            "X-CSRFToken": CSRF,
            "Accept-Language": "en",
        }

    async def call(
        self,
        kind: str,
        path: str,
        *,
        query: dict[str, str] | None = None,
        form: dict[str, str] | None = None,
        htmx: bool = True,
        ok: Iterable[int] = (200,),
    ) -> Answer | None:
        headers = dict(self.headers)
        if htmx:
            headers["HX-Request"] = "true"
        if query:
            path = f"{path}?{urlencode(query)}"
        body = b""
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        method = "GET" if form is None else "POST"
        started = time.perf_counter()
        try:
            answer = await self.client.request(method, path, body=body, headers=headers)
        except Exception as error:  # a refused connection, a timeout: an error, go on
            self.timings.add(kind, (time.perf_counter() - started) * 1000, type(error).__name__)
            self.timings.error(f"{kind}: {error!r}")
            return None
        self.timings.add(kind, (time.perf_counter() - started) * 1000, answer.status_code)
        if answer.status_code not in ok:
            self.timings.error(f"{kind} {answer.status_code}: {answer.text[:200]}")
            return None
        return answer


@functools.cache
def page_beat() -> tuple[float, str]:
    """How often the console's page reports its use while its person works it, and where
    (``console:active``): the server's own figure, which the page reads too
    (``casino.floor.console.terminal``, static/js/lock.js). Read once Django is set up."""
    from django.urls import reverse

    from casino.floor.console.terminal import BEAT_SECONDS

    return BEAT_SECONDS, reverse("console:active")


def typed(form: dict[str, str], cards: int) -> dict[str, str]:
    """Every hand's cards field once ``cards`` cards of the round are typed (box 1 first)."""
    fields = {}
    for index, name in enumerate(HAND_FIELDS):
        shown = min(5, max(0, cards - 5 * index))
        fields[name] = " ".join(form.get(name, "").split()[:shown])
    return fields


def dealt_afresh(form: dict[str, str], desk: Desk) -> dict[str, str]:
    """``form`` with cards of its own: the hands it deals drawn from a shuffled deck, seeded
    by the table and its rounds so far (the same rounds on every run of the same steps)."""
    hands = [name for name in HAND_FIELDS if form.get(name)]
    cards = random.Random(f"{desk.session_id}-{desk.dealt}").sample(DECK, 5 * len(hands))
    return {**form, **{name: " ".join(cards[5 * n : 5 * n + 5]) for n, name in enumerate(hands)}}


def field(answer: Answer | None, name: str) -> str:
    """A hidden field's value in ``answer`` (the preview's digest...), or ''."""
    if answer is None:
        return ""
    found = re.search(rf'name="{name}" value="([^"]*)"', answer.text)
    return found.group(1) if found else ""


async def dealer(
    person: Person,
    desk: Desk,
    pool: list[dict[str, str]],
    clock: Clock,
    hand_every: int = WHOLE_HAND,
) -> None:
    """Rounds about every minute from a random phase, until the step ends. Each step plays
    the same players and stakes at a table (its random numbers seeded by the session),
    each round with cards of its own (``dealt_afresh``) and under a key of its own: a key
    of an earlier step (or of the warm-up) would be a Confirm sent again, answered with
    the round it recorded, not a round dealt."""
    rng = random.Random(desk.session_id)
    period = ROUND_SECONDS * rng.uniform(0.9, 1.1)
    start = -rng.uniform(0, period)
    step = f"{desk.session_id}-{time.monotonic_ns():x}"
    while start < clock.seconds:
        desk.dealt += 1
        form = {**dealt_afresh(rng.choice(pool), desk), "key": f"{step}-{rng.getrandbits(64):x}"}
        if not await round_played(person, desk, form, start, rng, clock, hand_every):
            return
        start += period


async def round_played(
    person: Person,
    desk: Desk,
    form: dict[str, str],
    start: float,
    rng: random.Random,
    clock: Clock,
    hand_every: int = WHOLE_HAND,
) -> bool:
    """One round from ``start`` (seconds into the step); False once the step has ended.
    The ``hand`` partial is asked at every ``hand_every``-th card typed."""
    base = f"/console/sessions/{desk.session_id}"
    stakes = {k: v for k, v in form.items() if k.count("-") == 2 and not k.endswith("-cards")}
    if rng.random() < SCREEN_RATE and start >= 0:
        if not await clock.until(start):
            return False
        await person.call("screen", f"{base}/", htmx=False)
    if rng.random() < STAKE_RATE and start + 1 >= 0:
        if not await clock.until(start + 1):
            return False
        await person.call("stakes", f"{base}/stakes/", query={**stakes, "box": "1"})
    if rng.random() < PLAYER_RATE and start + 1.5 >= 0:
        if not await clock.until(start + 1.5):
            return False
        member = form.get("box-2-member", "F00001")
        await person.call("player", f"{base}/player/", query={"box-2-member": member, "box": "2"})
    beat_seconds, beat_path = page_beat()
    for card in range(1, 31):
        at = start + 2 + card * CARD_SECONDS
        beats = (card - 1) % round(beat_seconds / CARD_SECONDS) == 0  # the page's beat
        if at < 0 or (card % hand_every and not beats):
            continue
        if not await clock.until(at):
            return False
        if beats:
            await person.call("beat", beat_path, form={}, ok=(204,))
        if card % hand_every:
            continue
        box = POSITIONS[(card - 1) // 5]
        await person.call("hand", f"{base}/hand/", query={**typed(form, card), "box": box})
    at = start + 2 + 31 * CARD_SECONDS + 2
    if at < 0:
        return True
    if not await clock.until(at):
        return False
    preview = await person.call("preview", f"{base}/preview/", form=form)
    if preview is None or not await clock.until(at + 3):
        return preview is not None
    confirmed = {
        **form,
        "digest": field(preview, "digest"),
        "rules_version": field(preview, "rules_version"),
        "round_number": field(preview, "round_number"),
    }
    if await person.call("confirm", f"{base}/confirm/", form=confirmed) is None:
        return True
    if rng.random() < VOID_RATE and await clock.until(at + 6):
        await voided(person, base, desk)
    if rng.random() < SLIP_RATE and await clock.until(at + 8):
        await slip_requested(person, base)
    return True


async def voided(person: Person, base: str, desk: Desk) -> None:
    """The history, then the last round voided with the pit's supervisor's password."""
    history = await person.call("history", f"{base}/history/")
    found = re.search(rf"{base}/rounds/(\d+)/void/", history.text if history else "")
    if found is None:
        return
    form = {"reason": "misdeal", "supervisor": desk.supervisor, "password": PASSWORD}
    await person.call("void", f"{base}/rounds/{found.group(1)}/void/", form=form)


async def slip_requested(person: Person, base: str) -> None:
    """The slips screen, then a fill of ten 1,000,000 chips."""
    screen = await person.call("slips", f"{base}/slips/")
    seen = field(screen, "seen")
    if seen:
        form = {"kind": "fill", "chips-1000000": "10", "seen": seen}
        await person.call("slip", f"{base}/slips/", form=form)


async def every(
    person: Person,
    kind: str,
    path: str,
    seconds: float,
    clock: Clock,
    touched: bool = False,
    **call: Any,
) -> None:
    """``path`` every ``seconds`` from a random phase (a screen polling, a person looking);
    ``touched``: the person touches the screen about every ``TOUCH_SECONDS`` too, and the
    page beats."""
    at = random.uniform(0, seconds)
    touch = random.uniform(0, TOUCH_SECONDS)
    _seconds, beat_path = page_beat()
    while await clock.until(at):
        if touched and at >= touch:
            await person.call("beat", beat_path, form={}, ok=(204,))
            touch += TOUCH_SECONDS
        await person.call(kind, path, **call)
        at += seconds


async def manager(person: Person, floor: BigFloor, clock: Clock) -> None:
    """A report or an export every 30 s in turn; an integrity run every 2 min."""
    code, venue = floor.venue_code, floor.venue_id
    looks = [
        ("report", "/reports/", {"venue": code}),
        ("export", f"/console/cage/{venue}/cash-log.csv", None),
        ("report", "/reports/integrity/", {"venue": code}),
        ("export", "/reports/periods/csv/", {"venue": code}),
    ]
    at, turn, asked = random.uniform(0, REPORT_SECONDS), 0, -1
    while await clock.until(at):
        if at // INTEGRITY_SECONDS != asked:
            asked = at // INTEGRITY_SECONDS
            run = {"venue": code}
            await person.call("integrity", "/reports/integrity/run/", form=run, ok=(302, 303))
        kind, path, query = looks[turn % len(looks)]
        await person.call(kind, path, query=query, htmx=False)
        turn += 1
        at += REPORT_SECONDS


def people(
    floor: BigFloor,
    tables: int,
    client: LeanClient,
    timings: Timings,
    names: Any,
    hand_every: int = WHOLE_HAND,
):
    """Everyone's coroutine for a step with the first ``tables`` tables, and the clock
    (the dealers ask the ``hand`` partial at every ``hand_every``-th card)."""
    pool = floor.forms
    desks = floor.desks[:tables]
    pits = sorted({desk.pit for desk in desks})
    clock = Clock(time.monotonic(), 0.0)

    def person(cookie: str) -> Person:
        return Person(client, cookie, timings, names)

    tasks = [dealer(person(desk.cookie), desk, pool, clock, hand_every) for desk in desks]
    for index in pits:
        pit_id, _supervisor, cookie = floor.pits[index]
        tasks.append(
            every(
                person(cookie),
                "floor",
                f"/console/pits/{pit_id}/",
                FLOOR_POLL_SECONDS,
                clock,
                touched=True,
            )
        )
    cage = f"/console/cage/{floor.venue_id}/"
    tasks.append(
        every(
            person(floor.cashier),
            "cage",
            cage,
            CAGE_POLL_SECONDS,
            clock,
            touched=True,
            query={"list": "1"},
        )
    )
    for cookie in floor.counters:
        tasks.append(
            every(person(cookie), "count", "/console/count/", COUNT_POLL_SECONDS, clock, htmx=False)
        )
    tasks.append(manager(person(floor.manager), floor, clock))
    return tasks, clock

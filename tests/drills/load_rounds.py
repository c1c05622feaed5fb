"""A dealer at full speed, as a process of its own: Niu Niu rounds dealt and settled through
the services, one after another, through whatever the database does meanwhile.

``seed`` makes a floor (a venue, ``--venue``, a Niu Niu table, its dealer and supervisor,
with ``--member`` a member ``M-1`` too, with ``--passport`` their passport) and opens a
session at the table; it prints ``{"session": id, "dealer": id}``. ``self-exclude`` records
member ``M-1``'s self-exclusion; ``member-round`` deals one round with them in box 1 and
prints whether it was dealt or refused, and why; ``group-data`` sets what a venue sends the
group of its members, as a superuser (the group drill's). ``run`` deals and settles
rounds in that session until ``--seconds`` have passed or ``--stop-file`` exists, and writes
one JSON line per round to ``--out``: when (``at``, the epoch's seconds), ``ok`` or the
database error's class (``error``), the round's ``create_key`` and id, and how long its
settle took (``settle_ms``). A round is ``ok`` once its settle has committed. With
``--alternate-commit`` the rounds commit in turn with ``synchronous_commit`` ``local`` (not
waiting for a synchronous standby) and ``on`` (waiting for its flush), each line saying
which (``commit``): what the wait costs a settle, both under the same load at once.

Each round is handled as Django handles a request: unusable connections are closed before
and after it (``close_old_connections``, with ``CONN_HEALTH_CHECKS`` a kept connection is
checked before use), so after a database error the next round connects again, through
``DATABASE_URL``'s hosts, to whichever takes writes. The process is never restarted.

    python -m tests.drills.load_rounds seed
    python -m tests.drills.load_rounds run --session 1 --dealer 2 --out rounds.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django  # noqa: E402 (after the path)

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import DatabaseError, close_old_connections, connection  # noqa: E402
from django.utils import translation  # noqa: E402

from casino.floor.models import TableSession  # noqa: E402
from casino.floor.services.rounds import round_create_written  # noqa: E402
from casino.floor.services.settlement import round_settle_written  # noqa: E402
from casino.games import BoxInput  # noqa: E402
from casino.kernel.errors import ServiceError  # noqa: E402
from casino.kernel.timezones import venue_today  # noqa: E402
from casino.players.models import Player, PlayerBarring  # noqa: E402
from casino.players.services import (  # noqa: E402
    player_bar,
    player_create,
    player_identity_update,
)
from casino.staff.roles import MANAGER  # noqa: E402
from casino.venues.models import Venue  # noqa: E402
from casino.venues.services.venues import venue_update  # noqa: E402
from niuniu.demo import table_stream  # noqa: E402
from tests.factories import macau_session, staff  # noqa: E402

#: The member's stake in ``member-round``.
STAKE = Decimal(100)
#: Player boxes a round has: the largest Niu Niu round, as bench/settle.py times it.
BOXES = 5
#: ``synchronous_commit`` of the rounds in turn, with ``--alternate-commit``.
COMMITS = ("local", "on")


def seed(venue: str = "drill", member: str = "", passport: str = "") -> dict[str, int]:
    """A floor (venue ``venue``) with one Niu Niu table open: its session and dealer; with
    ``member``, a member of that name (``M-1``, with a Vietnamese ``passport`` if given)
    registered by the venue's manager too."""
    session, dealer = macau_session(venue, f"Drill {venue}")
    if member:
        table_venue = session.table.venue
        manager = staff(f"{venue}-manager", MANAGER, table_venue)
        player = player_create(
            venue=table_venue, user=manager, membership_number="M-1", name=member
        )
        if passport:
            player_identity_update(
                player=player,
                user=manager,
                id_document_type="Passport",
                id_document_number=passport,
                id_document_country="VN",
            )
    return {"session": session.pk, "dealer": dealer.pk}


def self_exclude(venue: str) -> dict[str, int]:
    """Member ``M-1`` of ``venue`` self-excluded from today, by the venue's manager."""
    player = Player.objects.select_related("venue").get(venue__code=venue, membership_number="M-1")
    barring = player_bar(
        player=player,
        user=User.objects.get(username=f"{venue}-manager"),
        reason="asked at the cage",
        starts_on=venue_today(player.venue),
        kind=PlayerBarring.Kind.SELF_EXCLUSION,
    )
    return {"barring": barring.pk}


def group_data(venue: str, kind: str) -> dict[str, str]:
    """What venue ``venue`` sends the group of its members set to ``kind``, by a superuser
    (``venue_update``, audited)."""
    root = User.objects.filter(username="drill-root").first() or User.objects.create_superuser(
        "drill-root", password="drill-root-password"
    )
    done = venue_update(venue=Venue.objects.get(code=venue), user=root, group_player_data=kind)
    return {"venue": done.code, "group_player_data": done.group_player_data}


def member_round(session_id: int, dealer_id: int) -> dict[str, Any]:
    """One round dealt at the session with member ``M-1`` of its venue in box 1: dealt, or
    the refusal (``reason``, ``message`` in English)."""
    session = TableSession.objects.select_related("table").get(pk=session_id)
    member = Player.objects.get(venue_id=session.table.venue_id, membership_number="M-1")
    try:
        with translation.override("en"):
            dealt = round_create_written(
                session=session,
                user=User.objects.get(pk=dealer_id),
                dealer_cards="JS QH JD AC 7H",
                boxes=[BoxInput(1, "KS QS 5H 4H TC", {"single": STAKE}, player_id=member.pk)],
                create_key=f"member-{os.getpid()}",
            )
    except ServiceError as error:
        return {"ok": False, "reason": error.reason, "message": str(error.message)}
    return {"ok": True, "round": dealt.round.pk}


def play_round(
    session: TableSession, dealer: User, simulated: Any, key: str, commit: str | None
) -> dict[str, Any]:
    """Deal ``simulated`` and settle it, each in its transaction (committed with
    ``synchronous_commit`` ``commit``, if given): what happened, as a line."""
    line: dict[str, Any] = {"key": key, "round": None, "commit": commit}
    try:
        if commit:
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('synchronous_commit', %s, false)", [commit])
        dealt = round_create_written(
            session=session,
            user=dealer,
            dealer_cards=simulated.dealer_cards,
            boxes=simulated.boxes,
            create_key=key,
        )
        line["round"] = dealt.round.pk
        started = time.perf_counter()
        round_settle_written(round_=dealt.round, user=dealer, key=f"settle-{key}", dealt=dealt)
        line["settle_ms"] = round((time.perf_counter() - started) * 1000, 3)
        line["ok"] = True
    except DatabaseError as error:
        line["ok"] = False
        line["error"] = type(error).__name__
    line["at"] = time.time()
    return line


def run(options: argparse.Namespace) -> None:
    session = TableSession.objects.select_related("table").get(pk=options.session)
    dealer = User.objects.get(pk=options.dealer)
    stream = table_stream(session, random.Random(options.seed), boxes=BOXES, side_bet_rate=1.0)
    deadline = time.monotonic() + options.seconds
    stop = Path(options.stop_file) if options.stop_file else None
    with open(options.out, "a", buffering=1) as out:
        attempt = 0
        while time.monotonic() < deadline and not (stop and stop.exists()):
            if options.rounds and attempt >= options.rounds:
                break
            attempt += 1
            commit = COMMITS[attempt % 2] if options.alternate_commit else None
            close_old_connections()
            # The process's id in the key: two runs in one session never share a round.
            key = f"drill-{os.getpid()}-{attempt}"
            line = play_round(session, dealer, next(stream), key, commit)
            close_old_connections()
            out.write(json.dumps(line) + "\n")
            time.sleep(options.pause)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    seeder = commands.add_parser("seed", help="make the floor and open the table")
    seeder.add_argument("--venue", default="drill", help="the venue's code")
    seeder.add_argument("--member", default="", help="a member's name, registered too")
    seeder.add_argument("--passport", default="", help="the member's passport number")
    excluder = commands.add_parser("self-exclude", help="member M-1 self-excluded from today")
    excluder.add_argument("--venue", required=True, help="the venue's code")
    data = commands.add_parser("group-data", help="what a venue sends the group of its members")
    data.add_argument("--venue", required=True, help="the venue's code")
    data.add_argument("--as", dest="kind", required=True, choices=["pseudonymised", "identified"])
    member = commands.add_parser("member-round", help="a round with member M-1 in box 1")
    member.add_argument("--session", type=int, required=True)
    member.add_argument("--dealer", type=int, required=True)
    runner = commands.add_parser("run", help="deal and settle rounds")
    runner.add_argument("--session", type=int, required=True)
    runner.add_argument("--dealer", type=int, required=True)
    runner.add_argument("--out", required=True, help="a JSON line per round, appended")
    runner.add_argument("--seconds", type=float, default=60, help="stop after this long")
    runner.add_argument("--rounds", type=int, default=0, help="stop after this many (0: no)")
    runner.add_argument(
        "--alternate-commit",
        action="store_true",
        help="synchronous_commit local and on, in turn (the settle's cost of the wait)",
    )
    runner.add_argument("--stop-file", default="", help="stop once this file exists")
    runner.add_argument("--pause", type=float, default=0.05, help="seconds between rounds")
    runner.add_argument("--seed", type=int, default=1, help="the cards' random seed")
    options = parser.parse_args()
    if options.command == "seed":
        print(json.dumps(seed(options.venue, options.member, options.passport)), flush=True)
    elif options.command == "self-exclude":
        print(json.dumps(self_exclude(options.venue)), flush=True)
    elif options.command == "group-data":
        print(json.dumps(group_data(options.venue, options.kind)), flush=True)
    elif options.command == "member-round":
        print(json.dumps(member_round(options.session, options.dealer)), flush=True)
    else:
        run(options)


if __name__ == "__main__":
    main()

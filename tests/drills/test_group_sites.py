"""A group of sites (docs/OPERATIONS.md, "A group of sites"): two sites and the group's
reporting database, each a PostgreSQL cluster of its own on a free port. Each site is set up
(``manage.py site_setup``: its keys in its own range, its publication), deals and settles
Niu Niu rounds through the services, and the group subscribes to both (``manage.py
group_setup``). Then the group's database goes down, as a link does: both sites go on
settling, every round; when it is back, the group catches up with nothing lost or doubled
(per venue: the rounds, bets, ledger entries and their sums by account, the audit events
and the members, equal on both sides) and no member's name has left its site. Then a
member's self-exclusion at one site travels to the group and from it to the other site,
where the member with the same passport (the same group key) is refused their next round.
Last, one site's venue is identified (``Venue.group_player_data``): its member's name and
passport arrive at the group once the site is published again, the other site's still do
not; set back to pseudonymised, the group forgets them.
Between the two, the group's reports run on the group's database (tests/drills/
group_report.py): each venue's figures of the day equal the site's own, converted at the
rate the group approved.

The seconds the group took to catch up after its return are printed as a JSON figure line
(``pytest -s``); docs/OPERATIONS.md quotes them.
"""

from __future__ import annotations

import json
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from tests.drills.app import drill_program, manage, run_app
from tests.drills.clusters import LOGICAL, Cluster, wait_for

#: Rounds each site settles before the group subscribes, and while the group is down.
ROUNDS_BEFORE = 12
ROUNDS_WHILE_DOWN = 20
#: The most the group may take to catch up before the drill fails.
CATCH_UP_LIMIT = 60.0

#: Per venue (by code), what must be equal on the site and at the group: the rounds, bets,
#: ledger entries and their sum per account, the audit events and the members.
FIGURES = """
SELECT v.code,
  (SELECT count(*) FROM casino_round r JOIN casino_tablesession s ON s.id = r.session_id
     JOIN casino_table t ON t.id = s.table_id WHERE t.venue_id = v.id),
  (SELECT count(*) FROM casino_bet b JOIN casino_box x ON x.id = b.box_id
     JOIN casino_round r ON r.id = x.round_id JOIN casino_tablesession s ON s.id = r.session_id
     JOIN casino_table t ON t.id = s.table_id WHERE t.venue_id = v.id),
  (SELECT count(*) FROM casino_ledgerentry e WHERE e.venue_id = v.id),
  (SELECT coalesce(sum(amount), 0)::text FROM casino_ledgerentry e
     WHERE e.venue_id = v.id AND e.account = 'house'),
  (SELECT coalesce(sum(amount), 0)::text FROM casino_ledgerentry e
     WHERE e.venue_id = v.id AND e.account = 'player'),
  (SELECT count(*) FROM casino_auditevent a WHERE a.venue_id = v.id),
  (SELECT count(*) FROM casino_player p WHERE p.venue_id = v.id)
FROM casino_venue v ORDER BY v.code
"""


def figures(cluster: Cluster) -> list[tuple]:
    return cluster.sql(FIGURES, "casino")


#: The group's secret, the same at every site: one passport, one group key.
SECRET = {"GROUP_PSEUDONYM_KEY": "the group's secret"}
PASSPORT = "B1234567"
#: One pataca in US dollars, as the group approves it for the drill's day.
RATE = Decimal("0.125")


def site(
    clusters, group: Cluster, name: str, number: int, venue: str, member: str
) -> tuple[Cluster, dict]:
    """A site: its cluster (the back office migrated) started and set up as site
    ``number``, receiving the group's barrings, with a venue ``venue`` whose table is open
    and a member ``member`` (the same passport at every site)."""
    cluster = clusters(name, migrated=True, settings=LOGICAL)
    cluster.start()
    url = cluster.dsn("casino")
    manage(url, "site_setup", "--site", str(number), "--group-conninfo", group.dsn("casino"))
    seeding = ("seed", "--venue", venue, "--member", member, "--passport", PASSPORT)
    output = run_app(drill_program("load_rounds", *seeding), url, seconds=120, **SECRET)
    return cluster, json.loads(output.splitlines()[-1])


def play(cluster: Cluster, floor: dict, rounds: int, out: Path) -> list[dict]:
    """``rounds`` rounds dealt and settled at the site: the load's lines."""
    run_app(
        drill_program(
            "load_rounds",
            *("run", "--session", str(floor["session"]), "--dealer", str(floor["dealer"])),
            *("--out", str(out), "--rounds", str(rounds), "--pause", "0"),
        ),
        cluster.dsn("casino"),
        seconds=180,
    )
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.slow
def test_a_site_settles_while_the_group_is_down_and_the_group_catches_up(clusters, tmp_path):
    group = clusters("group", migrated=True, settings=LOGICAL)
    group.start()
    manage(group.dsn("casino"), "group_setup")  # ready to send the sites its barrings
    hanoi, hanoi_floor = site(clusters, group, "site_vn", 1, "vn-hanoi", "Nguyễn Văn An")
    seoul, seoul_floor = site(clusters, group, "site_kr", 2, "kr-seoul", "Nguyen Van An")
    # Each site's keys are its own: the same table's next key differs by a site's range.
    keys = [c.sql("SELECT max(id) FROM casino_round", "casino")[0][0] for c in (hanoi, seoul)]
    assert keys == [None, None]
    for cluster, floor in ((hanoi, hanoi_floor), (seoul, seoul_floor)):
        lines = play(cluster, floor, ROUNDS_BEFORE, tmp_path / f"{cluster.name}-before.jsonl")
        assert [line["ok"] for line in lines] == [True] * ROUNDS_BEFORE
    assert hanoi.sql("SELECT min(id) FROM casino_round", "casino")[0][0] == 10**12
    assert seoul.sql("SELECT min(id) FROM casino_round", "casino")[0][0] == 2 * 10**12

    for name, cluster in (("vn", hanoi), ("kr", seoul)):
        manage(
            group.dsn("casino"), "group_setup", "--site", name, "--conninfo", cluster.dsn("casino")
        )
    sites = figures(hanoi) + figures(seoul)
    assert [row[1] for row in sites] == [ROUNDS_BEFORE, ROUNDS_BEFORE]
    assert wait_for(lambda: figures(group) == sorted(sites), seconds=CATCH_UP_LIMIT), (
        figures(group),
        sites,
    )

    # The link down: the group's database stops; the sites deal and settle on.
    group.stop()
    for cluster, floor in ((hanoi, hanoi_floor), (seoul, seoul_floor)):
        lines = play(cluster, floor, ROUNDS_WHILE_DOWN, tmp_path / f"{cluster.name}-down.jsonl")
        assert [line["ok"] for line in lines] == [True] * ROUNDS_WHILE_DOWN
    slots = hanoi.sql(
        "SELECT slot_name, active FROM pg_replication_slots WHERE slot_type = 'logical'"
    )
    assert slots == [("casino_site_vn", False)]  # the site keeps the group's changes
    kept = json.loads(manage(hanoi.dsn("casino"), "replication_status").splitlines()[0])
    assert kept["slot"] == "casino_site_vn" and kept["connected"] is False
    assert kept["wal_kept_bytes"] > 0

    # The link back: the group catches up, nothing lost, nothing twice.
    sites = sorted(figures(hanoi) + figures(seoul))
    assert [row[1] for row in sites] == [ROUNDS_BEFORE + ROUNDS_WHILE_DOWN] * 2
    back = time.monotonic()
    group.start()
    assert wait_for(lambda: figures(group) == sites, seconds=CATCH_UP_LIMIT), (
        figures(group),
        sites,
    )
    caught_up = time.monotonic() - back
    print(json.dumps({"figure": "group_catch_up_s", "value": round(caught_up, 2), "unit": "s"}))
    for name in ("vn", "kr"):
        status = json.loads(
            next(
                line
                for line in manage(group.dsn("casino"), "replication_status").splitlines()
                if f"casino_site_{name}" in line
            )
        )
        assert status["running"] is True, status

    # A member's details stay at the site: the group has the member, not the name.
    assert hanoi.sql("SELECT name FROM casino_player", "casino") == [("Nguyễn Văn An",)]
    assert group.sql(
        "SELECT v.code, p.membership_number, p.name FROM casino_player p "
        "JOIN casino_venue v ON v.id = p.venue_id ORDER BY v.code",
        "casino",
    ) == [("kr-seoul", "M-1", ""), ("vn-hanoi", "M-1", "")]
    assert group.sql("SELECT count(*) FROM casino_auditevent WHERE summary <> ''", "casino") == [
        (0,)
    ]

    # The group's reports read the group's database: each venue's figures of the day there
    # are the site's own, converted at the rate the group approved.
    own = {**report(hanoi, "site"), **report(seoul, "site")}
    grouped = report(group, "group", "--rate", str(RATE))
    assert sorted(grouped) == sorted(own) == ["kr-seoul", "vn-hanoi"]
    for code, line in grouped.items():
        handle = Decimal(own[code]["handle"])
        assert handle > 0
        assert (Decimal(line["handle"]), Decimal(line["house_win"])) == (
            handle,
            Decimal(own[code]["house_win"]),
        )
        in_usd = (handle * RATE).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert Decimal(line["reporting"]) == in_usd, line
        assert "0.125 (drill)" in line["rates"], line

    # A self-exclusion at Hà Nội travels: to the group, then from the group to Seoul, where
    # the same passport's member is refused their next round.
    seoul_url = seoul.dsn("casino")
    dealt = json.loads(
        run_app(
            drill_program("load_rounds", "member-round", *floor_args(seoul_floor)),
            seoul_url,
            seconds=120,
        )
    )
    assert dealt["ok"] is True  # not barred anywhere yet
    run_app(
        drill_program("load_rounds", "self-exclude", "--venue", "vn-hanoi"),
        hanoi.dsn("casino"),
        seconds=120,
    )
    travelled = "SELECT venue_name, kind FROM casino_groupbarring"
    assert wait_for(lambda: seoul.sql(travelled, "casino"), seconds=CATCH_UP_LIMIT), (
        group.sql("SELECT id, player_id, kind FROM casino_playerbarring", "casino"),
        group.sql("SELECT id, group_key FROM casino_player", "casino"),
        group.sql(travelled, "casino"),
        seoul.sql("SELECT subname, pid, received_lsn FROM pg_stat_subscription", "casino"),
        [line for line in group.log.read_text().splitlines() if "ERROR" in line][-5:],
        [line for line in hanoi.log.read_text().splitlines() if "ERROR" in line][-5:],
        hanoi.sql("SELECT id, player_id, kind FROM casino_playerbarring", "casino"),
    )
    assert group.sql(travelled, "casino") == [("Drill vn-hanoi", "self_exclusion")]
    refused = json.loads(
        run_app(
            drill_program("load_rounds", "member-round", *floor_args(seoul_floor)),
            seoul_url,
            seconds=120,
        )
    )
    assert refused == {
        "ok": False,
        "reason": "player_barred",
        "message": "player M-1 is barred at Drill vn-hanoi (self-exclusion) and cannot play",
    }
    # Hà Nội's own member is refused there by its own barring, not the group's copy.
    assert hanoi.sql(travelled, "casino") == [("Drill vn-hanoi", "self_exclusion")]

    # Seoul's venue identified (its group's jurisdiction allows it): once the site is
    # published again, its member's name and passport arrive, the one registered before
    # too; Hà Nội's, pseudonymised, still do not. Back to pseudonymised: the group forgets.
    members = (
        "SELECT v.code, p.name, p.id_document_number FROM casino_player p "
        "JOIN casino_venue v ON v.id = p.venue_id ORDER BY v.code"
    )
    named = [("kr-seoul", "Nguyen Van An", PASSPORT), ("vn-hanoi", "", "")]
    group_data(seoul, "kr-seoul", "identified")
    assert "1 members sent again" in manage(seoul_url, "site_setup", "--site", "2", **SECRET)
    assert wait_for(lambda: group.sql(members, "casino") == named, seconds=CATCH_UP_LIMIT), (
        group.sql(members, "casino")
    )
    group_data(seoul, "kr-seoul", "pseudonymised")
    manage(seoul_url, "site_setup", "--site", "2", **SECRET)
    seoul_said = "SELECT group_player_data FROM casino_venue WHERE code = 'kr-seoul'"
    assert wait_for(  # the venue's row arrived: the group knows Seoul is pseudonymised again
        lambda: group.sql(seoul_said, "casino") == [("pseudonymised",)], seconds=CATCH_UP_LIMIT
    )
    assert "1 gone" in manage(group.dsn("casino"), "group_setup")
    assert group.sql(members, "casino") == [("kr-seoul", "", ""), ("vn-hanoi", "", "")]


def group_data(cluster: Cluster, venue: str, kind: str) -> None:
    """What ``venue`` at ``cluster`` sends the group of its members set to ``kind``."""
    args = ("group-data", "--venue", venue, "--as", kind)
    run_app(drill_program("load_rounds", *args), cluster.dsn("casino"), seconds=120)


def report(cluster: Cluster, *args: str) -> dict:
    """tests/drills/group_report.py's answer on ``cluster``'s database."""
    output = run_app(drill_program("group_report", *args), cluster.dsn("casino"), seconds=120)
    return json.loads(output.splitlines()[-1])


def floor_args(floor: dict) -> tuple[str, ...]:
    return ("--session", str(floor["session"]), "--dealer", str(floor["dealer"]))

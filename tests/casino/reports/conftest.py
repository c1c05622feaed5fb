"""A small night shift at Hanoi whose every figure is worked out by hand.

Times are Hanoi's (UTC+7). Paytable vn-kr-004; the version's figures are set to round
numbers: house edge single 2.5%, double 3%, super 14%; SD single 1, double 2, super 6.4.

NN1 (dealer "dealer"), Niu Niu through the services:
  R1 22:05-22:06  dealer Niu 5   box 1 P1 Niu Niu  single 100,000 wins: gross 100,000,
                                 commission 5,000, net +95,000
                                 box 2 P2 No Niu   single 200,000 loses -200,000,
                                 double 100,000 loses x1 (dealer's Niu 5) -100,000
                  house +205,000
  R2 22:20-22:21  dealer Niu 9   box 1 P1 Niu 2    single 100,000 -100,000,
                                 super 50,000 loses x9 -450,000      house +550,000
  R3 23:10-23:11  dealer Niu 3   box 1 anonymous Niu 8, single 300,000 wins: net +285,000
                  (commission 15,000); a void was asked for and never approved
                  house -285,000
  R4 23:30        box 1 P2 single 500,000: settled, then voided (asked by dealer,
                  approved by supervisor): in no figure
  A fill of 1,000,000. Closed with a count that matches the ledger.
NN2 (dealer "dealer2"):
  R5 22:40-22:41  dealer Niu 7   box 1 P2 Niu 8    single 1,000,000 wins net +950,000
                  (commission 50,000); double 500,000 wins 2:1, gross 1,000,000,
                  commission 50,000, net +950,000           house -1,900,000
  A credit slip asked for and voided. Closed 10,000 short: variance -10,000, flagged.
MB1 (Mau Binh, dealer "dealer2"), rows made directly in the shape Mau Binh will write:
  M1 23:40-23:45  stake 100,000 a seat: seat 1 P1 +6 chi gross +600,000, fee 30,000,
                  net +570,000; seat 2 P2 gross -200,000; seat 3 anonymous -400,000
  M2 00:10-00:15  seat 1 anonymous gross -300,000; seat 2 P2 gross +300,000, fee 15,000,
                  net +285,000
  Volume between players 600,000 + 300,000 = 900,000; fees 45,000 (the house's win).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction

from casino.cage.services.slips import slip_request, slip_void
from casino.floor.models import Bet, Box, Round, RoundStatus
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.tallies import tally_rebuild
from casino.floor.services.voids import round_void, round_void_request
from casino.games import BoxInput
from casino.ledger.models import Account, EntryKind, LedgerEntry
from casino.players.models import Player
from casino.reports.models import ShiftReport
from casino.reports.services import report_request
from casino.rulesets.models import Ruleset
from casino.simulation import chips_for
from casino.staff.roles import AUDITOR, DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Shift, Table
from niuniu.models import NiuNiuRulesetVersion
from tests.casino.slips import slip_post
from tests.factories import VenueFactory, niuniu_table, staff

D = Decimal
HANOI = ZoneInfo("Asia/Ho_Chi_Minh")
OPENING = {"1000000": 10}  # 10,000,000
FIGURES = {
    "house_edge": {"single": "0.025", "double": "0.03", "super": "0.14"},
    "sd": {"single": "1", "double": "2", "super": "6.4"},
}


def at(day: int, hour: int, minute: int) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=HANOI)


@dataclass
class NightShift:
    floor: object
    shift: Shift
    nn1: Table
    nn2: Table
    mb1: Table
    dealer2: object
    p1: Player
    p2: Player
    rounds: dict
    sessions: dict

    @property
    def venue(self):
        return self.floor.venue


def _timed(round_: Round, start: datetime, end: datetime) -> None:
    # The services stamp rounds with the time they ran; the fixture moves them into the
    # shift's hours so hours and time at the table come out round.
    Round.objects.filter(pk=round_.pk).update(created_at=start, settled_at=end)


def _niuniu(session, dealer, dealer_cards, boxes, key, start, end):
    round_, _result = round_create(
        session=session, user=dealer, dealer_cards=dealer_cards, boxes=boxes
    )
    round_settle(round_=round_, user=dealer, key=key)
    _timed(round_, start, end)
    return round_


def _maubinh(session, dealer, number, seats, start, end, ruleset):
    """One Mau Binh round as maubinh's adapter posts it: a Bet per seat (bet type "stake",
    net = result after fee, commission = the fee) and per seat its result between the
    players and its fee from the player to the house."""
    round_ = Round.objects.create(
        session=session,
        number=number,
        game="maubinh",
        status=RoundStatus.SETTLED,
        ruleset=ruleset,
        ruleset_version_id=999,
        ruleset_version_number=1,
        dealer=dealer,
        created_by=dealer,
        settled_by=dealer,
        settled_at=end,
        house_net=sum(fee for _p, _pl, _g, fee in seats),
    )
    entries = []
    for position, player, gross, fee in seats:
        box = Box.objects.create(
            round=round_,
            position=position,
            player=player,
            cards="AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        )
        bet = Bet.objects.create(
            box=box,
            bet_type="stake",
            stake=D("100000"),
            deposit_required=D("0"),
            outcome="win" if gross > 0 else "lose",
            gross=gross,
            commission=fee,
            net=gross - fee,
        )
        common = {
            "venue_id": session.table.venue_id,
            "session": session,
            "round": round_,
            "box": box,
            "bet": bet,
            "player": player,
        }
        # the seats' results move between the players (they sum to zero), the fee to the house
        entries.append(
            LedgerEntry(account=Account.PLAYER, kind=EntryKind.STAKE_RESULT, amount=gross, **common)
        )
        if fee:
            entries += [
                LedgerEntry(account=Account.PLAYER, kind=EntryKind.FEE, amount=-fee, **common),
                LedgerEntry(account=Account.HOUSE, kind=EntryKind.FEE, amount=fee, **common),
            ]
    LedgerEntry.objects.bulk_create(entries)  # one statement: the balance trigger sees it whole
    _timed(round_, start, end)
    return round_


def _close(session, user, short="0"):
    figures = session_figures(session)
    tray = session.opening_total + figures["fills"] - figures["credits"] + figures["win_by_ledger"]
    return session_close(
        session=session,
        counted_by=session.dealer,
        confirmed_by=user,
        closing_chips=chips_for(tray - D(short), session.table.chip_denominations),
        variance_reason="a short count" if D(short) else "",
    )


@dataclass
class Staff:
    venue: object
    table: object
    dealer: object
    supervisor: object
    supervisor2: object
    manager: object
    auditor: object
    other_venue: object
    other_manager: object


def _staff() -> Staff:
    """The venue's staff of every role (like tests/conftest.py's ``floor``), and a manager
    at a second venue."""
    # English, so the figures read as the tests spell them (test_languages.py speaks the others).
    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=D("1000"), language="en")
    other = VenueFactory(
        code="seoul", currency="KRW", rounding_unit=D("100"), timezone="Asia/Seoul", language="en"
    )
    manager = staff("floor-manager", MANAGER, venue)
    manager.email = "floor-manager@example.com"
    manager.save()
    return Staff(
        venue=venue,
        table=niuniu_table(venue),
        dealer=staff("dealer", DEALER, venue),
        supervisor=staff("supervisor", SUPERVISOR, venue),
        supervisor2=staff("supervisor2", SUPERVISOR, venue),
        manager=manager,
        auditor=staff("auditor", AUDITOR, venue),
        other_venue=other,
        other_manager=staff("other-manager", MANAGER, other),
    )


@pytest.fixture(scope="module")
def night(django_db_setup, django_db_blocker):
    """The night shift, made once per test module inside a transaction that is rolled
    back at the module's end; each test runs in its own savepoint on top of it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield night_shift()
        transaction.set_rollback(True)


def night_shift() -> NightShift:
    floor = _staff()
    venue = floor.venue
    dealer, supervisor, supervisor2 = floor.dealer, floor.supervisor, floor.supervisor2
    dealer2 = staff("dealer2", DEALER, venue)
    NiuNiuRulesetVersion.objects.filter(ruleset=floor.table.ruleset).update(figures=FIGURES)
    nn1 = floor.table
    nn2 = niuniu_table(venue, code="NN2")
    mb_ruleset = Ruleset.objects.create(venue=venue, game="maubinh", code="mb", name="Mau Binh")
    mb1 = Table.objects.create(
        venue=venue,
        code="MB1",
        game="maubinh",
        ruleset=mb_ruleset,
        seats=4,
        chip_denominations=["1000000", "100000", "10000", "1000"],
    )
    p1 = Player.objects.create(venue=venue, membership_number="M1", name="An")
    p2 = Player.objects.create(venue=venue, membership_number="M2", name="Binh")
    shift = Shift.objects.create(
        venue=venue,
        gaming_date=at(28, 0, 0).date(),
        name="night",
        starts_at=at(28, 22, 0),
        ends_at=at(29, 6, 0),
    )
    s1 = session_open(
        table=nn1, counted_by=dealer, confirmed_by=supervisor, opening_chips=OPENING, shift=shift
    )
    s2 = session_open(
        table=nn2, counted_by=dealer2, confirmed_by=supervisor, opening_chips=OPENING, shift=shift
    )
    s3 = session_open(
        table=mb1, counted_by=dealer2, confirmed_by=supervisor, opening_chips=OPENING, shift=shift
    )

    def box(position, cards, player=None, **stakes):
        return BoxInput(
            position=position,
            cards=cards,
            stakes={k: D(v) for k, v in stakes.items()},
            player_id=player.pk if player else None,
        )

    rounds = {}
    rounds["R1"] = _niuniu(
        s1,
        dealer,
        "KS QS JS 2H 3D",
        [
            box(1, "TH 9C AD KH QH", p1, single="100000"),
            box(2, "AC AH 2S 3S TS", p2, single="200000", double="100000"),
        ],
        "r1",
        at(28, 22, 5),
        at(28, 22, 6),
    )
    rounds["R2"] = _niuniu(
        s1,
        dealer,
        "KD QD JD 4C 5C",
        [box(1, "AS 2D 3C 7H 9S", p1, single="100000", super="50000")],
        "r2",
        at(28, 22, 20),
        at(28, 22, 21),
    )
    rounds["R3"] = _niuniu(
        s1,
        dealer,
        "KS QS JS AH 2H",
        [box(1, "JC QC KC 4S 4H", None, single="300000")],
        "r3",
        at(28, 23, 10),
        at(28, 23, 11),
    )
    round_void_request(round_=rounds["R3"], user=dealer, reason="dealer unsure of the deal")
    rounds["R4"] = _niuniu(
        s1,
        dealer,
        "KS QS JS 2H 3D",
        [box(1, "TH 9C AD KH QH", p2, single="500000")],
        "r4",
        at(28, 23, 30),
        at(28, 23, 31),
    )
    round_void(round_=rounds["R4"], requested_by=dealer, approved_by=supervisor, reason="misdeal")
    fill = slip_request(session=s1, user=supervisor, kind="fill", chips={"1000000": 1})
    slip_post(fill, dealer=supervisor2, supervisor=supervisor)

    rounds["R5"] = _niuniu(
        s2,
        dealer2,
        "5S 5H TC JS 7D",
        [box(1, "JC QC KC 4S 4H", p2, single="1000000", double="500000")],
        "r5",
        at(28, 22, 40),
        at(28, 22, 41),
    )
    credit = slip_request(session=s2, user=supervisor, kind="credit", chips={"100000": 5})
    slip_void(slip=credit, user=supervisor2, reason="asked for by mistake")

    rounds["M1"] = _maubinh(
        s3,
        dealer2,
        1,
        [
            (1, p1, D("600000"), D("30000")),
            (2, p2, D("-200000"), D(0)),
            (3, None, D("-400000"), D(0)),
        ],
        at(28, 23, 40),
        at(28, 23, 45),
        mb_ruleset,
    )
    rounds["M2"] = _maubinh(
        s3,
        dealer2,
        2,
        [(1, None, D("-300000"), D(0)), (2, p2, D("300000"), D("15000"))],
        at(29, 0, 10),
        at(29, 0, 15),
        mb_ruleset,
    )
    # The rounds were moved in time and Mau Binh's written by hand: tally them as they
    # now stand, as an upgrade would.
    tally_rebuild(shift.pk)
    sessions = {
        "NN1": _close(s1, supervisor),
        "NN2": _close(s2, supervisor, short="10000"),
        "MB1": _close(s3, supervisor),
    }
    return NightShift(floor, shift, nn1, nn2, mb1, dealer2, p1, p2, rounds, sessions)


@pytest.fixture
def report(night, db) -> ShiftReport:
    """The night shift's report row, not built yet (no task sent)."""
    return report_request(shift_id=night.shift.pk, send=False)


@pytest.fixture
def quick_pdf(monkeypatch):
    """Skip WeasyPrint where a test does not look at the PDF (it takes seconds)."""
    from casino.reports import outputs

    monkeypatch.setattr(outputs, "render_pdf", lambda figures, svgs: b"%PDF-1.7 stub")

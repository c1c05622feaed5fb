"""Every figure of the night shift (tests/casino/reports/conftest.py), checked by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum

from casino.floor.lines import figure_line, fluctuation
from casino.floor.models import Bet
from casino.ledger.models import LedgerEntry
from casino.reports.figures import note_text, shift_figures, theoretical_note
from casino.reports.models import ShiftReportCell
from casino.reports.services import report_request
from niuniu.models import NiuNiuRulesetVersion

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture(scope="module")
def built(night, django_db_blocker):
    """The report and its figures, built once for the module (inside ``night``'s
    transaction)."""
    with django_db_blocker.unblock():
        report = report_request(shift_id=night.shift.pk, send=False)
        return report, shift_figures(report)


@pytest.fixture
def figures(built):
    return built[1]


def by_key(lines):
    return {line["key"]: line for line in lines}


def test_the_fixture_settled_as_the_comments_say(night):
    # given the rounds dealt through the services, the engine settled each bet as written
    nets = {
        (b.box.round.number, b.box.round.session.table.code, b.box.position, b.bet_type): (
            b.net,
            b.commission,
        )
        for b in Bet.objects.select_related("box__round__session__table")
    }
    assert nets[(1, "NN1", 1, "single")] == (D("95000"), D("5000"))
    assert nets[(1, "NN1", 2, "single")] == (D("-200000"), D("0"))
    assert nets[(1, "NN1", 2, "double")] == (D("-100000"), D("0"))
    assert nets[(2, "NN1", 1, "single")] == (D("-100000"), D("0"))
    assert nets[(2, "NN1", 1, "super")] == (D("-450000"), D("0"))
    assert nets[(3, "NN1", 1, "single")] == (D("285000"), D("15000"))
    assert nets[(1, "NN2", 1, "single")] == (D("950000"), D("50000"))
    assert nets[(1, "NN2", 1, "double")] == (D("950000"), D("50000"))
    # and every round's and slip's ledger entries sum to zero
    assert LedgerEntry.objects.aggregate(t=Sum("amount"))["t"] == 0


def test_shift_total(figures):
    total = figures["total"]
    # R1, R2, R3, R5, M1, M2 (R4 is voided)
    assert total["rounds"] == 6
    # R1 3 + R2 2 + R3 1 + R5 2 + M1 3 + M2 2
    assert total["bets"] == 13
    # NN1 400,000 + 150,000 + 300,000; NN2 1,500,000; MB1 5 seats x 100,000
    assert total["handle"] == "2850000.00"
    # NN1 +205,000 +550,000 -285,000; NN2 -1,900,000; MB1 fees 45,000
    assert total["house_win"] == "-1385000.00"
    assert total["player_result"] == "1385000.00"
    # 5,000 + 15,000 + 50,000 + 50,000 + fees 45,000
    assert total["commission"] == "165000.00"
    # -1,385,000 / 2,850,000 = -48.596...%
    assert total["hold_pct"] == "-48.60"
    # single 1,700,000 x 2.5% = 42,500; double 600,000 x 3% = 18,000; super 50,000 x 14%
    # = 7,000; Mau Binh: its fees 45,000
    assert total["theoretical_win"] == "112500.00"
    assert total["theoretical_hold_pct"] == "3.95"  # 112,500 / 2,850,000
    assert total["actual_minus_theoretical"] == "-1497500.00"
    assert figures["notes"] == []


def test_tables(figures):
    tables = by_key(figures["tables"])
    assert list(tables) == ["MB1", "NN1", "NN2"]
    nn1, nn2, mb1 = tables["NN1"], tables["NN2"], tables["MB1"]
    assert (nn1["rounds"], nn1["handle"], nn1["house_win"]) == (3, "850000.00", "470000.00")
    assert nn1["commission"] == "20000.00"  # 5,000 (R1) + 15,000 (R3)
    assert nn1["hold_pct"] == "55.29"  # 470,000 / 850,000
    # single 700,000 x 2.5% = 17,500; double 100,000 x 3% = 3,000; super 50,000 x 14% = 7,000
    assert nn1["theoretical_win"] == "27500.00"
    assert nn1["actual_minus_theoretical"] == "442500.00"
    # variance: single 100k^2 + 200k^2 + 100k^2 + 300k^2 = 1.5e11 (SD 1); double
    # 100k^2 x 2^2 = 4e10; super 50k^2 x 6.4^2 = 1.024e11; total 2.924e11, SD 540,740.23;
    # 95%: 27,500 +- 1,059,850.86 -> -1,032,350.86 .. 1,087,350.86 over 850,000
    assert (nn1["hold_low_pct"], nn1["hold_high_pct"]) == ("-121.45", "127.92")
    assert nn1["flagged"] is False
    assert (nn2["rounds"], nn2["handle"], nn2["house_win"]) == (1, "1500000.00", "-1900000.00")
    assert nn2["hold_pct"] == "-126.67"
    assert nn2["theoretical_win"] == "40000.00"  # 25,000 + 15,000
    # variance 1e12 + 500k^2 x 4 = 2e12; 1.96 x 1,414,213.56 = 2,771,858.58
    assert (nn2["hold_low_pct"], nn2["hold_high_pct"]) == ("-182.12", "187.46")
    assert (mb1["rounds"], mb1["handle"], mb1["house_win"]) == (2, "500000.00", "45000.00")
    assert mb1["theoretical_win"] == "45000.00"  # a fee game's theoretical win is its fee
    assert mb1["actual_minus_theoretical"] == "0.00"


def test_dealers_games_and_bet_types(figures):
    dealers = by_key(figures["dealers"])
    # dealer: NN1; dealer2: NN2 and MB1
    assert (dealers["dealer"]["rounds"], dealers["dealer"]["house_win"]) == (3, "470000.00")
    assert dealers["dealer2"]["rounds"] == 3
    assert dealers["dealer2"]["handle"] == "2000000.00"
    assert dealers["dealer2"]["house_win"] == "-1855000.00"  # -1,900,000 + 45,000
    games = by_key(figures["games"])
    assert games["niuniu"]["rounds"] == 4
    assert games["niuniu"]["handle"] == "2350000.00"
    assert games["niuniu"]["house_win"] == "-1430000.00"
    assert games["niuniu"]["commission"] == "120000.00"
    assert games["niuniu"]["theoretical_win"] == "67500.00"
    assert games["maubinh"]["label"] == "Mau Binh"
    assert (games["maubinh"]["rounds"], games["maubinh"]["house_win"]) == (2, "45000.00")
    bets = by_key(figures["bet_types"])
    single = bets["niuniu:single"]
    # R1 100k + 200k, R2 100k, R3 300k, R5 1,000k; results +95k -200k -100k +285k +950k
    assert (single["rounds"], single["bets"], single["handle"]) == (None, 5, "1700000.00")
    assert single["house_win"] == "-1030000.00"
    assert single["commission"] == "70000.00"
    assert single["theoretical_win"] == "42500.00"
    double = bets["niuniu:double"]
    assert (double["bets"], double["handle"], double["house_win"]) == (
        2,
        "600000.00",
        "-850000.00",
    )
    assert double["theoretical_win"] == "18000.00"
    super_ = bets["niuniu:super"]
    assert (super_["bets"], super_["handle"], super_["house_win"]) == (1, "50000.00", "450000.00")
    assert super_["theoretical_win"] == "7000.00"
    assert bets["maubinh:stake"]["handle"] == "500000.00"


def test_hours_in_the_venues_time(figures):
    hours = figures["hours"]
    assert [h["label"] for h in hours] == ["22:00", "23:00", "00:00"]
    # 22:00 R1 R2 R5; 23:00 R3 M1; 00:00 M2
    assert [h["rounds"] for h in hours] == [3, 2, 1]
    assert [h["handle"] for h in hours] == ["2050000.00", "600000.00", "200000.00"]
    # 205,000 + 550,000 - 1,900,000; -285,000 + 30,000; 15,000
    assert [h["house_win"] for h in hours] == ["-1145000.00", "-255000.00", "15000.00"]


def test_player_ratings(figures):
    players = by_key(figures["players"])
    p1, p2 = players["M1"], players["M2"]
    # P1: R1 single 100k (+95k), R2 single 100k (-100k) + super 50k (-450k), M1 seat 100k
    # (+570k after a 30k fee)
    assert (p1["rounds"], p1["hands"], p1["bets"]) == (3, 3, 4)
    assert p1["handle"] == "350000.00"
    assert p1["average_bet"] == "87500.00"  # 350,000 / 4 bets
    assert p1["house_win"] == "-115000.00"  # -(95k - 100k - 450k + 570k)
    assert p1["theoretical_win"] == "42000.00"  # 200k x 2.5% + 50k x 14% + fee 30,000
    # time at the tables: NN1 22:05 -> 22:21 (16 min), MB1 23:40 -> 23:45 (5 min)
    assert p1["minutes"] == 21
    # P2: R1 300k (-300k), R5 1,500k (+1,900k), M1 100k (-200k), M2 100k (+285k); R4 voided
    assert (p2["rounds"], p2["hands"], p2["bets"]) == (4, 4, 6)
    assert p2["handle"] == "2000000.00"
    assert p2["average_bet"] == "333333.33"
    assert p2["house_win"] == "-1685000.00"
    assert p2["theoretical_win"] == "63000.00"  # 5,000 + 3,000 + 25,000 + 15,000 + fee 15,000
    # NN1 22:05 -> 22:06, NN2 22:40 -> 22:41, MB1 23:40 -> 00:15: 1 + 1 + 35
    assert p2["minutes"] == 37
    # ranked by theoretical win
    assert [p["key"] for p in figures["players"]] == ["M2", "M1"]
    # anonymous boxes: R3 300k, M1 seat 3 100k, M2 seat 1 100k
    assert figures["anonymous"]["handle"] == "500000.00"


def test_mau_binh(figures):
    fee = figures["fee_games"]
    assert fee["total"] == {
        "rounds": 2,
        "seats": 5,
        "volume": "900000.00",  # positive gross: 600,000 + 300,000
        "fees": "45000.00",
        "fee_pct": "5.00",
    }
    assert [t["key"] for t in fee["tables"]] == ["MB1"]


def test_voids_and_corrections_with_who_approved(figures):
    voids = figures["voids"]
    assert voids["count"] == 1
    assert voids["handle"] == "500000.00"
    (void,) = voids["listed"]
    assert (void["table"], void["round"], void["reason"]) == ("NN1", 4, "misdeal")
    assert (void["requested_by"], void["approved_by"]) == ("dealer", "supervisor")
    (request,) = voids["requests_not_approved"]
    assert (request["round"], request["status"], request["requested_by"]) == (
        3,
        "settled",
        "dealer",
    )
    (slip,) = voids["voided_slips"]
    assert (slip["kind"], slip["amount"], slip["voided_by"]) == (
        "credit",
        "500000.00",
        "supervisor2",
    )


def test_largest_payouts(figures):
    payouts = figures["payouts"]
    # R5 single and double 950,000 each, M1 seat 1 570,000, R3 and M2 285,000, R1 95,000
    assert [p["net"] for p in payouts] == [
        "950000.00",
        "950000.00",
        "570000.00",
        "285000.00",
        "285000.00",
        "95000.00",
    ]
    assert payouts[0]["table"] == "NN2" and payouts[0]["player"] == "M2"


def test_count_against_ledger_with_the_variance_flagged(figures):
    count = figures["count"]
    sessions = {s["table"]: s for s in count["sessions"]}
    nn1 = sessions["NN1"]
    # closing 10,000,000 + fill 1,000,000 + 470,000 = 11,470,000
    assert (nn1["fills"], nn1["closing"]) == ("1000000.00", "11470000.00")
    assert (nn1["win_by_count"], nn1["win_by_ledger"], nn1["variance"]) == (
        "470000.00",
        "470000.00",
        "0.00",
    )
    assert nn1["flagged"] is False
    nn2 = sessions["NN2"]
    # closing 10,000,000 - 1,900,000 - 10,000 short: count -1,910,000 against -1,900,000
    assert (nn2["win_by_count"], nn2["win_by_ledger"], nn2["variance"]) == (
        "-1910000.00",
        "-1900000.00",
        "-10000.00",
    )
    assert nn2["flagged"] is True
    assert sessions["MB1"]["win_by_ledger"] == "45000.00"
    assert count["flagged_sessions"] == 1
    assert count["closed_totals"]["fills"] == "1000000.00"
    assert count["closed_totals"]["credits"] == "0.00"  # the credit slip was voided
    assert count["closed_totals"]["win_by_ledger"] == "-1385000.00"  # = the house win
    assert [s["slip"][-6:] for s in count["slips"]] == ["000001"]


def test_the_cells_hold_what_the_sections_sum(built):
    cells = ShiftReportCell.objects.filter(report=built[0])
    assert cells.aggregate(h=Sum("handle"))["h"] == D("2850000")
    # one cell per table session, hour, player, version and bet type: R1 has P1 single,
    # P2 single, P2 double; R2 P1 single + super (same hour as R1: P1 single shared)...
    assert cells.count() == cells.values("session", "hour", "player", "bet_type").distinct().count()


def test_a_version_without_a_house_edge_reads_n_a(night, built):
    NiuNiuRulesetVersion.objects.filter(ruleset=night.nn1.ruleset).update(figures=None)
    figures = shift_figures(built[0])
    (note,) = figures["notes"]
    version = NiuNiuRulesetVersion.objects.get(ruleset=night.nn1.ruleset)
    ruleset = f"vn-kr-004 v{version.number}"
    missing = ["double", "single", "super"]
    assert note == {"kind": "no_edge", "ruleset": ruleset, "bet_types": missing}
    assert note_text(note) == (
        f"n/a (house edge not computed for ruleset {ruleset}): theoretical win is unavailable "
        "for double, single, super bets"
    )
    assert theoretical_note(figures) == f"n/a (house edge not computed for ruleset {ruleset})"
    tables = by_key(figures["tables"])
    assert tables["NN1"]["theoretical_win"] is None
    assert tables["NN1"]["unrated_handle"] == "850000.00"
    assert tables["NN1"]["flagged"] is None
    assert tables["MB1"]["theoretical_win"] == "45000.00"  # the fee game still has one
    assert figures["total"]["theoretical_win"] is None


def test_running_twice_gives_the_same_figures(built):
    report, figures = built
    assert shift_figures(report) == figures


def test_fluctuation_flags_a_hold_outside_the_range():
    # 100 single bets of 1,000 with SD 1: variance 100 x 1,000^2 = 1e8, SD 10,000;
    # theoretical 2,500; range 2,500 +- 19,600 = -17,100 .. 22,100 over a handle of 100,000
    sums = {"t_handle": D("100000"), "t_win_variance": D("1e8"), "t_theoretical_win": D("2500")}
    inside = fluctuation(sums, house_win=D("22000"), theoretical=D("2500"))
    assert inside == {"hold_low_pct": D("-17.10"), "hold_high_pct": D("22.10"), "flagged": False}
    assert fluctuation(sums, house_win=D("22200"), theoretical=D("2500"))["flagged"] is True
    line = figure_line(sums | {"t_player_result": D("-30000")})
    assert (line["house_win"], line["flagged"]) == (D("30000"), True)

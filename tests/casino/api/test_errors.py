"""Bad input is a 400 naming the field; every error has one shape; nothing is a 500."""

from __future__ import annotations

import pytest

from casino.floor.models import Round, TableSession
from tests.casino.api import (
    NIU_8,
    NIU_9,
    NO_NIU,
    PASSWORD,
    box,
    client_for,
    credentials,
    error_of,
    open_session,
)

#: The floor's supervisor confirms the dealer's count (tests/conftest.py ``floor``).
SIGNED = {"username": "supervisor", "password": PASSWORD}

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer(floor):
    return client_for(floor.dealer)


@pytest.fixture
def session_id(floor, dealer):
    return open_session(dealer, floor.table.pk)["id"]


def post_round(client, session_id, *boxes, dealer=NIU_8, **extra):
    body = {"session": session_id, "dealer_cards": dealer, "boxes": list(boxes), **extra}
    return client.post("/api/v1/rounds/", body)


BAD_ROUNDS = [
    ([box(1, "KS QS 5H 4H 1X", single="100000")], NIU_8, "boxes[0].cards", "'1X' is not"),
    ([box(1, "KS KS 5H 4H TC", single="100000")], NIU_8, "boxes[0].cards", "twice"),
    ([box(1, "KS QS 5H 4H JS", single="100000")], NIU_8, "boxes[0].cards", "in both"),
    ([box(1, "KS QS 5H 4H", single="100000")], NIU_8, "boxes[0].cards", "got 4"),
    ([box(1, NIU_9, single="100000")], "JS QH JD AC", "dealer_cards", "got 4"),
    ([box(1, NIU_9, single="100000")], "", "dealer_cards", "expected 5 cards, got 0"),
    ([box(1, NIU_9, single="5000")], NIU_8, "boxes[0].bets.single", "below the table min"),
    ([box(1, NIU_9, single="20000000")], NIU_8, "boxes[0].bets.single", "above the table max"),
    ([box(1, NIU_9, single="-10000")], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="abc")], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="1e30")], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="1" * 400)], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="100000.001")], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="NaN")], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single=True)], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="1_000")], NIU_8, "boxes[0].bets.single", "is not an amount"),
    ([box(1, NIU_9, single="10500")], NIU_8, "boxes[0].bets.single", "not a multiple"),
    ([box(1, NIU_9, double="100000")], NIU_8, "boxes[0].bets.single", "needs a single"),
    ([box(1, NIU_9)], NIU_8, "boxes[0].bets.single", "single bet"),
    ([box(1, NIU_9, single="100000", triple="1000")], NIU_8, "boxes[0].bets.triple", "not a"),
    (
        [box(1, NIU_9, single="100000", double="100000", deposits={"double": "200000"})],
        NIU_8,
        "boxes[0].deposits.double",
        "needs a deposit of 300000",
    ),
    (
        [box(1, NIU_9, single="100000", deposits={"double": "300000"})],
        NIU_8,
        "boxes[0].deposits.double",
        "not placed",
    ),
    (
        [box(1, NIU_9, single="100000"), box(2, NO_NIU, single="100000", double="abc")],
        NIU_8,
        "boxes[1].bets.double",
        "is not an amount",
    ),
    ([box(6, NIU_9, single="100000")], NIU_8, "boxes[0].position", "boxes 1 to 5"),
    ([box(0, NIU_9, single="100000")], NIU_8, "boxes[0].position", "greater than"),
    (
        [box(1, NIU_9, single="100000"), box(1, NO_NIU, single="100000")],
        NIU_8,
        "boxes[1].position",
        "given twice",
    ),
    ([box(1, NIU_9, single="100000", player=999999)], NIU_8, "boxes[0].player", "no player"),
    ([box(1, NIU_9, single="100000", player=10**30)], NIU_8, "boxes[0].player", "less than"),
    ([{"position": "one", "cards": NIU_9, "bets": {}}], NIU_8, "boxes[0].position", "integer"),
    ([{"position": 1, "cards": ["KS"], "bets": {}}], NIU_8, "boxes[0].cards", "string"),
    ([{"position": 1, "cards": NIU_9, "bets": ["single"]}], NIU_8, "boxes[0].bets", "dict"),
    ([{"position": 1, "cards": NIU_9}], NIU_8, "boxes[0].bets", "required"),
    ([], NIU_8, "boxes", "empty"),
]


def test_a_bad_round_is_a_400_naming_the_field(dealer, session_id):
    # One table of cases against one open table (a refused round writes nothing).
    wrong = []
    for boxes, dealer_cards, field, words in BAD_ROUNDS:
        response = post_round(dealer, session_id, *boxes, dealer=dealer_cards)
        got = error_of(response)
        if got != (400, "invalid", field) or words not in response.json()["detail"]:
            wrong.append((field, words, response.json()))
    assert not wrong, "\n".join(map(str, wrong))
    assert not Round.objects.exists()


def test_a_player_of_another_venue_is_not_found(floor, dealer, session_id):
    from tests.factories import PlayerFactory

    theirs = PlayerFactory(venue=floor.other_venue)
    response = post_round(dealer, session_id, box(1, NIU_9, single="100000", player=theirs.pk))
    assert error_of(response) == (400, "invalid", "boxes[0].player")


def test_a_stake_may_be_a_json_number(dealer, session_id):
    response = post_round(dealer, session_id, box(1, NIU_9, single=100000, double=50000.0))
    assert response.status_code == 201, response.json()
    assert [bet["stake"] for bet in response.json()["boxes"][0]["bets"]] == [
        "100000.00",
        "50000.00",
    ]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({}, "session", "required"),
        ({"session": "abc", "dealer_cards": NIU_8, "boxes": []}, "session", "integer"),
        ({"session": 10**30, "dealer_cards": NIU_8, "boxes": []}, "session", "less than"),
        ([1, 2], None, "dictionary"),
        ("text", None, "dictionary"),
    ],
)
def test_missing_and_mistyped_fields(dealer, body, field, words):
    response = dealer.post("/api/v1/rounds/", body)
    assert error_of(response) == (400, "invalid", field)
    assert words in response.json()["detail"]


def test_an_unknown_session_is_not_found(dealer, floor):
    theirs = open_session(client_for(floor.other_dealer), floor.other_table.pk)["id"]
    for session in (999999, theirs):
        response = post_round(dealer, session, box(1, NIU_9, single="100000"))
        assert error_of(response) == (404, "not_found", "session")


def test_the_create_key_is_checked(dealer, session_id):
    response = post_round(dealer, session_id, box(1, NIU_9, single="100000"), create_key="k" * 65)
    assert error_of(response) == (400, "invalid", "create_key")


@pytest.mark.parametrize(
    ("payload", "content_type", "status", "code"),
    [
        ("{bad json", "application/json", 400, "parse_error"),
        ('{"session": 1,}', "application/json", 400, "parse_error"),
        ("[" * 100_000 + "]" * 100_000, "application/json", 400, "parse_error"),
        ("session=1", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        ("", "application/json", 400, "invalid"),
    ],
    ids=["malformed", "trailing-comma", "nested-too-deep", "form", "empty"],
)
def test_bodies_that_are_not_json_objects(dealer, payload, content_type, status, code):
    response = dealer.generic("POST", "/api/v1/rounds/", payload, content_type=content_type)
    assert error_of(response)[:2] == (status, code)


def test_unknown_routes_methods_and_ids(dealer, floor):
    assert error_of(dealer.get("/api/v1/nothing-here/")) == (404, "not_found", None)
    assert error_of(dealer.get("/api/v1/rounds/99999999999999999999999/")) == (
        404,
        "not_found",
        None,
    )
    missing = dealer.get("/api/v1/rounds/999999/")
    assert error_of(missing) == (404, "not_found", None)
    assert missing.json()["detail"] == "there is no round 999999 at your venues"
    assert error_of(dealer.put(f"/api/v1/tables/{floor.table.pk}/", {})) == (
        405,
        "method_not_allowed",
        None,
    )
    assert error_of(dealer.delete("/api/v1/sessions/")) == (405, "method_not_allowed", None)
    assert error_of(dealer.get("/api/v1/rounds/", {"limit": "9999"})) == (400, "invalid", "limit")
    assert error_of(dealer.get("/api/v1/rounds/", {"session": "x"})) == (400, "invalid", "session")


BAD_COUNTS = [
    ({"5000": 1}, "opening_chips.5000", "not a chip of this table"),
    ({"100000": -1}, "opening_chips.100000", "greater than or equal to 0"),
    ({"100000": "ten"}, "opening_chips.100000", "valid integer"),
    ({"100000": 1.5}, "opening_chips.100000", "valid integer"),
    ({"100000": 10**30}, "opening_chips.100000", "less than or equal to"),
    (["100000"], "opening_chips", "dictionary"),
]


def test_a_bad_opening_count(floor, dealer):
    for chips, field, words in BAD_COUNTS:
        body = {"table": floor.table.pk, "opening_chips": chips, "confirmed_by": SIGNED}
        response = dealer.post("/api/v1/sessions/", body)
        assert error_of(response) == (400, "invalid", field), chips
        assert words in response.json()["detail"], response.json()
    assert not TableSession.objects.exists()


def test_opening_a_table_twice_or_for_a_stranger(floor, dealer):
    body = {"table": floor.table.pk, "opening_chips": {"100000": 1}, "confirmed_by": SIGNED}
    stranger = dealer.post("/api/v1/sessions/", {**body, "dealer": "other-dealer"})
    assert error_of(stranger) == (400, "invalid", "dealer")
    auditor = dealer.post("/api/v1/sessions/", {**body, "dealer": "auditor"})
    assert error_of(auditor) == (400, "invalid", "dealer")
    assert error_of(dealer.post("/api/v1/sessions/", {**body, "table": 999999})) == (
        404,
        "not_found",
        "table",
    )
    opened = dealer.post("/api/v1/sessions/", {**body, "dealer": "supervisor"})
    assert (opened.status_code, opened.json()["dealer"]) == (201, "supervisor")
    again = dealer.post("/api/v1/sessions/", body)
    assert error_of(again) == (409, "conflict", None)
    assert "already open" in again.json()["detail"]


def test_closing_checks_the_count_the_drop_and_the_rounds(floor, dealer, session_id):
    supervisor = client_for(floor.supervisor)
    url = f"/api/v1/sessions/{session_id}/close/"
    good = {"closing_chips": {"100000": 50}, "counted_by": credentials(floor.dealer)}
    assert error_of(supervisor.post(url, {**good, "drop": "abc"})) == (400, "invalid", "drop")
    assert error_of(supervisor.post(url, {**good, "drop": "-5"})) == (400, "invalid", "drop")
    assert error_of(supervisor.post(url, {**good, "closing_chips": {"7": 1}})) == (
        400,
        "invalid",
        "closing_chips.7",
    )
    assert error_of(supervisor.post(url, {})) == (400, "invalid", "closing_chips")
    dealt = post_round(dealer, session_id, box(1, NIU_9, single="100000")).json()
    unsettled = supervisor.post(url, good)
    assert error_of(unsettled) == (409, "conflict", None)
    assert "not settled" in unsettled.json()["detail"]
    dealer.post(f"/api/v1/rounds/{dealt['id']}/settle/", HTTP_IDEMPOTENCY_KEY="k")
    closed = supervisor.post(url, {**good, "drop": "0", "variance_reason": "a test count"})
    assert closed.status_code == 200
    assert closed.json()["reconciliation"]["drop"] == "0.00"
    assert error_of(supervisor.post(url, good)) == (409, "conflict", None)
    drop = supervisor.post(f"/api/v1/sessions/{session_id}/drop/", {"amount": "1000"})
    assert error_of(drop) == (409, "conflict", None)


def test_slip_steps_in_the_wrong_order_or_by_the_wrong_person(floor, session_id, cashier):
    supervisor = client_for(floor.supervisor)
    body = {"session": session_id, "kind": "fill", "chips": {"100000": 1}}
    assert error_of(supervisor.post("/api/v1/slips/", {**body, "kind": "gift"})) == (
        400,
        "invalid",
        "kind",
    )
    assert error_of(supervisor.post("/api/v1/slips/", {**body, "chips": {}})) == (
        400,
        "invalid",
        "chips",
    )
    slip = supervisor.post("/api/v1/slips/", body).json()
    assert (slip["status"], slip["amount"], slip["number"]) == ("requested", "100000.00", 1)
    sign = f"/api/v1/slips/{slip['id']}/confirm-supervisor/"
    assert error_of(supervisor.post(sign)) == (409, "conflict", None)
    issue = f"/api/v1/slips/{slip['id']}/issue/"
    by_supervisor = supervisor.post(issue)
    assert error_of(by_supervisor) == (403, "forbidden", None)
    cage = client_for(cashier)
    assert error_of(cage.post(issue, {"runner": "x" * 151})) == (400, "invalid", "runner")
    assert cage.post(issue, {"runner": "Lan"}).status_code == 200
    assert supervisor.post(sign).status_code == 200
    twice = supervisor.post(f"/api/v1/slips/{slip['id']}/confirm-dealer/")
    assert error_of(twice) == (403, "forbidden", None)
    assert "a second person signs the other line" in twice.json()["detail"]
    receive = cage.post(f"/api/v1/slips/{slip['id']}/receive/")
    assert error_of(receive) == (409, "conflict", None)
    assert "is a fill" in receive.json()["detail"]
    # an issued fill is voided at the cage
    at_table = supervisor.post(f"/api/v1/slips/{slip['id']}/void/", {"reason": "wrong table"})
    assert error_of(at_table) == (403, "forbidden", None)
    supervisor = cage
    assert error_of(supervisor.post(f"/api/v1/slips/{slip['id']}/void/", {})) == (
        400,
        "invalid",
        "reason",
    )
    voided = supervisor.post(f"/api/v1/slips/{slip['id']}/void/", {"reason": "wrong table"})
    assert (voided.status_code, voided.json()["status"]) == (200, "void")
    ledger = supervisor.get(f"/api/v1/slips/{slip['id']}/ledger/").json()
    assert (ledger["entries"], ledger["sum"]) == ([], "0.00")


JUNK = [None, True, -1, 0, 1.5, 10**40, "", "abc", "1e999", [], [1], {}, {"x": 1}, "\x00"]


def _mutations(body):
    """The body with each field, and each field of the first box, replaced by junk."""
    for key in body:
        for junk in JUNK:
            yield {**body, key: junk}
    for key in body.get("boxes", [{}])[0]:
        for junk in JUNK:
            yield {**body, "boxes": [{**body["boxes"][0], key: junk}]}


def test_no_input_is_a_500(floor, dealer, session_id):
    manager, supervisor = client_for(floor.manager), client_for(floor.supervisor)
    slip = supervisor.post(
        "/api/v1/slips/", {"session": session_id, "kind": "fill", "chips": {"100000": 1}}
    ).json()
    dealt = post_round(dealer, session_id, box(1, NIU_9, single="100000")).json()
    player = manager.post(
        "/api/v1/players/", {"venue": floor.venue.pk, "membership_number": "P1", "name": "P"}
    ).json()
    calls = [
        (dealer.post, "/api/v1/sessions/", {"table": floor.table.pk, "opening_chips": {}}),
        (
            dealer.post,
            "/api/v1/rounds/",
            {
                "session": session_id,
                "dealer_cards": NIU_8,
                "boxes": [box(2, NO_NIU, single="10000", deposits={"single": "10000"}, player=1)],
                "create_key": "k",
            },
        ),
        (dealer.post, f"/api/v1/rounds/{dealt['id']}/void/", {"reason": "r"}),
        (supervisor.post, f"/api/v1/sessions/{session_id}/drop/", {"amount": "1000"}),
        (supervisor.post, "/api/v1/slips/", {"session": session_id, "kind": "fill", "chips": {}}),
        (supervisor.post, f"/api/v1/slips/{slip['id']}/void/", {"reason": "r"}),
        (
            manager.post,
            "/api/v1/tables/",
            {
                "venue": floor.venue.pk,
                "code": "T9",
                "game": "niuniu",
                "ruleset": floor.table.ruleset_id,
                "seats": 5,
                "chip_denominations": ["1000"],
                "limits": {"single": {"min_stake": "1000", "max_stake": "2000"}},
            },
        ),
        (manager.patch, f"/api/v1/tables/{floor.table.pk}/", {"seats": 5, "limits": {}}),
        (manager.patch, f"/api/v1/players/{player['id']}/", {"name": "Q", "status": "active"}),
        (supervisor.post, f"/api/v1/sessions/{session_id}/close/", {"closing_chips": {}}),
    ]
    statuses = set()
    for send, url, body in calls:
        for junk in [*JUNK, *_mutations(body)]:
            response = send(url, junk)
            statuses.add(response.status_code)
            assert response.status_code < 500, (url, junk, response.content)
            if response.status_code >= 400:
                error_of(response)
    assert 400 in statuses


def test_a_refusal_is_said_in_the_clients_language_with_the_same_words_as_the_console(
    dealer, session_id
):
    def post(*boxes, language="vi"):
        body = {"session": session_id, "dealer_cards": NIU_8, "boxes": list(boxes)}
        return dealer.post("/api/v1/rounds/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)

    # the floor's rule (casino.floor.services.rounds.check_stake) and the game's (Niu Niu's Single)
    low = post(box(1, NIU_9, single="5000"))
    assert error_of(low) == (400, "invalid", "boxes[0].bets.single")
    assert low.json()["detail"] == "tiền cược 5,000 dưới mức tối thiểu của bàn 10,000"
    alone = post(box(1, NIU_9, double="100000"))
    assert alone.json()["detail"] == "ô 1: cược double cần có Cược Đơn trên cùng ô"
    english = post(box(1, NIU_9, double="100000"), language="en")
    assert english.json()["detail"] == "box 1: a double bet needs a single bet on the same box"

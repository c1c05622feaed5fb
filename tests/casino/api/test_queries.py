"""Dealing and settling through the API cost as many queries for one box as for five.

Counted with token authentication (one statement: the token, its user and the user's roles
and venues) and with the ruleset snapshot already cached by an earlier round, as at a live
table.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from casino.staff.logins import token_issue
from tests.casino.api import NIU_8, NIU_9, OTHER_HANDS, box, open_session, round_body, settle
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

#: Round create: auth 1, lock (which also tells a session at another venue) + limits +
#: players + version 4, number 1, round, boxes, bets (with the outcome evaluated now), audit
#: 4 (one INSERT each, whatever the number of boxes), the savepoint 2; the answer is built
#: from what was written.
CREATE_QUERIES = 12
#: Settle: auth 1, lock (which also tells a round at another venue) + boxes + bets 3
#: (nothing is evaluated: the bets carry their outcome), ledger 1 (one INSERT), round 1, the
#: reports' tallies 2 (one upsert each), the integrity tallies 2 (one upsert each for
#: categories and cards; the session's shift, for their gaming date, comes with the lock),
#: audit 1, the savepoint 2 (the service's own; a refused key needs none of its own); the
#: answer is built from what was read.
SETTLE_QUERIES = 13


@pytest.mark.parametrize("boxes", [1, 5])
def test_deal_and_settle_queries_do_not_grow_with_boxes(
    floor, boxes, django_assert_max_num_queries
):
    client = APIClient()
    _token, key = token_issue(user=floor.dealer, device="NN1-tablet")
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    session_id = open_session(client, floor.table.pk)["id"]
    players = PlayerFactory.create_batch(boxes, venue=floor.venue)
    hands = (NIU_9, *OTHER_HANDS[1:])[:boxes]
    body = round_body(
        session_id,
        *(
            box(n, hand, player=player.pk, single="100000", double="100000")
            for n, (hand, player) in enumerate(zip(hands, players, strict=True), start=1)
        ),
        dealer=NIU_8,
    )
    assert client.post("/api/v1/rounds/", body).status_code == 201  # warms the snapshot

    with django_assert_max_num_queries(CREATE_QUERIES):
        dealt = client.post("/api/v1/rounds/", body)
    assert dealt.status_code == 201
    assert len(dealt.json()["boxes"]) == boxes

    with django_assert_max_num_queries(SETTLE_QUERIES):
        settled = settle(client, dealt.json()["id"], "key")
    assert settled.status_code == 200
    assert len(settled.json()["boxes"]) == boxes


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/venues/",
        "/api/v1/tables/",
        "/api/v1/players/",
        "/api/v1/rulesets/",
        "/api/v1/sessions/",
        "/api/v1/rounds/",
        "/api/v1/slips/",
        "/api/v1/audit/",
    ],
)
def test_a_list_costs_the_same_for_any_number_of_rows(floor, path, django_assert_max_num_queries):
    from tests.factories import niuniu_table

    dealer = APIClient()
    dealer.force_authenticate(floor.dealer)
    for code in ("NN2", "NN3", "NN4"):
        table = niuniu_table(floor.venue, code=code)
        session_id = open_session(dealer, table.pk)["id"]
        dealt = dealer.post(
            "/api/v1/rounds/", round_body(session_id, box(1, NIU_9, single="100000"))
        )
        settle(dealer, dealt.json()["id"], f"key-{code}")
        dealer.post(
            "/api/v1/slips/", {"session": session_id, "kind": "fill", "chips": {"100000": 1}}
        )
    PlayerFactory.create_batch(3, venue=floor.venue)

    auditor = APIClient()
    auditor.force_authenticate(floor.auditor)
    # The caller's roles and venues, the count, the page, and a table's limits.
    with django_assert_max_num_queries(5):
        response = auditor.get(path)
    assert response.status_code == 200
    assert response.json()["count"] >= 1

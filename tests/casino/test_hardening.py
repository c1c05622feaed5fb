"""Hardening checks that fit in ``make test``: races through the API on PostgreSQL, the API
fuzzed by schemathesis in-process, hypothesis on the card and bet parsers and the console's
forms, and a lost database answering 503 (the login lockout: ``tests/casino/logins/``).

The long versions run from the Makefile against gunicorn (``make races``, ``make fuzz``,
``make faults``, ``make loadtest``; see ``loadtest/``). ``HARDENING_EXAMPLES`` raises the
hypothesis budget of the fuzz tests here (``make fuzz`` sets it).
"""

from __future__ import annotations

import json
import os
import random
import threading

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from casino.api.unavailable import DatabaseUnavailableMiddleware
from casino.floor.models import Round, RoundStatus
from casino.kernel.cards import DECK, Card, format_cards, parse_cards
from casino.ledger.models import LedgerEntry
from casino.staff.logins import token_issue
from casino.staff.roles import MANAGER, grant
from loadtest.fuzz_checks import json_error_body
from tests.casino.api import (
    NIU_8,
    NIU_9,
    NO_NIU,
    OTHER_HANDS,
    box,
    client_for,
    deal,
    ledger_total,
    open_session,
    settle,
)

EXAMPLES = int(os.environ.get("HARDENING_EXAMPLES", "0")) or None
FUZZ = hypothesis_settings(
    max_examples=EXAMPLES or 60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=EXAMPLES is None,  # the suite is reproducible; `make fuzz` explores
)
UNAVAILABLE = "casino.api.unavailable.DatabaseUnavailableMiddleware"


# Races: the same round settled by ten requests at once, on ten connections


def _settle_together(user_id: int, round_keys: list[tuple[int, str]]) -> list:
    """One thread per (round, key), all released together; each with its own connection."""
    user = get_user_model().objects.get(pk=user_id)
    barrier = threading.Barrier(len(round_keys))
    answers: list = [None] * len(round_keys)

    def run(index: int) -> None:
        round_id, key = round_keys[index]
        try:
            client = client_for(user)
            barrier.wait(timeout=30)
            response = settle(client, round_id, key)
            answers[index] = (round_id, key, response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(round_keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


@pytest.mark.django_db(transaction=True)
def test_ten_requests_at_once_settle_each_round_exactly_once(floor):
    # given: 8 dealt rounds of five boxes
    dealer = client_for(floor.dealer)
    session_id = open_session(dealer, floor.table.pk)["id"]
    hands = [NIU_9, NO_NIU, *OTHER_HANDS[:3]]
    rounds = [
        deal(
            dealer,
            session_id,
            *(box(p + 1, hands[p], single="100000", double="50000") for p in range(5)),
            dealer=NIU_8,
        )["id"]
        for _n in range(8)
    ]
    # when: each round gets 10 settles at once (10 connections; a round at a time, so the
    # suite never holds more): 5 repeat one key, 5 carry their own
    answers = []
    for round_id in rounds:
        keys = [f"{round_id}-same"] * 5 + [f"{round_id}-own-{n}" for n in range(5)]
        random.Random(round_id).shuffle(keys)
        answers += _settle_together(floor.dealer.pk, [(round_id, key) for key in keys])

    # then: one settlement per round; 200 for its key (all alike), 409 for the others
    assert all(answer is not None for answer in answers)
    settled = {r.pk: r for r in Round.objects.filter(pk__in=rounds)}
    assert {r.status for r in settled.values()} == {RoundStatus.SETTLED}
    for round_id in rounds:
        mine = [a for a in answers if a[0] == round_id]
        winner = settled[round_id].settle_key
        assert winner in {key for _r, key, _s, _b in mine}
        assert {s for _r, k, s, _b in mine if k == winner} == {200}
        assert {s for _r, k, s, _b in mine if k != winner} <= {409}
        bodies = {json.dumps(b, sort_keys=True) for _r, _k, s, b in mine if s == 200}
        assert len(bodies) == 1
        assert ledger_total(round_id=round_id) == 0
        assert LedgerEntry.objects.filter(round_id=round_id).count() > 0
    assert ledger_total() == 0  # money is conserved
    # the ledger balances, and the reports' tallies hold each round once
    call_command("audit_ledger", "--tallies", stdout=open(os.devnull, "w"))  # noqa: SIM115


# The API fuzzed by schemathesis, in-process (the long run: `make fuzz`)


def _api_schema():
    # Loaded when the module is collected (schemathesis' lazy fixture loader does not work
    # with this pytest), so with no database to log in with: the schema /api/schema/ serves
    # to a signed-in caller, made by the same generator; the calls go to the app in-process
    # (its WSGI client says "localhost").
    from django.core.wsgi import get_wsgi_application
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    # The coverage phase (every boundary of every field) is `make fuzz`'s; here, examples
    # and fuzzing keep the run short.
    config = schemathesis.Config.from_dict({"phases": {"coverage": {"enabled": False}}})
    raw = SchemaGenerator().get_schema(request=None, public=True)
    schema = schemathesis.openapi.from_dict(
        json.loads(OpenApiJsonRenderer().render(raw)), config=config
    )
    schema.app = get_wsgi_application()
    schema.location = "/api/schema/"
    return schema


api = _api_schema()


@pytest.fixture
def keep_connection():
    """Keep the test's connection (and its transaction) across WSGI requests: Django closes
    connections when a request starts and ends, which its test client prevents the same way
    (and undoes after each of its requests)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_token(floor, settings):
    """A token of a user with every floor role that writes, and a floor with data."""
    settings.ALLOWED_HOSTS = ["*"]
    dealer = client_for(floor.dealer)
    session_id = open_session(dealer, floor.table.pk)["id"]
    dealt = deal(dealer, session_id, box(1, NIU_9, single="100000"))
    settle(dealer, dealt["id"], "fuzz")
    deal(dealer, session_id, box(2, NO_NIU, single="100000"))
    grant(floor.supervisor, floor.venue, MANAGER)
    return token_issue(user=floor.supervisor, device="fuzz")[1]


@pytest.mark.django_db
@api.parametrize()
@hypothesis_settings(
    max_examples=EXAMPLES or 6,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=EXAMPLES is None,
)
def test_every_api_operation_answers_without_server_error(case, fuzz_token, keep_connection):
    # keep_connection after fuzz_token: Django's test client reconnects what it removes.
    response = case.call(headers={"Authorization": f"Token {fuzz_token}"})
    case.validate_response(response, checks=[not_a_server_error, json_error_body])


# Hypothesis on the card parser (examples are in test_cards.py)


SPELLINGS = {
    "rank": {"T": ["T", "t", "10"], **{r: [r, r.lower()] for r in "A23456789JQK"}},
    "suit": {
        "S": ["S", "s", "♠"],
        "H": ["H", "h", "♥"],
        "C": ["C", "c", "♣"],
        "D": ["D", "d", "♦"],
    },
}


@st.composite
def typed_hands(draw) -> tuple[tuple[Card, ...], str]:
    """Distinct cards and one way a dealer might type them."""
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=10, unique=True))
    words = []
    for card in cards:
        text = str(card)
        rank = draw(st.sampled_from(SPELLINGS["rank"][text[0]]))
        suit = draw(st.sampled_from(SPELLINGS["suit"][text[1]]))
        words.append(rank + suit)
    separators = draw(
        st.lists(
            st.sampled_from([" ", ",", ", ", "  ", "\t", "\n"]),
            min_size=len(words),
            max_size=len(words),
        )
    )
    text = "".join(word + sep for word, sep in zip(words, separators, strict=True))
    padding = draw(st.sampled_from(["", " ", "\n"]))
    return tuple(cards), padding + text


@given(typed_hands())
@FUZZ
def test_any_spelling_of_distinct_cards_parses_back_to_them(hand):
    cards, text = hand
    assert parse_cards(text) == cards
    assert parse_cards(format_cards(cards)) == cards


@given(st.text(max_size=60) | st.text(alphabet="AKQJT98765432shcd10 ,♠♥♣♦\ufe0f", max_size=30))
@FUZZ
def test_any_text_parses_to_cards_or_a_value_error_naming_it(text):
    try:
        cards = parse_cards(text)
    except ValueError as error:
        assert str(error)
    else:
        assert all(isinstance(card, Card) for card in cards)
        assert parse_cards(format_cards(cards)) == cards


# Hypothesis on bet input through the API


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(
        [
            "NaN",
            "Infinity",
            "-1",
            "0",
            "1e400",
            "1E-400",
            "100000.001",
            "１００",
            "",
            " 100 ",
            "0x10",
        ]
    ),
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
BET_TYPES = st.sampled_from(["single", "double", "super", "bonus", "", "SINGLE", "x" * 40])


@pytest.fixture
def dealer_session(floor):
    dealer = client_for(floor.dealer)
    return dealer, open_session(dealer, floor.table.pk)["id"]


@pytest.mark.django_db
@given(
    bets=st.dictionaries(BET_TYPES | st.text(max_size=8), JUNK, max_size=4),
    deposits=st.one_of(st.none(), st.dictionaries(BET_TYPES, JUNK, max_size=3), JUNK),
)
@FUZZ
def test_any_bet_input_is_refused_with_a_json_error_or_dealt(dealer_session, bets, deposits):
    dealer, session_id = dealer_session
    body = {"position": 1, "cards": NIU_9, "bets": bets}
    if deposits is not None:
        body["deposits"] = deposits
    response = dealer.post(
        "/api/v1/rounds/",
        {"session": session_id, "dealer_cards": NIU_8, "boxes": [body]},
        format="json",
    )
    assert response.status_code in (201, 400), response.content
    if response.status_code == 400:
        error = response.json()
        assert set(error) == {"error", "detail", "field"}
        assert error["error"] == "invalid" and error["detail"]


# Junk into every console form


CONSOLE_FIELDS = [
    "key",
    "digest",
    "dealer-cards",
    "reason",
    "supervisor",
    "password",
    "drop",
    "kind",
    "seen",
    "next",
    "language",
    "box",
    "round",
    "list",
    *(
        f"box-{p}-{f}"
        for p in range(0, 7)
        for f in ("cards", "member", "single", "double", "super")
    ),
    *(f"chips-{d}" for d in ("1000000", "100000", "10000", "1000", "5", "abc")),
]
FORM_VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "ks qh 10d 3c 7s",
            "KS KS KS KS KS",
            "1,000,000",
            "-5",
            "1e9",
            "99999999999999999999",
            "fill",
            "credit",
            "supervisor",
            "https://evil.example/",
            "//evil",
            "0",
            "6",
        ]
    ),
)
CONSOLE_ROUTES = [
    ("get", "/console/"),
    ("post", "/console/language/venue/"),
    ("get", "/console/tables/{table}/open/"),
    ("post", "/console/tables/{table}/open/"),
    ("get", "/console/sessions/{session}/"),
    ("get", "/console/sessions/{session}/hand/"),
    ("get", "/console/sessions/{session}/stakes/"),
    ("get", "/console/sessions/{session}/player/"),
    ("post", "/console/sessions/{session}/preview/"),
    ("post", "/console/sessions/{session}/confirm/"),
    ("get", "/console/sessions/{session}/history/"),
    ("get", "/console/sessions/{session}/rounds/{round}/"),
    ("post", "/console/sessions/{session}/rounds/{round}/void/"),
    ("get", "/console/sessions/{session}/slips/"),
    ("post", "/console/sessions/{session}/slips/"),
    ("get", "/console/sessions/{session}/close/"),
    ("post", "/console/sessions/{session}/close/"),
]


@pytest.fixture
def console(floor):
    dealer = client_for(floor.dealer)
    session_id = open_session(dealer, floor.table.pk)["id"]
    round_id = deal(dealer, session_id, box(1, NIU_9, single="100000"))["id"]
    settle(dealer, round_id, "console-fuzz")
    client = Client()
    client.force_login(floor.dealer)
    ids = {"table": floor.table.pk, "session": session_id, "round": round_id}
    # Junk supervisor logins (void, close) count as failed logins; the next test starts
    # with an empty cache (tests/conftest.py), so they lock no one out there.
    return client, ids


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "route"), CONSOLE_ROUTES, ids=[f"{m} {r}" for m, r in CONSOLE_ROUTES]
)
@given(
    data=st.dictionaries(
        st.sampled_from(CONSOLE_FIELDS) | st.text(max_size=10), FORM_VALUES, max_size=12
    ),
    htmx=st.booleans(),
)
@hypothesis_settings(
    max_examples=EXAMPLES or 15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=EXAMPLES is None,
)
def test_junk_in_any_console_form_is_refused_not_a_server_error(console, method, route, data, htmx):
    client, ids = console
    url = route.format(**ids)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = getattr(client, method)(url, data, **headers)
    assert response.status_code < 500, (url, data, response.content[:500])


@pytest.mark.django_db
@pytest.mark.parametrize("route", ["preview", "confirm"])
def test_a_nul_byte_in_a_member_number_is_refused_not_a_server_error(console, route):
    client, ids = console
    url = f"/console/sessions/{ids['session']}/{route}/"
    response = client.post(url, {"box-1-member": "M\x0001"}, HTTP_HX_REQUEST="true")
    assert response.status_code < 500


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "data"),
    [
        ("get", "hand/", {"box": "²"}),
        ("get", "history/", {"round": "²"}),
        ("post", "slips/", {"kind": "fill", "seen": "²", "chips-1000000": "1"}),
        ("post", "slips/", {"kind": "fill", "seen": "0", "chips-1000000": "²"}),
    ],
    ids=["hand-box", "history-round", "slips-seen", "slips-chips"],
)
def test_a_superscript_digit_is_refused_not_a_server_error(console, method, path, data):
    client, ids = console
    url = f"/console/sessions/{ids['session']}/{path}"
    response = getattr(client, method)(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code < 500


# A lost database answers 503 with the API's error body


def test_the_settings_answer_a_lost_database_and_replace_dead_connections():
    from django.conf import settings as django_settings

    middleware = django_settings.MIDDLEWARE
    # outside the session's middleware; inside the request log (its 503s have their line)
    assert middleware.index(UNAVAILABLE) < middleware.index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )
    assert middleware[:2] == [
        "casino.kernel.logs.RequestLogMiddleware",
        "django.middleware.security.SecurityMiddleware",
    ]
    assert django_settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_a_lost_database_answers_503_json_under_the_api():
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().post("/api/v1/rounds/1/settle/")
    response = middleware.process_exception(request, OperationalError("server closed"))
    assert response.status_code == 503
    assert response["Retry-After"]
    assert set(json.loads(response.content)) == {"error", "detail", "field"}
    assert json.loads(response.content)["error"] == "unavailable"
    page = middleware.process_exception(RequestFactory().get("/console/"), OperationalError())
    assert page.status_code == 503
    assert middleware.process_exception(request, ValueError()) is None


@pytest.mark.django_db
def test_the_api_answers_503_when_the_database_drops_mid_request(floor, monkeypatch):
    from casino.floor.api import rounds

    def dropped(**kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(rounds, "round_settle_written", dropped)
    response = client_for(floor.dealer).post("/api/v1/rounds/1/settle/", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 503
    assert response.json()["error"] == "unavailable"

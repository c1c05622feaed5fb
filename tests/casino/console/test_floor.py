"""Pits and the floor view: who sees which pit, every table live in a constant number of
queries, the alerts, and the limits' schedule (in force from its time, on notice only,
shown on the round screen and the floor)."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from decimal import Decimal as D
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from casino.audit.models import AuditEvent
from casino.cage.services.slips import slip_request
from casino.floor.console import floor as floor_view
from casino.floor.console.floor_selectors import IDLE, SLIP_WAITING, VOID_PENDING, pit_floor
from casino.floor.models import TableSession
from casino.floor.services.limits import limit_change_schedule
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void_request
from casino.kernel.errors import InvalidInput
from casino.kernel.registry import game_name
from casino.kernel.timezones import venue_zone
from casino.staff.roles import DEALER
from casino.venues.limits import (
    TABLES_AT_ONCE,
    Limit,
    limits_in_force,
    table_upcoming_changes,
    upcoming_changes,
)
from casino.venues.models import Table, TableLimit
from casino.venues.services.pits import pit_create
from tests.casino.charts import chart_of
from tests.casino.services.test_rounds import NIU_9, box, deal
from tests.factories import staff

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def signed_in(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def pit(floor):
    return pit_create(
        user=floor.manager,
        venue=floor.venue,
        code="P1",
        name="Main pit",
        supervisors=[floor.supervisor],
        tables=[floor.table],
    )


def article(page: str, code: str) -> str:
    return re.search(rf'<article[^>]*aria-label="Table {code}".*?</article>', page, re.S).group(0)


def test_a_pits_supervisor_and_the_manager_see_it_others_do_not(client, floor, pit, session):
    assert AuditEvent.objects.filter(action="pit.create", object_id=str(pit.pk)).exists()
    url = reverse("console:pit", args=[pit.pk])
    for user in (floor.supervisor, floor.manager):
        listing = signed_in(client, user).get(reverse("console:pits")).content.decode()
        assert url in listing
        page = client.get(url).content.decode()
        assert 'hx-trigger="every 5s"' in page
        assert "dealer" in article(page, "NN1")
        svg = chart_of(page, "floor-win-chart")
        assert "Win by ledger per open table" in svg and ">NN1<" not in svg.split("</desc>")[0]
    # a supervisor of the venue who does not run this pit
    assert (
        url
        not in signed_in(client, floor.supervisor2).get(reverse("console:pits")).content.decode()
    )
    assert client.get(url).status_code == 403
    assert signed_in(client, floor.other_supervisor).get(url).status_code == 404
    signed_in(client, floor.dealer)
    assert client.get(url).status_code == 403
    assert client.get(reverse("console:pits")).status_code == 403


def _tables(floor, pit, shift, count, start=0):
    """``count`` more open tables in the pit, made as the table the floor has (codes from
    ``start`` on)."""
    template = floor.table
    tables = Table.objects.bulk_create(
        Table(
            venue=template.venue,
            code=f"T{n:03d}",
            game=template.game,
            ruleset=template.ruleset,
            seats=template.seats,
            chip_denominations=template.chip_denominations,
            pit=pit,
        )
        for n in range(start, start + count)
    )
    TableLimit.objects.bulk_create(
        TableLimit(table=t, bet_type="single", min_stake=D(10000), max_stake=D(1000000))
        for t in tables
    )
    TableSession.objects.bulk_create(
        TableSession(
            table=t,
            shift=shift,
            dealer=floor.dealer,
            opened_by=floor.dealer,
            opened_at=timezone.now(),
            opening_chips={},
            opening_total=D(0),
        )
        for t in tables
    )


def test_a_floor_of_a_turn_of_tables_costs_the_queries_of_one(client, floor, pit, session):
    """A pit of up to ``TABLES_AT_ONCE`` tables costs the statements of one; 100 tables
    read their sessions, limits and scheduled changes in three turns each."""
    round_, _result = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="k1")
    signed_in(client, floor.supervisor)
    url = reverse("console:pit", args=[pit.pk])
    client.get(url, **HX)  # the login's own reads
    with CaptureQueriesContext(connection) as one:
        client.get(url, **HX)
    _tables(floor, pit, session.shift, TABLES_AT_ONCE - 1)
    with CaptureQueriesContext(connection) as turn:
        page = client.get(url, **HX).content.decode()
    assert page.count("<article") == TABLES_AT_ONCE
    assert len(turn) == len(one), [q["sql"] for q in turn.captured_queries]
    _tables(floor, pit, session.shift, 100 - TABLES_AT_ONCE, start=TABLES_AT_ONCE)
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as hundred:
        page = client.get(url, **HX).content.decode()
    took = time.perf_counter() - started
    assert page.count("<article") == 100
    assert "1" in re.search(r"data-rounds>(\d+)<", article(page, "NN1")).group(0)
    turns = -(-100 // TABLES_AT_ONCE)
    assert len(hundred) == len(one) + 3 * (turns - 1), [q["sql"] for q in hundred.captured_queries]
    print(f"bench floor: 100 tables, {len(hundred)} queries, {took * 1000:.0f} ms")


def test_the_alerts_idle_pending_void_and_fill_waiting(floor, pit, session):
    (row,) = pit_floor(pit=pit).tables
    assert row.alerts == [] and row.is_open
    later = timezone.now() + timedelta(minutes=settings.FLOOR_IDLE_MINUTES + 1)
    assert pit_floor(pit=pit, now=later).tables[0].alerts == [IDLE]

    round_, _result = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_, _result = round_settle(round_=round_, user=floor.dealer, key="k1")
    round_void_request(round_=round_, user=floor.dealer, reason="wrong cards")
    slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 2})
    (row,) = pit_floor(pit=pit).tables
    assert row.alerts == [VOID_PENDING]
    assert (row.rounds, row.voids_pending, row.fills_pending) == (1, 1, 1)
    assert row.win == round_.house_net == -D(95000)  # the player's Niu 9 beat the Niu 8
    waited = timezone.now() + timedelta(minutes=settings.FLOOR_SLIP_WAIT_MINUTES + 1)
    assert SLIP_WAITING in pit_floor(pit=pit, now=waited).tables[0].alerts


def test_a_change_of_limits_is_in_force_from_its_time_and_needs_notice(floor, pit, session):
    now = timezone.now()
    table = floor.table
    with pytest.raises(InvalidInput) as refused:
        limit_change_schedule(
            user=floor.supervisor,
            table=table,
            bet_type="single",
            min_stake=D(20000),
            max_stake=D(5000000),
            effective_at=now + timedelta(minutes=5),
            reason="high limit",
        )
    assert refused.value.reason == "notice_too_short"
    assert "30 minutes' notice" in refused.value.message
    from_ = now + timedelta(hours=1)
    limit_change_schedule(
        user=floor.supervisor,
        table=table,
        bet_type="single",
        min_stake=D(20000),
        max_stake=D(20000000),
        effective_at=from_,
        reason="high limit evening",
    )
    assert limits_in_force([table.pk], now)[table.pk]["single"].max_stake == D(10000000)
    assert limits_in_force([table.pk], from_)[table.pk]["single"].max_stake == D(20000000)
    # not yet in force: a round above the old maximum is refused
    with pytest.raises(InvalidInput):
        deal(session, floor.dealer, box(1, NIU_9, single="15000000"))
    # once in force (scheduled in the past, as if an hour went by), the round takes it
    limit_change_schedule(
        user=floor.supervisor,
        table=table,
        bet_type="double",
        min_stake=D(20000),
        max_stake=D(6000000),
        effective_at=now - timedelta(minutes=1),
        reason="evening",
        now=now - timedelta(hours=1),
    )
    deal(
        session,
        floor.dealer,
        box(1, NIU_9, single="100000", double="6000000", deposits={"double": "18000000"}),
    )
    assert AuditEvent.objects.filter(action="table_limit.schedule").count() == 2
    # the API says both: the limits as set, and those stakes are checked against now
    api = APIClient()
    api.force_authenticate(floor.supervisor)
    answer = api.get(reverse("api:table-detail", args=[table.pk])).json()
    assert answer["limits"]["double"]["max_stake"] == "5000000.00"
    assert answer["limits_in_force"]["double"]["max_stake"] == "6000000.00"
    assert answer["limits_in_force"]["single"]["max_stake"] == "10000000.00"  # not yet
    # the round screen's one-table read of what is scheduled gives what the floor's gives
    for at in (now - timedelta(hours=2), now, from_, from_ + timedelta(seconds=1)):
        kept = upcoming_changes([table.pk], at).get(table.pk, [])
        assert [c.pk for c in table_upcoming_changes(table.pk, at)] == [c.pk for c in kept]
    assert [c.effective_at for c in table_upcoming_changes(table.pk, now)] == [from_]


def test_the_round_screen_and_the_floor_show_the_upcoming_change(client, floor, pit, session):
    at = (
        (timezone.now() + timedelta(days=1))
        .astimezone(venue_zone(floor.venue))
        .replace(hour=22, minute=0, second=0, microsecond=0)
    )
    limit_change_schedule(
        user=floor.manager,
        table=floor.table,
        bet_type="single",
        min_stake=D(20000),
        max_stake=D(5000000),
        effective_at=at,
        reason="evening",
    )
    signed_in(client, floor.dealer)
    screen = client.get(reverse("console:round", args=[session.pk])).content.decode()
    assert "From 22:00" in screen and "20,000–5,000,000" in screen.replace(".", ",")
    signed_in(client, floor.supervisor)
    page = client.get(reverse("console:pit", args=[pit.pk])).content.decode()
    assert "From 22:00" in article(page, "NN1")


def test_the_floor_schedules_a_change_and_says_why_not(client, floor, pit):
    signed_in(client, floor.supervisor)
    url = reverse("console:limit-schedule", args=[pit.pk])
    soon = timezone.localtime(timezone.now() + timedelta(minutes=2)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "table": floor.table.pk,
        "bet_type": "single",
        "min_stake": "20,000",
        "max_stake": "5,000,000",
        "effective_at": soon,
        "reason": "evening",
    }
    refused = client.post(url, data)
    assert refused.status_code == 422 and "notice" in refused.content.decode()
    later = timezone.now() + timedelta(hours=2)
    data["effective_at"] = later.astimezone(venue_zone(floor.venue)).strftime("%Y-%m-%dT%H:%M")
    done = client.post(url, data)
    assert done.status_code == 303
    assert floor.table.limit_changes.get().max_stake == D(5000000)


def test_a_manager_sets_a_pit_up_in_the_admin(client, floor):
    client.force_login(floor.manager)
    answer = client.post(
        reverse("admin:venues_pit_add"),
        {
            "venue": floor.venue.pk,
            "code": "P2",
            "name": "High limit",
            "supervisors": [floor.supervisor2.pk],
            "tables": [floor.table.pk],
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    pit = floor.table.__class__.objects.get(pk=floor.table.pk).pit
    assert (pit.code, list(pit.supervisors.all())) == ("P2", [floor.supervisor2])
    assert AuditEvent.objects.filter(action="pit.create", object_id=str(pit.pk)).exists()
    # a dealer is no supervisor: the service refuses to name them
    answer = client.post(
        reverse("admin:venues_pit_change", args=[pit.pk]),
        {"name": "High limit", "supervisors": [floor.dealer.pk], "tables": [floor.table.pk]},
    )
    assert answer.status_code == 200 and not pit.supervisors.filter(pk=floor.dealer.pk).exists()


#: The floor view's limits as its template wrote them before ``floor_limits`` drew them.
LIMITS_LOOP = (
    "{% load i18n console_tags %}{% for limit in limits %}"
    '<span class="floor-limit">{{ limit.bet_type }} {{ limit.min_stake|money:venue }}–'
    "{{ limit.max_stake|money:venue }}</span>{% if not forloop.last %}; {% endif %}"
    '{% empty %}{% translate "none set" %}{% endfor %}'
)


@pytest.mark.parametrize("grouping", ["dot", "comma"])
@pytest.mark.parametrize("language", ["en", "vi", "ko", "pt"])
def test_the_floor_writes_a_tables_limits_and_game_as_the_template_did(floor, grouping, language):
    """``floor_limits`` and ``game_name`` draw in one call what the template's loop and
    ``get_game_display`` drew: the same markup, amounts and words, in every language."""
    floor.venue.amount_grouping = grouping
    sets = [
        [],
        [Limit("single", D(10000), D(1000000))],
        [Limit("double", D("2500.5"), D(5000000)), Limit("<b>", D(0), D("12.25"))],
    ]
    with translation.override(language):
        for limits in sets:
            context = {"limits": limits, "venue": floor.venue}
            drawn = Template("{% load console_tags %}{% floor_limits limits venue %}")
            assert drawn.render(Context(context)) == Template(LIMITS_LOOP).render(Context(context))
        for game in ("niuniu", "maubinh", "baccarat", "blackjack", "roulette", "gone"):
            table = Table(game=game)
            assert game_name(table.game) == str(table.get_game_display())
    assert "&lt;b&gt;" in Template("{% load console_tags %}{% floor_limits limits venue %}").render(
        Context({"limits": sets[2], "venue": floor.venue})
    )


def cards_of(page: str) -> str:
    return re.search(r'<div class="floor-tables">.*?</div>\s*<p class="note"', page, re.S).group(0)


@pytest.fixture
def fresh_cards(monkeypatch):
    """The floor view's kept cards, empty for the test (``floor_view._CARDS``)."""
    kept = LocMemCache("test-floor-cards", {"OPTIONS": {"MAX_ENTRIES": 1000}})
    kept.clear()  # a local-memory cache's entries are its name's, in this process
    monkeypatch.setattr(floor_view, "_CARDS", kept)
    return kept


def test_a_card_kept_is_the_card_drawn_afresh(client, floor, pit, session, fresh_cards):
    """Every state a card shows (a table open with a round, a pending void and a waiting
    fill; a closed table; an accounting-only one), drawn from what was kept and drawn anew,
    is the same markup; the second poll draws none."""
    round_, _result = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_, _result = round_settle(round_=round_, user=floor.dealer, key="k1")
    round_void_request(round_=round_, user=floor.dealer, reason="wrong cards")
    slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 2})
    _tables(floor, pit, session.shift, 2)
    Table.objects.filter(code="T001").update(game="tablegames")
    TableSession.objects.filter(table__code="T000").update(status=TableSession.Status.CLOSED)
    signed_in(client, floor.supervisor)
    url = reverse("console:pit", args=[pit.pk])
    first = cards_of(client.get(url, **HX).content.decode())
    assert len(fresh_cards._cache) == 3
    assert "wrong cards" not in first and "data-rounds>1<" in first
    assert "A void waits for approval" in first and "Closed" in first
    assert "by count, at the count" in first  # an accounting-only table: its drop, no win
    drawn = []
    real_get = floor_view.get_template

    class Counted:
        def __init__(self, name):
            self.template = real_get(name)

        def render(self, context):
            drawn.append(context["row"].table.code)
            return self.template.render(context)

    with mock.patch.object(floor_view, "get_template", Counted):
        kept = cards_of(client.get(url, **HX).content.decode())
        assert drawn == []
        relief = staff("relief-dealer", DEALER, floor.venue)
        TableSession.objects.filter(pk=session.pk).update(dealer=relief)
        assert "relief-dealer" in cards_of(client.get(url, **HX).content.decode())
        assert drawn == ["NN1"]  # the one card whose dealer changed
        TableSession.objects.filter(pk=session.pk).update(dealer=floor.dealer)
    assert kept == first
    fresh_cards.clear()
    assert cards_of(client.get(url, **HX).content.decode()) == first


def test_a_card_is_drawn_again_when_what_it_shows_changes(client, floor, pit, session, fresh_cards):
    signed_in(client, floor.supervisor)
    url = reverse("console:pit", args=[pit.pk])
    round_, _result = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="k1")
    assert "data-rounds>1<" in article(client.get(url, **HX).content.decode(), "NN1")
    round_, _result = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_, _result = round_settle(round_=round_, user=floor.dealer, key="k2")
    shown = article(client.get(url, **HX).content.decode(), "NN1")
    assert "data-rounds>2<" in shown and "A void waits" not in shown
    round_void_request(round_=round_, user=floor.dealer, reason="wrong cards")
    assert "A void waits for approval" in article(client.get(url, **HX).content.decode(), "NN1")
    floor.dealer.username = "dealer-renamed"
    floor.dealer.save(update_fields=["username"])
    assert "dealer-renamed" in article(client.get(url, **HX).content.decode(), "NN1")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    floor.venue.language = "vi"
    floor.venue.save(update_fields=["language"])
    with translation.override("vi"):
        dealer_vi = str(translation.pgettext("staff role", "Dealer"))
    page = client.get(url, **HX).content.decode()
    assert dealer_vi != "Dealer" and f"<dt>{dealer_vi}</dt>" in page
    assert len(fresh_cards._cache) == 5  # one card a state shown

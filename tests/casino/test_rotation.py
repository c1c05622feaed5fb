"""Dealer rotation: a relief at an open table, who deals after it, and where its rounds count."""

from __future__ import annotations

import importlib
from decimal import Decimal as D
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

import casino.migrations
from casino.floor.models import BetTally, Round, TableSession
from casino.floor.rotation_selectors import dealer_on_duty, with_dealer_on_duty
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.rotation import dealer_relieve
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.tallies import tally_differences, tally_rebuild
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.reports.figures import shift_figures
from casino.reports.services import report_request
from casino.simulation import chips_for
from casino.staff.roles import DEALER
from casino.venues.models import DealerSpell
from tests.factories import niuniu_table, staff
from tests.migration_state import models_as_of

pytestmark = pytest.mark.django_db

NIU_9 = "KS QS 5H 4H TC"  # player: Niu 9
NIU_8 = "JS QH JD AC 7H"  # dealer: Niu 8
OPENING = {"100000": 50}


def deal(session, user, key=None):
    round_, _result = round_create(
        session=session,
        user=user,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    if key:
        round_settle(round_=round_, user=user, key=key)
    return round_


@pytest.fixture
def dealer2(floor):
    return staff("dealer2", DEALER, floor.venue)


def test_a_relief_mid_session_splits_its_rounds_between_the_two_dealers(floor, session, dealer2):
    first = deal(session, floor.dealer, key="s1")
    spell = dealer_relieve(session=session, dealer=dealer2, by=floor.supervisor)
    # the relieved dealer no longer deals at this table; the incoming one does
    with pytest.raises(Forbidden) as refused:
        deal(session, floor.dealer)
    assert refused.value.reason == "not_on_duty"
    assert "dealer2 is the dealer on duty" in refused.value.message
    second = deal(session, dealer2, key="s2")
    third = deal(session, dealer2, key="s3")

    dealers = [r.dealer_id for r in (first, second, third)]
    assert dealers == [floor.dealer.pk, dealer2.pk, dealer2.pk]
    assert dealer_on_duty(session) == dealer2
    annotated = with_dealer_on_duty(TableSession.objects.filter(pk=session.pk)).get()
    assert (annotated.on_duty_username, annotated.on_duty_since) == ("dealer2", spell.started_at)
    spells = list(DealerSpell.objects.filter(session=session).order_by("started_at", "pk"))
    assert [(s.dealer_id, s.ended_reason, s.relieved_by_id) for s in spells] == [
        (floor.dealer.pk, DealerSpell.End.BREAK, floor.supervisor.pk),
        (dealer2.pk, "", None),
    ]
    assert spells[0].ended_at == spells[1].started_at

    # the hour's tallies hold one row per dealer, and agree with the bets (rebuilt too)
    tallies = dict(BetTally.objects.filter(session=session).values_list("dealer_id", "bets"))
    assert tallies == {floor.dealer.pk: 1, dealer2.pk: 2}
    assert tally_differences(session.shift_id) == []
    tally_rebuild(session.shift_id)
    assert tally_differences(session.shift_id) == []

    figures = session_figures(session)
    tray = session.opening_total + figures["win_by_ledger"]
    session_close(
        session=session,
        counted_by=dealer2,
        confirmed_by=floor.supervisor,
        closing_chips=chips_for(tray, session.table.chip_denominations),
    )
    last = DealerSpell.objects.get(pk=spell.pk)
    assert last.ended_reason == DealerSpell.End.END and last.ended_at is not None
    assert dealer_on_duty(session) is None

    report = report_request(shift_id=session.shift_id, send=False)
    figures = shift_figures(report)
    dealers = {line["key"]: line for line in figures["dealers"]}
    assert (dealers["dealer"]["rounds"], dealers["dealer"]["handle"]) == (1, "100000.00")
    assert (dealers["dealer2"]["rounds"], dealers["dealer2"]["handle"]) == (2, "200000.00")
    (line,) = figures["count"]["sessions"]
    assert line["dealer"] == "dealer, dealer2"


def test_refused_reliefs_say_why(floor, session, dealer2):
    def refused(error, reason, **kwargs):
        with pytest.raises(error) as caught:
            dealer_relieve(session=session, **{"dealer": dealer2, "by": floor.supervisor} | kwargs)
        assert caught.value.reason == reason, caught.value.message
        return caught.value.message

    assert "only a supervisor" in refused(Forbidden, "not_supervisor", by=floor.dealer)
    message = refused(InvalidInput, "not_a_dealer", dealer=floor.auditor)
    assert "auditor is not a dealer at" in message
    assert "already the dealer on duty" in refused(Conflict, "already_on_duty", dealer=floor.dealer)
    # a round dealt and not settled is its dealer's to finish
    deal(session, floor.dealer)
    assert "round 1 is dealt and not settled" in refused(Conflict, "round_in_progress")
    Round.objects.filter(session=session).update(status="settled")
    other = session_open(
        table=niuniu_table(floor.venue, code="NN2"),
        counted_by=dealer2,
        confirmed_by=floor.supervisor,
        opening_chips=OPENING,
    )
    assert "dealer2 is on duty at table NN2" in refused(Conflict, "on_duty_elsewhere")
    TableSession.objects.filter(pk=session.pk).update(status=TableSession.Status.CLOSED)
    message = refused(Conflict, "session_closed", dealer=floor.supervisor2)
    assert "is closed" in message
    assert DealerSpell.objects.filter(session=session).count() == 1
    assert DealerSpell.objects.filter(session=other).count() == 1


def test_a_supervisor_records_a_relief_on_the_console(client, floor, session, dealer2):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("console:dealers", args=[session.pk])
    client.force_login(floor.dealer)
    page = client.get(reverse("console:round", args=[session.pk])).content.decode()
    assert "Dealer on duty: dealer" in page
    assert client.post(url, {"dealer": dealer2.pk}).status_code == 403

    client.force_login(floor.supervisor)
    page = client.get(reverse("console:round", args=[session.pk])).content.decode()
    assert f'href="{url}">Relief</a>' in page
    page = client.get(url).content.decode()
    assert 'aria-labelledby="relief-title"' in page and "Incoming dealer" in page
    answer = client.post(url, {"dealer": dealer2.pk, "reason": "relief"})
    assert answer.status_code == 200
    assert "Relief recorded: dealer2 deals at this table now." in answer.content.decode()
    assert TableSession.objects.get(pk=session.pk).dealer == dealer2
    assert DealerSpell.objects.get(session=session, dealer=floor.dealer).ended_reason == "relief"
    again = client.post(url, {"dealer": dealer2.pk})
    assert again.status_code == 409
    assert "dealer2 is already the dealer on duty at table NN1" in again.content.decode()
    unknown = client.post(url, {"dealer": floor.other_dealer.pk})
    assert unknown.status_code == 422
    assert "Choose the incoming dealer" in unknown.content.decode()


def test_the_migration_gives_each_session_a_spell_and_each_round_its_dealer(floor, session):
    round_ = deal(session, floor.dealer, key="s1")
    DealerSpell.objects.all().delete()
    Round.objects.filter(pk=round_.pk).update(dealer=floor.supervisor)
    (path,) = Path(casino.migrations.__file__).parent.glob("*_dealer_rotation.py")
    migration = importlib.import_module(f"casino.migrations.{path.stem}")
    # The models as the migration saw them (a spell was then ``casino.DealerSpell``).
    then = models_as_of("casino", path.stem)
    with connection.schema_editor(atomic=False) as editor:
        migration.spells_and_round_dealers(then, editor)
    assert Round.objects.get(pk=round_.pk).dealer_id == floor.dealer.pk
    (spell,) = DealerSpell.objects.filter(session=session)
    assert (spell.dealer_id, spell.started_at, spell.ended_at) == (
        floor.dealer.pk,
        session.opened_at,
        None,
    )

"""What the venues ask of the apps above them (casino/venues/hooks.py): the floor answers
which tables are open, the rulesets which ruleset a user names; a question nobody answers,
or answered twice, is a wiring error said as such."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.kernel.hooks import Hook
from casino.rulesets.models import Ruleset
from casino.venues import hooks
from casino.venues.models import Table
from tests.factories import niuniu_table

pytestmark = pytest.mark.django_db


def _open(floor, table):
    return session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


def test_the_floor_answers_which_tables_are_open(floor, django_assert_num_queries):
    # given: NN1 open, NN2 opened and closed, NN3 never opened, and a table at another venue open
    nn2 = niuniu_table(floor.venue, code="NN2")
    niuniu_table(floor.venue, code="NN3")
    session = _open(floor, floor.table)
    closed = _open(floor, nn2)
    session_close(
        session=closed,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
        variance_reason="none",
    )
    session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={"100000": 5},
    )
    # when / then: one query each, whatever the number of tables
    with django_assert_num_queries(1):
        assert hooks.open_tables(Table.objects.filter(venue=floor.venue)) == ["NN1"]
    with django_assert_num_queries(1):
        assert hooks.open_session_at(floor.table) == session.pk
    assert hooks.open_session_at(nn2) is None


def test_the_rulesets_answer_which_ruleset_a_user_names(floor):
    own = Ruleset.objects.create(venue=floor.venue, game="niuniu", code="own", name="Own")
    theirs = floor.other_table.ruleset
    assert hooks.ruleset_get(user=floor.manager, pk=own.pk) == own
    assert hooks.ruleset_get(user=floor.manager, pk=theirs.pk) is None


def test_a_question_nobody_answers_names_who_should():
    question = Hook("open_session", answered_by="casino.floor")
    with pytest.raises(ImproperlyConfigured, match=r"nothing answers open_session: casino\.floor"):
        question()


def test_a_question_has_one_answer():
    question = Hook("ruleset_get", answered_by="casino.rulesets")

    def answer() -> int:
        return 1

    question.register(answer)
    question.register(answer)  # the same answer again: an app made ready twice
    assert question() == 1
    with pytest.raises(ImproperlyConfigured, match="answered already"):
        question.register(lambda: 2)

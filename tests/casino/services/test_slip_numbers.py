"""Slip numbers under concurrent requests: many requests at once, from threads each with
its own database connection, at the venue's several tables, get sequential numbers with no
gap and no repeat (the number is allocated under a lock on the venue's row)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from casino.cage.models import Slip
from casino.cage.services.slips import slip_request
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from tests.factories import niuniu_table

pytestmark = pytest.mark.django_db(transaction=True)

TABLES, PER_TABLE = 4, 3


def test_concurrent_requests_are_numbered_in_sequence_without_gaps(floor):
    # given four open tables at one venue
    sessions = [
        session_open(
            table=niuniu_table(floor.venue, code=f"C{n}") if n else floor.table,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            opening_chips={"100000": 50},
        )
        for n in range(TABLES)
    ]
    jobs = [session.pk for session in sessions for _ in range(PER_TABLE)]
    start = threading.Barrier(len(jobs))
    numbers: list[int] = []
    errors: list[BaseException] = []

    def request(session_id: int) -> None:
        try:
            user = get_user_model().objects.get(pk=floor.dealer.pk)  # this thread's own
            session = TableSession.objects.get(pk=session_id)
            start.wait(timeout=30)
            slip = slip_request(session=session, user=user, kind="fill", chips={"1000": 1})
            numbers.append(slip.number)
        except BaseException as error:  # reported by the test below
            errors.append(error)
        finally:
            connection.close()

    # when every request is sent at once
    threads = [threading.Thread(target=request, args=(pk,)) for pk in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    # then each got its own number, 1 to 12 in the venue's year, none skipped
    assert errors == []
    assert sorted(numbers) == list(range(1, len(jobs) + 1))
    stored = list(Slip.objects.filter(venue=floor.venue).values_list("number", flat=True))
    assert sorted(stored) == list(range(1, len(jobs) + 1))
    assert {year for year in Slip.objects.values_list("year", flat=True)} == {
        Slip.objects.first().year
    }

"""Report reads on the replica alias, writes on the primary.

In tests the ``replica`` alias is Django's test mirror of the primary (the Makefile's
``REPLICA_DATABASE_URL``): the same test database on a second connection. That connection
sees only committed rows, so inside a ``TestCase``'s transaction it would see none of the
test's rows; these tests are transactional (``TransactionTestCase``) and ask for the alias.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connections, router
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.kernel import replicas
from casino.kernel.replicas import replica_reads
from casino.reports import outputs
from casino.reports.models import ShiftReportCell
from casino.reports.services import report_build, report_request
from casino.venues.models import Venue
from tests.casino.reports.conftest import night_shift
from tests.factories import VenueFactory

pytestmark = [
    pytest.mark.skipif(
        replicas.REPLICA not in settings.DATABASES, reason="REPLICA_DATABASE_URL not set"
    ),
    pytest.mark.django_db(transaction=True, databases=["default", "replica"]),
]
WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
CELLS = ShiftReportCell._meta.db_table


def _sql(captured: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in captured.captured_queries]


def test_a_report_builds_from_the_replica_and_the_dashboard_reads_it_there(client, monkeypatch):
    monkeypatch.setattr(outputs, "render_pdf", lambda figures, svgs: b"%PDF-1.7 stub")
    night = night_shift()
    report = report_request(shift_id=night.shift.pk, send=False)

    # when the report builds
    with (
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as primary,
    ):
        built = report_build(report_id=report.pk, email=False)

    # then its figures are whole (the replica held every round)
    assert built.figures["total"]["rounds"] == 6
    assert built.figures["total"]["house_win"] == "-1385000.00"
    on_replica, on_primary = _sql(replica), _sql(primary)
    # rounds counted, seat tallies, voids and sessions read on the replica...
    for table in ["casino_round", "casino_seattally", "casino_tablesession", "casino_slip"]:
        assert any(f'FROM "{table}"' in sql for sql in on_replica), table
    # ... never a write there, nor a read of the cells just written (not replicated yet)
    assert not [sql for sql in on_replica if WRITES.match(sql)]
    assert not [sql for sql in on_replica if CELLS in sql]
    # the cells written and rated on the primary, and read there
    assert any(sql.startswith(f'INSERT INTO "{CELLS}"') for sql in on_primary)
    assert any(sql.startswith(f'UPDATE "{CELLS}"') for sql in on_primary)
    assert any(f'FROM "{CELLS}"' in sql and "SUM(" in sql for sql in on_primary)
    assert not any('FROM "casino_seattally"' in sql for sql in on_primary)

    # when the dashboard renders
    client.force_login(night.floor.manager)
    url = reverse("reports:dashboard") + "?venue=hanoi&from=2026-11-28&to=2026-11-28"
    with (
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as primary,
    ):
        page = client.get(url).content.decode()
    # then its sums and its shifts come from the replica, and nothing else of it from the primary
    assert "-1,385,000" in page
    assert any(f'FROM "{CELLS}"' in sql for sql in _sql(replica))
    assert any('FROM "casino_shift"' in sql for sql in _sql(replica))
    assert not [sql for sql in _sql(primary) if CELLS in sql or '"casino_shift"' in sql]
    assert not [sql for sql in _sql(replica) if WRITES.match(sql)]


def test_writes_go_to_the_primary_and_reads_outside_the_block_too():
    with (
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as primary,
    ):
        Venue.objects.count()
        with replica_reads():
            assert router.db_for_write(Venue) == "default"
            VenueFactory(code="x1")
            inside = Venue.objects.filter(code="x1").count()
        after = Venue.objects.filter(code="x1").count()
    assert inside == after == 1
    on_replica = _sql(replica)
    assert len(on_replica) == 1 and on_replica[0].startswith("SELECT COUNT(*)")
    assert any(sql.startswith('INSERT INTO "casino_venue"') for sql in _sql(primary))
    assert len([sql for sql in _sql(primary) if sql.startswith("SELECT COUNT(*)")]) == 2


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
def test_with_the_replica_down_or_without_one_the_block_reads_the_primary(settings, monkeypatch):
    VenueFactory(code="x1")
    # given a replica that refuses connections (nothing listens on its port)
    replica = connections["replica"]
    replica.close()
    monkeypatch.setitem(replica.settings_dict, "HOST", "127.0.0.1")
    monkeypatch.setitem(replica.settings_dict, "PORT", "9")
    with replica_reads():
        assert replicas.read_alias() == "default"
        assert Venue.objects.filter(code="x1").count() == 1
    replica.close()

    # given no replica configured
    settings.DATABASES = {k: v for k, v in settings.DATABASES.items() if k != "replica"}
    with CaptureQueriesContext(connections["default"]) as primary, replica_reads():
        assert replicas.read_alias() == "default"
        assert Venue.objects.filter(code="x1").count() == 1
    assert len(primary.captured_queries) == 1

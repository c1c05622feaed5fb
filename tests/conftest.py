from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client
from django.utils import translation

from casino.floor.services.sessions import session_open
from casino.kernel import replicas
from casino.staff.roles import AUDITOR, CAGE, DEALER, MANAGER, SUPERVISOR
from tests.drills.template import name_the_run, remove_run_dir
from tests.factories import VenueFactory, niuniu_table, staff
from tests.schema import template_database
from tests.second_factor import force_login_verified

_replica_configured = replicas.replica_configured


def pytest_configure(config):
    """The run's id, for the drills' template to be one per run (tests/drills/template.py)."""
    name_the_run(config)


def pytest_collection_modifyitems(config, items):
    """The files of the slow tests first. `make test` hands its two workers a file at a time
    in this order (``--no-loadscope-reorder``); by default the files with most tests go
    first, so the slow ones, one or two tests a file, were handed out last, and one worker
    ran them one after another while the other had nothing left."""
    slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)  # stable: in order


def pytest_unconfigure(config):
    """The drills' template removed once the run is over, every worker's drills done."""
    remove_run_dir(config)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Each worker's test database made as a copy of the migrated schema's template
    (tests/schema.py), not migrated afresh."""
    default = settings.DATABASES["default"]
    if "postgresql" in default["ENGINE"]:
        default.setdefault("TEST", {})["TEMPLATE"] = template_database(default)


@pytest.fixture(autouse=True, scope="session")
def _reads_on_the_primary():
    """Reads go to the primary in tests (module fixtures included), but see below: the
    replica alias is Django's test mirror, a second connection, and inside a test's
    transaction (every test but the transactional ones) it sees none of the test's rows."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(replicas, "replica_configured", lambda: False)
        yield


@pytest.fixture(autouse=True)
def _replica_where_asked(request, monkeypatch):
    """A transactional test that asks for the replica alias reads from it."""
    marker = request.node.get_closest_marker("django_db")
    if (
        marker is not None
        and marker.kwargs.get("transaction")
        and replicas.REPLICA in (marker.kwargs.get("databases") or ())
    ):
        monkeypatch.setattr(replicas, "replica_configured", _replica_configured)


@pytest.fixture(autouse=True, scope="session")
def _force_login_passes_second_factor():
    """``client.force_login(user)`` logs in as if the user had also given their second
    factor's code (tests/second_factor.py), in module-wide fixtures too; the gate's own
    tests use ``force_login_unverified``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Client, "force_login", force_login_verified)
        yield


@pytest.fixture(autouse=True)
def _forgets_the_last_tests_cache():
    """Each test starts with an empty in-process cache: the login lockout counts there, and
    a test that locked a username out (tests/browser/test_second_factor.py) would otherwise
    refuse that username's login in whichever test the same worker runs next. Only the
    in-process cache: a Redis one may be shared, and its tests clear their own keys."""
    for cache in caches.all(initialized_only=True):
        if isinstance(cache, LocMemCache):
            cache.clear()


@pytest.fixture(autouse=True)
def _language_of_its_own():
    """Each test starts in the default language: a page that spoke a venue's language
    leaves it active in the thread (the next request's middleware sets its own)."""
    yield
    translation.deactivate()


@pytest.fixture
def venue(db):
    return VenueFactory(code="hanoi", currency="VND", rounding_unit=Decimal("1000"))


@pytest.fixture
def manager(venue):
    """A manager at ``venue``."""
    return staff("manager", MANAGER, venue)


@pytest.fixture
def approver(venue):
    """A second manager at ``venue``, to approve what ``manager`` edits."""
    return staff("approver", MANAGER, venue)


@dataclass
class Floor:
    """One venue's floor with a staff member of every role, and a second venue beside it."""

    venue: object
    table: object
    dealer: object
    supervisor: object
    supervisor2: object
    manager: object
    auditor: object
    other_venue: object
    other_table: object
    other_dealer: object
    other_supervisor: object


@pytest.fixture
def floor(db) -> Floor:
    venue = VenueFactory(code="hanoi", currency="VND", rounding_unit=Decimal("1000"))
    other = VenueFactory(
        code="seoul", currency="KRW", rounding_unit=Decimal("100"), timezone="Asia/Seoul"
    )
    return Floor(
        venue=venue,
        table=niuniu_table(venue),
        dealer=staff("dealer", DEALER, venue),
        supervisor=staff("supervisor", SUPERVISOR, venue),
        supervisor2=staff("supervisor2", SUPERVISOR, venue),
        manager=staff("floor-manager", MANAGER, venue),
        auditor=staff("auditor", AUDITOR, venue),
        other_venue=other,
        other_table=niuniu_table(
            other, code="SE1", denominations=("100000", "10000", "1000", "100")
        ),
        other_dealer=staff("other-dealer", DEALER, other),
        other_supervisor=staff("other-supervisor", SUPERVISOR, other),
    )


@pytest.fixture
def cashier(floor):
    """The cage's cashier at the floor's venue."""
    return staff("cashier", CAGE, floor.venue)


@pytest.fixture
def session(floor):
    """An open session at the floor's table, dealt by its dealer (a module may override it)."""
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


@pytest.fixture
def dealer(client, floor):
    """The floor's dealer's client, speaking English (the venue's language is Vietnamese)."""
    client.force_login(floor.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def celery_eager():
    """Run Celery tasks in-process for this test (the suite otherwise has a real broker)."""
    from casino.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before

"""A login's every request, as production runs it: the session from the shared cache (Redis,
Django's ``cached_db``), the user and their access in one statement
(``casino.staff.signed_in``), and a live partial's table from the cache
(``casino.floor.console.selectors.live_session_for``). What is read afresh on every request
(roles, venues, the account) holds at once; what is kept is the table as it was read."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.floor.console.selectors import live_session_for
from casino.floor.services.closing import session_close
from casino.group.models import GroupRole, OperatingGroup
from casino.staff import roles
from casino.staff.models import StaffRole
from casino.staff.signed_in import signed_in_user
from tests.second_factor import force_login_unverified

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
NIU_9 = "ks qs 5h 4h 10c"


@pytest.fixture(autouse=True)
def sessions_in_the_cache(settings, shared_cache):
    """Sessions as production keeps them with ``CACHE_URL`` set (``casino/settings.py``)."""
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    return shared_cache


def hand(client, session):
    url = reverse("console:hand", args=[session.pk])
    return client.get(url, {"box": "1", "box-1-cards": NIU_9}, **HX)


def test_production_keeps_sessions_in_the_shared_cache():
    """With ``CACHE_URL`` (which ``check --deploy`` asks for), a session is read from Redis
    and kept in the database too; the cache is Django's Redis backend, one client a pool."""
    from tests.casino.test_settings import manage

    result = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.SESSION_ENGINE, s.CACHES['default']['BACKEND'])",
        CACHE_URL="redis://127.0.0.1:6379/1",
        DEBUG="1",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == [
        "django.contrib.sessions.backends.cached_db",
        "casino.kernel.redis_cache.RedisCache",
    ]


def test_the_cache_keeps_one_client_a_pool(shared_cache):
    shared_cache.set("one-client", {"x": 1}, 30)
    assert shared_cache.get("one-client") == {"x": 1}
    client = shared_cache._cache.get_client()
    assert shared_cache._cache.get_client(write=True) is client


def test_a_hand_partial_reads_one_statement_the_logins(client, floor, session):
    """A dealer logs in with a password (and a PIN at the table), no second factor: their
    session names no device for django-otp to read."""
    force_login_unverified(client, floor.dealer)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    dealer = client
    assert hand(dealer, session).status_code == 200  # the table read, and kept
    with CaptureQueriesContext(connection) as statements:
        answer = hand(dealer, session)
    assert answer.status_code == 200
    assert "Niu 9" in answer.content.decode()
    assert len(statements) == 1, [q["sql"] for q in statements]
    sql = statements[0]["sql"]
    for table in ("auth_user", StaffRole._meta.db_table, GroupRole._meta.db_table):
        assert table in sql


def test_the_statement_reads_what_the_orm_reads(floor):
    """Roles at two venues, their venues and a group role, as ``casino.staff.roles`` reads
    them one query each."""
    member = floor.dealer
    roles.grant(member, floor.other_venue, roles.AUDITOR)
    group = OperatingGroup.objects.create(code="north", name="North")
    GroupRole.objects.create(user=member, group=group, role=roles.GROUP_AUDITOR)

    read = signed_in_user(str(member.pk))
    fresh = get_user_model().objects.get(pk=member.pk)

    assert read == fresh and read.username == fresh.username and read.password == fresh.password
    assert read._casino_venue_roles == {
        floor.venue.pk: frozenset({roles.DEALER}),
        floor.other_venue.pk: frozenset({roles.AUDITOR}),
    }
    assert roles.venue_ids(read) == {floor.venue.pk, floor.other_venue.pk}
    assert read._casino_group_roles == {group.pk: frozenset({roles.GROUP_AUDITOR})}
    assert getattr(fresh, "_casino_group_roles", None) is None
    assert roles.group_roles(fresh) == read._casino_group_roles  # read alone, the same
    assert signed_in_user("999999") is None
    assert signed_in_user("not a number") is None


def test_a_role_taken_away_holds_on_the_next_request(dealer, floor, session):
    assert hand(dealer, session).status_code == 200
    StaffRole.objects.filter(user=floor.dealer).delete()  # no service's signal to rely on
    assert hand(dealer, session).status_code == 403


def test_a_member_off_the_venues_staff_finds_no_table_though_it_is_kept(dealer, floor, session):
    assert hand(dealer, session).status_code == 200
    assert live_session_for(user=floor.dealer, pk=session.pk) is not None  # kept
    floor.venue.staff.remove(floor.dealer)
    assert hand(dealer, session).status_code == 404


def test_an_account_deactivated_is_signed_out_on_the_next_request(dealer, floor, session):
    assert hand(dealer, session).status_code == 200
    get_user_model().objects.filter(pk=floor.dealer.pk).update(is_active=False)
    answer = hand(dealer, session)
    assert answer.status_code == 401
    assert "Your login ran out" in answer.content.decode()


def test_a_password_changed_signs_the_old_session_out(dealer, floor, session):
    assert hand(dealer, session).status_code == 200
    floor.dealer.set_password("a-new-password-for-the-dealer")
    floor.dealer.save()
    assert hand(dealer, session).status_code == 401


def test_the_page_at_a_live_url_reads_the_session_afresh(dealer, floor, session):
    """A live partial asked without htmx is the whole screen: it reads the session as it is
    (closed since), not as the live partials keep it."""
    assert hand(dealer, session).status_code == 200
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    url = reverse("console:hand", args=[session.pk])
    page = dealer.get(url, {"box": "1", "box-1-cards": NIU_9})
    assert page.status_code == 200
    assert 'id="summary"' in page.content.decode()


def test_the_login_cookie_names_a_session_the_cache_holds(dealer, shared_cache):
    key = dealer.cookies[django_settings.SESSION_COOKIE_NAME].value
    assert shared_cache.get(f"django.contrib.sessions.cached_db{key}") is not None

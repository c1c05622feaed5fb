"""Who may do what (``casino.staff.policy``): every view and endpoint declares its capability, the
docs' table is the policy's, and segregation of duties holds on every surface (the
services, the API and the console): a counter who dealt a relief at a table, or signed one
of its slips, does not count its box; a slip's dealer line is signed by the dealer on duty
at its table; the audit trail's API answers whom the admin shows it to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.admin.sites import AdminSite
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path, reverse
from django.utils import translation
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.viewsets import ViewSet

from casino.api.base import ApiView
from casino.audit.services import audit_record
from casino.cage.services.slips import (
    CONFIRM_DEALER,
    CONFIRM_SUPERVISOR,
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_request,
    slip_steps,
    slip_void,
)
from casino.count.duties import count_close_refusal
from casino.count.models import BoxCount
from casino.count.services import count_record
from casino.floor.services.rotation import dealer_relieve
from casino.kernel.errors import Forbidden
from casino.management.commands.policy_table import DOC, table_in
from casino.staff.policy import (
    Capability,
    approval_refusal,
    capability_of,
    declare,
    may_approve,
    who_may_do_what,
)
from casino.staff.roles import COUNT, DEALER, ROLES, SUPERVISOR, forget, role_permissions
from tests.casino.services.test_count import box_of, close, open_table
from tests.factories import staff

# The URL resolver's every view declares its capability


def undeclared(patterns: list, prefix: str = "", namespace: str = "") -> Iterator[str]:
    """Each URL pattern (with its name) whose view declares no capability for a method it
    answers, and the method."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from undeclared(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            continue
        assert isinstance(pattern, URLPattern)
        declared = capability_of(pattern.callback)
        missing = [method for method, capability in declared.items() if capability is None]
        if not declared or missing:
            name = f"{namespace}{pattern.name}" if pattern.name else "(unnamed)"
            yield f"/{prefix}{pattern.pattern} {name}: {', '.join(missing) or 'no method'}"


HOW = (
    "declare what each view answers to (casino/staff/policy.py Capability): a function view "
    "@declare(Capability.X) (session_view and count_view declare theirs), an API view "
    "read_capability for GET and write_capability for its writes, a Django class view "
    "declare(Capability.X)(View.as_view()) in its urls.py"
)


def test_every_view_and_endpoint_declares_its_capability():
    missing = list(undeclared(get_resolver().url_patterns))
    assert not missing, f"{HOW}:\n" + "\n".join(missing)


def routes(patterns: list, prefix: str = "") -> Iterator[str]:
    """Every route's whole path pattern, as the resolver tries them."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def test_no_route_hides_another():
    """The console tries each game's partials before the shell's routes (casino/console_urls.py):
    no two routes may be the same path, whichever comes first."""
    found = list(routes(get_resolver().url_patterns))
    assert "console/sessions/<int:session_id>/hand/" in found
    assert len(found) == len(set(found)), sorted({r for r in found if found.count(r) > 1})


def test_the_guard_finds_a_view_that_declares_nothing():
    """The walk above fails on each kind of view left undeclared, and passes it declared."""

    def page(request: Any) -> None: ...

    class Listing(ApiView):
        read_capability = Capability.READ_FLOOR

        def get(self, request: Any) -> None: ...

        def post(self, request: Any) -> None: ...  # no write_capability

    class Things(ViewSet):
        @declare(Capability.READ_FLOOR)
        def list(self, request: Any) -> None: ...

        def create(self, request: Any) -> None: ...  # an action declaring nothing

    site = AdminSite(name="elsewhere")
    patterns = [
        path("page/", page, name="page"),
        path("listing/", Listing.as_view(), name="listing"),
        path("things/", Things.as_view({"get": "list", "post": "create"}), name="things"),
        path("admin/", site.urls),
    ]
    found = list(undeclared(patterns))
    assert "/page/ page: *" in found
    assert "/listing/ listing: post" in found
    assert "/things/ things: post" in found
    assert "/admin/ elsewhere:index: *" in found

    declare(Capability.PUBLIC)(page)
    Listing.write_capability = Capability.PLAY_ROUND
    Things.write_capability = Capability.MANAGE_VENUE
    declare(Capability.ADMIN)(site)
    assert list(undeclared(patterns)) == []


def test_an_api_view_that_declares_nothing_refuses_everyone(floor):
    class Bare(ApiView):
        def get(self, request: Any) -> None:
            raise AssertionError("not reached")

    request = APIRequestFactory().get("/api/v1/bare/")
    force_authenticate(request, user=floor.manager)
    response = Bare.as_view()(request)
    assert response.status_code == 403
    assert "declares no capability" in response.data["detail"]


# The docs' table


def test_the_operations_doc_has_the_policys_table():
    doc = table_in(DOC.read_text(encoding="utf-8"))
    assert doc == who_may_do_what(), (
        "docs/OPERATIONS.md's 'Who may do what' is not the policy's: run "
        "`manage.py policy_table --write` and commit the doc"
    )


def test_the_table_names_every_capability_with_its_roles():
    table = who_may_do_what()
    for capability in Capability:
        assert f"| `{capability}` |" in table
    assert "| `read-audit` | manager, auditor |" in table
    assert "| `count-box` | count |" in table


# The audit trail: the admin's rule


def test_the_audit_api_and_the_admin_read_one_rule():
    admin_readers = {r for r in ROLES if ("audit", "view_auditevent") in role_permissions(r)}
    assert Capability.READ_AUDIT.roles == admin_readers == {"manager", "auditor"}


@pytest.fixture
def at_venue(floor, cashier):
    """A member of each role at the floor's venue, and an audit event there and elsewhere."""
    floor.cashier = cashier
    floor.counter = staff("counter", COUNT, floor.venue)
    floor.event = audit_record(
        user=floor.manager,
        action="cash.thresholds",
        obj=floor.venue,
        venue=floor.venue,
        summary="reporting threshold 100000000",
    )
    floor.elsewhere = audit_record(
        user=None,
        action="cash.thresholds",
        obj=floor.other_venue,
        venue=floor.other_venue,
        summary="another venue's",
    )
    return floor


def client_of(user: Any) -> Client:
    """A client logged in as ``user``, reading English (the venue speaks Vietnamese)."""
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _get(user: Any, url: str) -> Any:
    return client_of(user).get(url)


@pytest.mark.parametrize("who", ["dealer", "supervisor", "cashier", "counter"])
def test_the_audit_api_refuses_the_roles_the_admin_does_not_show_it_to(at_venue, who):
    user = getattr(at_venue, who)
    listing = _get(user, reverse("api:audit-list"))
    detail = _get(user, reverse("api:audit-detail", args=[at_venue.event.pk]))
    assert (listing.status_code, detail.status_code) == (403, 403)
    assert "threshold" not in listing.content.decode() + detail.content.decode()


@pytest.mark.parametrize("who", ["manager", "auditor"])
def test_the_audit_api_answers_the_venues_managers_and_auditors(at_venue, who):
    user = getattr(at_venue, who)
    listing = _get(user, reverse("api:audit-list"))
    assert listing.status_code == 200
    ids = [row["id"] for row in listing.json()["results"]]
    assert at_venue.event.pk in ids and at_venue.elsewhere.pk not in ids
    detail = _get(user, reverse("api:audit-detail", args=[at_venue.event.pk]))
    assert detail.status_code == 200
    elsewhere = _get(user, reverse("api:audit-detail", args=[at_venue.elsewhere.pk]))
    assert elsewhere.status_code == 404


def test_a_manager_at_one_venue_reads_only_its_audit_trail_not_where_they_deal(at_venue):
    two_hats = staff("two-hats", DEALER, at_venue.other_venue)
    staff("two-hats", "manager", at_venue.venue)
    forget(two_hats)
    listing = _get(two_hats, reverse("api:audit-list"))
    ids = [row["id"] for row in listing.json()["results"]]
    assert at_venue.event.pk in ids and at_venue.elsewhere.pk not in ids
    # where they deal, they are refused it as a dealer is
    there = _get(two_hats, f"{reverse('api:audit-list')}?venue={at_venue.other_venue.pk}")
    event = _get(two_hats, reverse("api:audit-detail", args=[at_venue.elsewhere.pk]))
    assert (there.status_code, event.status_code) == (403, 403)


# A counter who took part at the table that day

CHIPS = {"100000": 5}


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def _counter_who_dealt_a_relief(floor) -> tuple[Any, Any]:
    """A dealer who relieved the table's dealer for a spell, then handed it back; the table
    closed with its first dealer on duty. They are on the count team too."""
    relief = staff("relief", DEALER, floor.venue)
    session = open_table(floor)
    dealer_relieve(session=session, dealer=relief, by=floor.supervisor)
    dealer_relieve(session=session, dealer=floor.dealer, by=floor.supervisor)
    session.refresh_from_db()
    assert session.dealer == floor.dealer
    close(session, floor.supervisor)
    staff("relief", COUNT, floor.venue)
    forget(relief)
    return relief, box_of(session)


def test_a_counter_who_dealt_a_relief_at_the_table_does_not_count_its_box(floor, english):
    relief, box = _counter_who_dealt_a_relief(floor)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box, user=relief, chips=CHIPS)
    assert refused.value.reason == "counter_at_table"
    assert "table NN1" in refused.value.message
    assert not BoxCount.objects.filter(box=box).exists()


def test_a_count_closes_with_a_second_member_of_the_count_team(floor, english):
    counter, counter2 = staff("counter", COUNT, floor.venue), staff("counter2", COUNT, floor.venue)
    both = staff("both", COUNT, floor.venue)
    staff("both", SUPERVISOR, floor.venue)
    elsewhere = staff("elsewhere", COUNT, floor.other_venue)
    venue = floor.venue.pk
    reasons = {
        who: getattr(
            count_close_refusal(user=counter, confirmed_by=second, venue_id=venue), "reason", None
        )
        for who, second in {
            "nobody": None,
            "themself": counter,
            "the dealer": floor.dealer,
            "another venue's": elsewhere,
            "a supervisor": both,
            "the second": counter2,
        }.items()
    }
    assert reasons == {
        "nobody": "no_second_counter",
        "themself": "same_counter",
        "the dealer": "second_not_counter",
        "another venue's": "second_not_counter",
        "a supervisor": "second_supervises",
        "the second": None,
    }
    refused = count_close_refusal(user=counter, confirmed_by=counter, venue_id=venue)
    assert "another member of the count team confirms it" in str(refused.message)


def test_the_relief_dealer_is_refused_the_count_on_the_api_and_the_console(floor, english):
    relief, box = _counter_who_dealt_a_relief(floor)
    client = client_of(relief)
    api = client.post(
        reverse("api:box-count", args=[box.pk]),
        {"chips": {"100000": 5}},
        content_type="application/json",
    )
    assert api.status_code == 403
    assert "another counter counts its box" in api.json()["detail"]
    day = box.gaming_date.isoformat()
    url = reverse("console:count-box", args=[floor.venue.pk, day, box.pk])
    page = client.get(url)
    assert "another counter counts its box" in page.content.decode()
    console = client.post(url, {"chips-100000": "5"})
    assert console.status_code == 403
    assert "another counter counts its box" in console.content.decode()
    assert not BoxCount.objects.filter(box=box).exists()


def test_a_counter_who_signed_a_slip_of_the_table_does_not_count_its_box(floor, english):
    runner = staff("runner", DEALER, floor.venue)
    session = open_table(floor)
    slip = slip_request(session=session, user=runner, kind="fill", chips={"100000": 5})
    slip_void(slip=slip, user=floor.supervisor, reason="asked twice")  # never issued
    close(session, floor.supervisor)
    staff("runner", COUNT, floor.venue)
    forget(runner)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box_of(session), user=runner, chips=CHIPS)
    assert refused.value.reason == "counter_at_table"


def test_a_counter_who_took_no_part_at_the_table_counts_its_box(floor):
    _relief, box = _counter_who_dealt_a_relief(floor)
    counter = staff("counter", COUNT, floor.venue)
    assert count_record(box=box, user=counter, chips=CHIPS).ordinal == 1


# A slip's dealer line: the dealer on duty at its table


@pytest.fixture
def issued(floor, session, cashier):
    """A fill issued at the cage for the floor's open session, dealt by its dealer."""
    slip = slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 5})
    return slip_issue(slip=slip, user=cashier, runner="Lan")


def test_a_dealer_who_never_dealt_at_the_table_does_not_sign_its_dealer_line(
    floor, issued, english
):
    stranger = staff("stranger", DEALER, floor.venue)
    assert CONFIRM_DEALER not in slip_steps(slip=issued, user=stranger)
    with pytest.raises(Forbidden) as refused:
        slip_confirm_dealer(slip=issued, user=stranger)
    assert refused.value.reason == "not_on_duty"
    assert "dealer is on duty at table NN1" in refused.value.message
    issued.refresh_from_db()
    assert issued.dealer_confirmed_by is None


def test_the_api_and_the_console_refuse_the_dealer_line_to_another_dealer(
    floor, session, issued, english
):
    stranger = staff("stranger", DEALER, floor.venue)
    client = client_of(stranger)
    api = client.post(
        reverse("api:slip-confirm-dealer", args=[issued.pk]), {}, content_type="application/json"
    )
    assert api.status_code == 403
    assert "is on duty at table NN1" in api.json()["detail"]
    url = reverse("console:slip-step", args=[session.pk, issued.pk, CONFIRM_DEALER])
    console = client.post(url)
    assert console.status_code == 403
    assert "is on duty at table NN1" in console.content.decode()
    issued.refresh_from_db()
    assert issued.dealer_confirmed_by is None


def test_after_a_relief_the_dealer_on_duty_signs_and_the_relieved_one_does_not(
    floor, session, issued
):
    relief = staff("relief", DEALER, floor.venue)
    dealer_relieve(session=session, dealer=relief, by=floor.supervisor)
    issued.refresh_from_db()
    with pytest.raises(Forbidden):
        slip_confirm_dealer(slip=issued, user=floor.dealer)
    signed = slip_confirm_dealer(slip=issued, user=relief)
    assert signed.dealer_confirmed_by == relief


def test_a_supervisor_covering_the_table_signs_its_dealer_line(floor, issued):
    signed = slip_confirm_dealer(slip=issued, user=floor.supervisor)
    assert signed.dealer_confirmed_by == floor.supervisor


def test_the_dealer_on_duty_does_not_sign_the_supervisors_line(floor, session, issued):
    dealing_supervisor = staff("dealing-supervisor", SUPERVISOR, floor.venue)
    dealer_relieve(session=session, dealer=dealing_supervisor, by=floor.supervisor)
    issued.refresh_from_db()
    assert CONFIRM_SUPERVISOR not in slip_steps(slip=issued, user=dealing_supervisor)
    with pytest.raises(Forbidden) as refused:
        slip_confirm_supervisor(slip=issued, user=dealing_supervisor)
    assert refused.value.reason == "dealer_as_supervisor"
    slip = slip_confirm_dealer(slip=issued, user=dealing_supervisor)
    slip = slip_confirm_supervisor(slip=slip, user=floor.supervisor2)
    assert slip.status == "verified"


# Four eyes


def test_a_manager_does_not_approve_what_they_proposed_and_another_role_approves_nothing(floor):
    proposer, second = floor.manager, staff("manager2", "manager", floor.venue)
    venue = floor.venue.pk
    refused = approval_refusal(user=proposer, venue_id=venue, made_by=[proposer.pk, None])
    assert refused is not None and refused.reason == "four_eyes"
    assert may_approve(user=second, venue_id=venue, made_by=[proposer.pk])
    assert approval_refusal(user=floor.supervisor, venue_id=venue, made_by=[]).reason == (
        "not_manager"
    )
    assert not may_approve(user=second, venue_id=floor.other_venue.pk, made_by=[])

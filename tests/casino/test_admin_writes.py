"""The admin writes through the services: the API's checks, words and audit events.

Tables (with their limits), players and venues are saved by the same service functions as
the API; a refusal comes back as the same form with the service's message on the field it
names, and writes nothing. What a live table or venue plays and counts in changes only
while it is closed; a table's ruleset changes only by a request another manager approves.
"""

from __future__ import annotations

import json
from decimal import Decimal as D
from typing import Any

import pytest
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from casino.audit.models import AuditEvent
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.players.models import Player
from casino.rulesets.models import Ruleset
from casino.staff.models import StaffRole
from casino.staff.roles import COUNT, DEALER, MANAGE, MANAGER, PLAY, can, grant, roles_at
from casino.venues.models import Table, TableLimit, TableRulesetChange, Venue
from casino.venues.services.table_rulesets import ruleset_change_refuse
from tests.casino.api import client_for as api_client
from tests.factories import PlayerFactory, UserFactory, staff

pytestmark = pytest.mark.django_db


# Reading and posting the admin's forms as a browser does


def form_data(response: Any) -> dict[str, str]:
    """The POST a browser sends for the admin form as rendered (with its inlines)."""
    data: dict[str, str] = {}

    def add(form: Any) -> None:
        for name, field in form.fields.items():
            value = form[name].value()
            key = form.add_prefix(name)
            if isinstance(value, bool) or getattr(field.widget, "input_type", "") == "checkbox":
                if value:
                    data[key] = "on"
            elif hasattr(field.widget, "widgets"):  # split inputs: a date and a time
                parts = field.widget.decompress(value)
                for index, part in enumerate(parts):
                    data[f"{key}_{index}"] = "" if part is None else str(part)
            elif isinstance(value, list | tuple):
                data[key] = [str(item) for item in value]  # type: ignore[assignment]
            elif value is not None:
                data[key] = str(value)
            if field.show_hidden_initial and value is not None:  # e.g. a JSON field's
                data[form.add_initial_prefix(name)] = str(value)

    add(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        add(inline.formset.management_form)
        for form in inline.formset.forms:
            add(form)
    return data


def limit_prefix(response: Any, bet_type: str) -> str:
    for inline in response.context["inline_admin_formsets"]:
        for form in inline.formset.forms:
            if form.instance.bet_type == bet_type:
                return form.prefix
    raise AssertionError(f"no {bet_type} limit")


def errors_of(response: Any) -> list[str]:
    """Every error the re-shown form carries: its fields', above it, and its inlines'."""
    assert response.status_code == 200, response.status_code
    form = response.context["adminform"].form
    found = [str(message) for messages in form.errors.values() for message in messages]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        found += [str(message) for message in formset.non_form_errors()]
        for row in formset.forms:
            found += [str(message) for messages in row.errors.values() for message in messages]
    return found


def field_errors(response: Any, name: str) -> list[str]:
    return [str(message) for message in response.context["adminform"].form.errors.get(name, [])]


def table_url(table: Table) -> str:
    return reverse("admin:venues_table_change", args=[table.pk])


def edit_table(client: Any, table: Table, **changes: Any) -> Any:
    """Post the table's change form with ``changes``; ``limit_single_min_stake`` etc. edit
    a limit's row."""
    page = client.get(table_url(table))
    data = form_data(page)
    for name, value in changes.items():
        if name.startswith("limit_"):
            bet_type, field = name.removeprefix("limit_").split("_", 1)
            data[f"{limit_prefix(page, bet_type)}-{field}"] = value
        else:
            data[name] = value
    return client.post(table_url(table), data)


def table_row(table: Table) -> dict[str, Any]:
    fresh = Table.objects.get(pk=table.pk)
    return {
        "ruleset": fresh.ruleset_id,
        "game": fresh.game,
        "seats": fresh.seats,
        "chips": fresh.chip_denominations,
        "limits": sorted(
            TableLimit.objects.filter(table=table).values_list("bet_type", "min_stake", "max_stake")
        ),
    }


def api_error(response: Any) -> tuple[int, str, str | None]:
    body = response.json()
    assert set(body) == {"error", "detail", "field"}, body
    return response.status_code, body["detail"], body["field"]


@pytest.fixture
def admin_client(client, floor):
    client.force_login(floor.manager)
    return client


@pytest.fixture
def second_manager(floor):
    """Another manager of the venue: approves what ``floor.manager`` asks."""
    return staff("second-manager", MANAGER, floor.venue)


@pytest.fixture
def macau(floor):
    """A second Niu Niu ruleset of the venue (the Macau sheet)."""
    return Ruleset.objects.create(venue=floor.venue, game="niuniu", code="macau-001", name="Macau")


def open_table(floor: Any) -> Any:
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 10},
    )


def close_table(floor: Any, session: Any) -> None:
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 10},
    )


# A live table: its boxes, chips, game and ruleset change only while it is closed


IN_PLAY_EDITS = {
    "seats": ({"seats": "2"}, "its seats can change once it is closed"),
    "chips": ({"chip_denominations": "7"}, "its chip_denominations can change once it is"),
    "game": ({"game": "maubinh"}, "game changes only together with a ruleset of that game"),
}


@pytest.mark.parametrize("edit", list(IN_PLAY_EDITS))
def test_with_the_table_open_an_in_play_edit_is_refused_and_changes_nothing(
    admin_client, floor, edit
):
    changes, words = IN_PLAY_EDITS[edit]
    open_table(floor)
    before, events = table_row(floor.table), AuditEvent.objects.count()
    response = edit_table(admin_client, floor.table, **changes)
    assert any(words in message for message in errors_of(response)), errors_of(response)
    assert table_row(floor.table) == before
    assert AuditEvent.objects.count() == events
    assert not LogEntry.objects.exists()


def test_a_limit_off_the_rounding_unit_is_refused_on_its_row(admin_client, floor):
    before = table_row(floor.table)
    response = edit_table(admin_client, floor.table, limit_single_min_stake="1500")
    api = api_client(floor.manager).patch(
        f"/api/v1/tables/{floor.table.pk}/",
        {"limits": {"single": {"min_stake": "1500", "max_stake": "10000000"}}},
        format="json",
    )
    status, detail, field = api_error(api)
    assert (status, field) == (400, "limits.single.min_stake")
    # the same words, on the single row's minimum
    prefix = limit_prefix(response, "single")
    rows = [f for i in response.context["inline_admin_formsets"] for f in i.formset.forms]
    row = next(form for form in rows if form.prefix == prefix)
    assert [str(m) for m in row.errors["min_stake"]] == [detail]
    assert "“1500” is not an amount here: write a multiple of 1,000" in detail
    assert table_row(floor.table) == before


def test_the_table_form_shows_the_apis_words_on_the_field(admin_client, floor):
    response = edit_table(admin_client, floor.table, chip_denominations="1000; 1000.00")
    api = api_client(floor.manager).patch(
        f"/api/v1/tables/{floor.table.pk}/",
        {"chip_denominations": ["1000", "1000.00"]},
        format="json",
    )
    status, detail, field = api_error(api)
    assert (status, field) == (400, "chip_denominations[1]")
    assert field_errors(response, "chip_denominations") == [detail]


CLOSED_EDITS = {
    "seats": ({"seats": "6"}, {"seats": 6}),
    "chips": (
        {"chip_denominations": "100000; 5000"},
        {"chip_denominations": ["100000", "5000"]},
    ),
    "limit": (
        {"limit_single_min_stake": "20000"},
        {
            "limits": {
                "single": {"min_stake": "20000", "max_stake": "10000000"},
                "double": {"min_stake": "10000", "max_stake": "5000000"},
                "super": {"min_stake": "10000", "max_stake": "1000000"},
                "bonus": {"min_stake": "10000", "max_stake": "500000"},
            }
        },
    ),
}


@pytest.mark.parametrize("edit", list(CLOSED_EDITS))
def test_with_the_table_closed_an_edit_saves_with_the_apis_audit_event(admin_client, floor, edit):
    admin_changes, api_changes = CLOSED_EDITS[edit]
    session = open_table(floor)
    close_table(floor, session)
    original = table_row(floor.table)
    response = edit_table(admin_client, floor.table, **admin_changes)
    assert response.status_code == 302, errors_of(response)
    assert table_row(floor.table) != original
    event = AuditEvent.objects.filter(action="table.update").get()
    assert (event.user, event.venue, event.object_id) == (
        floor.manager,
        floor.venue,
        str(floor.table.pk),
    )
    assert event.before != event.after
    # The API, making the same change from the same table, writes the same event.
    Table.objects.filter(pk=floor.table.pk).update(
        seats=5, chip_denominations=["1000000", "100000", "10000", "1000"]
    )
    TableLimit.objects.filter(table=floor.table, bet_type="single").update(min_stake=D("10000"))
    assert table_row(floor.table) == original
    api = api_client(floor.manager).patch(
        f"/api/v1/tables/{floor.table.pk}/", api_changes, format="json"
    )
    assert api.status_code == 200, api.json()
    by_api = AuditEvent.objects.filter(action="table.update").exclude(pk=event.pk).get()
    assert (by_api.before, by_api.after, by_api.summary) == (
        event.before,
        event.after,
        event.summary,
    )


def test_a_table_is_set_up_through_the_service(admin_client, floor):
    page = admin_client.get(reverse("admin:venues_table_add"))
    assert page.status_code == 200
    data = form_data(page)
    data.update(
        venue=str(floor.venue.pk),
        code="NN2",
        game="niuniu",
        ruleset=str(floor.table.ruleset_id),
        seats="7",
        chip_denominations="10000; 1000000",
        status="active",
        **{
            "limits-TOTAL_FORMS": "1",
            "limits-0-bet_type": "single",
            "limits-0-min_stake": "20000",
            "limits-0-max_stake": "2000000",
        },
    )
    response = admin_client.post(reverse("admin:venues_table_add"), data)
    assert response.status_code == 302, errors_of(response)
    table = Table.objects.get(venue=floor.venue, code="NN2")
    assert table.chip_denominations == ["1000000", "10000"]  # the service sorts them
    assert list(table.limits.values_list("bet_type", "min_stake")) == [("single", D("20000"))]
    event = AuditEvent.objects.get(action="table.create")
    assert event.after["limits"] == {"single": ["20000", "2000000"]}
    # a second table of the same code is refused in the API's words
    again = admin_client.post(reverse("admin:venues_table_add"), data)
    assert field_errors(again, "code") == ["there is already a table NN2 at this venue"]
    assert Table.objects.filter(code="NN2").count() == 1


def test_a_tables_ruleset_menu_offers_only_its_venues_rulesets(client, floor, macau):
    """Even a superuser's menu (who sees every venue) offers the table's venue's rulesets
    only: no preset, no other venue's; one posted anyway is refused and nothing changes."""
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    floor.venue.staff.add(root)
    grant(root, floor.venue, MANAGER)
    preset = Ruleset.objects.create(venue=None, game="niuniu", code="vn-kr-004", name="Preset")
    client.force_login(root)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(table_url(floor.table))
    offered = set(page.context["adminform"].form.fields["ruleset"].queryset)
    assert (
        offered
        == set(Ruleset.objects.filter(venue=floor.venue))
        == {
            floor.table.ruleset,
            macau,
        }
    )
    # The add form, before a venue is chosen, offers no preset (a table never plays one).
    added = client.get(reverse("admin:venues_table_add"))
    assert preset not in set(added.context["adminform"].form.fields["ruleset"].queryset)
    for ruleset in (preset, Ruleset.objects.get(pk=floor.other_table.ruleset_id)):
        response = edit_table(client, floor.table, ruleset=str(ruleset.pk), reason="cheaper")
        assert field_errors(response, "ruleset") == [
            "That ruleset is not one of this venue's: choose one from the list."
        ]
    assert not TableRulesetChange.objects.exists()


# A table's ruleset: requested by one manager, approved by another, applied while closed


def approve_url(change: TableRulesetChange) -> str:
    return reverse("admin:venues_tablerulesetchange_approve", args=[change.pk])


def refuse_url(change: TableRulesetChange) -> str:
    return reverse("admin:venues_tablerulesetchange_refuse", args=[change.pk])


def test_a_managers_ruleset_change_is_a_request_and_not_applied(admin_client, floor, macau):
    before = table_row(floor.table)
    response = edit_table(
        admin_client, floor.table, ruleset=str(macau.pk), reason="the Macau sheet"
    )
    assert response.status_code == 302, errors_of(response)
    assert table_row(floor.table) == before
    change = TableRulesetChange.objects.get()
    assert (change.status, change.requested_by, change.to_ruleset, change.reason) == (
        "pending",
        floor.manager,
        macau,
        "the Macau sheet",
    )
    assert AuditEvent.objects.filter(action="table.ruleset_change.request").count() == 1
    assert not AuditEvent.objects.filter(action="table.update").exists()
    # the admin's history says what happened, and the table's page shows the request
    assert "Requested the change of ruleset to macau-001" in LogEntry.objects.get().change_message
    page = admin_client.get(table_url(floor.table)).content.decode()
    assert "to macau-001, requested by floor-manager" in page


def test_a_ruleset_change_needs_a_reason(admin_client, floor, macau):
    response = edit_table(admin_client, floor.table, ruleset=str(macau.pk))
    assert field_errors(response, "reason") == [
        "give the reason for the change; the approving manager reads it"
    ]
    assert not TableRulesetChange.objects.exists()


def test_the_requester_cannot_approve_another_manager_does(
    admin_client, client, floor, macau, second_manager
):
    edit_table(admin_client, floor.table, ruleset=str(macau.pk), reason="the Macau sheet")
    change = TableRulesetChange.objects.get()
    # the same manager: refused, with the reason
    own = admin_client.post(approve_url(change), follow=True)
    assert "another manager of the venue must approve it" in own.content.decode()
    change.refresh_from_db()
    assert change.status == "pending"
    assert Table.objects.get(pk=floor.table.pk).ruleset_id != macau.pk
    # another manager: refused while the table is open
    session = open_table(floor)
    client.force_login(second_manager)
    refused = client.post(approve_url(change), follow=True)
    assert "close the table first" in refused.content.decode()
    change.refresh_from_db()
    assert change.status == "pending"
    # and applied once it is closed
    close_table(floor, session)
    before = table_row(floor.table)
    applied = client.post(approve_url(change), follow=True)
    assert "now plays macau-001" in applied.content.decode()
    change.refresh_from_db()
    assert (change.status, change.decided_by) == ("applied", second_manager)
    assert Table.objects.get(pk=floor.table.pk).ruleset_id == macau.pk
    event = AuditEvent.objects.get(action="table.update", object_id=str(floor.table.pk))
    assert event.user == second_manager
    assert (event.before["ruleset"], event.after["ruleset"]) == (before["ruleset"], macau.pk)


def test_pending_requests_are_listed_with_approve_and_refuse(
    admin_client, client, floor, macau, second_manager
):
    edit_table(admin_client, floor.table, ruleset=str(macau.pk), reason="the Macau sheet")
    change = TableRulesetChange.objects.get()
    changelist = reverse("admin:venues_tablerulesetchange_changelist")
    # the requester is offered to withdraw it, another manager to approve or refuse it
    mine = admin_client.get(changelist).content.decode()
    assert f'formaction="{refuse_url(change)}"' in mine
    assert f'formaction="{approve_url(change)}"' not in mine
    client.force_login(second_manager)
    listed = client.get(changelist).content.decode()
    assert f'formaction="{approve_url(change)}"' in listed
    assert 'aria-label="Refuse the change of NN1 to macau-001"' in listed
    view = client.get(reverse("admin:venues_tablerulesetchange_change", args=[change.pk]))
    assert "Approve and apply" in view.content.decode()
    # refusing brings the manager back to the list, and nothing is applied
    refused = client.post(refuse_url(change), {"next": changelist, "note": "not this season"})
    assert refused.status_code == 302 and refused["Location"] == changelist
    change.refresh_from_db()
    assert (change.status, change.decision_note) == ("refused", "not this season")
    assert Table.objects.get(pk=floor.table.pk).ruleset_id != macau.pk
    # the request admin itself writes nothing
    assert admin_client.get(reverse("admin:venues_tablerulesetchange_add")).status_code == 403
    assert (
        admin_client.post(
            reverse("admin:venues_tablerulesetchange_delete", args=[change.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_the_requester_withdraws_a_request(admin_client, floor, macau):
    edit_table(admin_client, floor.table, ruleset=str(macau.pk), reason="the Macau sheet")
    change = TableRulesetChange.objects.get()
    admin_client.post(refuse_url(change))
    change.refresh_from_db()
    assert (change.status, change.decided_by) == ("withdrawn", floor.manager)
    assert AuditEvent.objects.filter(action="table.ruleset_change.withdraw").count() == 1


def test_a_ruleset_of_another_game_needs_the_change_of_game(admin_client, floor):
    mau_binh = Ruleset.objects.create(venue=floor.venue, game="maubinh", code="mb", name="MB")
    response = edit_table(admin_client, floor.table, ruleset=str(mau_binh.pk), reason="x")
    assert field_errors(response, "ruleset") == [
        "ruleset mb is a maubinh ruleset; this table plays niuniu"
    ]
    assert not TableRulesetChange.objects.exists()
    # with the game it is a request to change both
    asked = edit_table(
        admin_client, floor.table, ruleset=str(mau_binh.pk), game="maubinh", reason="a room"
    )
    assert asked.status_code == 302, errors_of(asked)
    change = TableRulesetChange.objects.get()
    assert (change.from_game, change.to_game) == ("niuniu", "maubinh")
    assert Table.objects.get(pk=floor.table.pk).game == "niuniu"


def test_the_api_asks_and_another_manager_approves(floor, macau, second_manager):
    manager, second = api_client(floor.manager), api_client(second_manager)
    url = f"/api/v1/tables/{floor.table.pk}/"
    # one person cannot switch it with a PATCH
    status, detail, field = api_error(manager.patch(url, {"ruleset": macau.pk}, format="json"))
    assert (status, field) == (400, "ruleset")
    assert "second manager approves it" in detail
    assert Table.objects.get(pk=floor.table.pk).ruleset_id != macau.pk
    # a ruleset of another venue or another game is refused
    other_venue = floor.other_table.ruleset_id
    mau_binh = Ruleset.objects.create(venue=floor.venue, game="maubinh", code="mb", name="MB")
    for ruleset_id, words in (
        (other_venue, f"there is no ruleset {other_venue} at your venues"),
        (mau_binh.pk, "ruleset mb is a maubinh ruleset; this table plays niuniu"),
    ):
        body = {"table": floor.table.pk, "ruleset": ruleset_id, "reason": "x"}
        refused = manager.post("/api/v1/table-ruleset-changes/", body, format="json")
        assert api_error(refused) == (400, words, "ruleset")
    body = {"table": floor.table.pk, "ruleset": macau.pk, "reason": "the Macau sheet"}
    asked = manager.post("/api/v1/table-ruleset-changes/", body, format="json")
    assert asked.status_code == 201, asked.json()
    change = asked.json()
    assert (change["status"], change["to_ruleset"]["code"], change["requested_by"]) == (
        "pending",
        "macau-001",
        "floor-manager",
    )
    twice = manager.post("/api/v1/table-ruleset-changes/", body, format="json")
    assert api_error(twice)[0] == 409
    approve = f"/api/v1/table-ruleset-changes/{change['id']}/approve/"
    assert api_error(manager.post(approve))[0] == 403  # the requester
    session = open_table(floor)
    status, detail, _field = api_error(second.post(approve))
    assert (status, "close the table first" in detail) == (409, True)
    close_table(floor, session)
    applied = second.post(approve)
    assert applied.status_code == 200, applied.json()
    assert (applied.json()["status"], applied.json()["decided_by"]) == ("applied", "second-manager")
    table = manager.get(url).json()
    assert table["ruleset"]["code"] == "macau-001"
    assert api_error(second.post(approve))[0] == 409  # decided already


def test_a_change_of_game_drops_the_limits_the_new_game_has_no_bet_for(floor, second_manager):
    mau_binh = Ruleset.objects.create(venue=floor.venue, game="maubinh", code="mb", name="MB")
    body = {"table": floor.table.pk, "ruleset": mau_binh.pk, "game": "maubinh", "reason": "room"}
    change = api_client(floor.manager).post("/api/v1/table-ruleset-changes/", body, format="json")
    approved = api_client(second_manager).post(
        f"/api/v1/table-ruleset-changes/{change.json()['id']}/approve/"
    )
    assert approved.status_code == 200, approved.json()
    table = Table.objects.get(pk=floor.table.pk)
    assert (table.game, table.ruleset_id) == ("maubinh", mau_binh.pk)
    assert not TableLimit.objects.filter(table=table).exists()
    event = AuditEvent.objects.get(action="table.update")
    assert set(event.before["limits"]) == {"single", "double", "super", "bonus"}
    assert (event.before["game"], event.after["game"], event.after["limits"]) == (
        "niuniu",
        "maubinh",
        {},
    )


# Venues: their money and time change only while every table is closed


def venue_url(venue: Venue) -> str:
    return reverse("admin:venues_venue_change", args=[venue.pk])


def edit_venue(client: Any, venue: Venue, **changes: str) -> Any:
    data = form_data(client.get(venue_url(venue)))
    data.update(changes)
    return client.post(venue_url(venue), data)


VENUE_EDITS = {
    "currency": {"currency": "USD"},
    "time zone": {"timezone": "Asia/Seoul"},
    "rounding unit": {"rounding_unit": "10000"},
}


@pytest.mark.parametrize("edit", list(VENUE_EDITS))
def test_a_venues_money_and_time_change_only_with_every_table_closed(admin_client, floor, edit):
    changes = VENUE_EDITS[edit]
    TableLimit.objects.filter(table=floor.table).update(min_stake=D("10000"), max_stake=D("100000"))
    session = open_table(floor)
    before = Venue.objects.filter(pk=floor.venue.pk).values().get()
    refused = edit_venue(admin_client, floor.venue, **changes)
    assert any("these tables are open: NN1" in m for m in errors_of(refused)), errors_of(refused)
    assert Venue.objects.filter(pk=floor.venue.pk).values().get() == before
    assert not AuditEvent.objects.filter(action="venue.update").exists()
    close_table(floor, session)
    saved = edit_venue(admin_client, floor.venue, **changes)
    assert saved.status_code == 302, errors_of(saved)
    event = AuditEvent.objects.get(action="venue.update")
    (name,) = [key for key in event.after if event.after[key] != event.before[key]]
    assert str(getattr(Venue.objects.get(pk=floor.venue.pk), name)) in (
        event.after[name],
        f"{event.after[name]}.00",
    )
    assert event.user == floor.manager


def test_a_rounding_unit_must_divide_the_tables_limits(admin_client, floor):
    response = edit_venue(admin_client, floor.venue, rounding_unit="3000")
    assert any("is not a multiple of the new rounding unit 3000" in m for m in errors_of(response))
    assert Venue.objects.get(pk=floor.venue.pk).rounding_unit == D("1000")


def test_a_venues_name_changes_while_open_and_is_audited(admin_client, floor):
    open_table(floor)
    response = edit_venue(admin_client, floor.venue, name="Hà Nội Club")
    assert response.status_code == 302, errors_of(response)
    event = AuditEvent.objects.get(action="venue.update")
    assert (event.before["name"], event.after["name"]) == ("Venue hanoi", "Hà Nội Club")


def test_a_venues_login_length_changes_while_open_within_bounds_and_is_audited(admin_client, floor):
    open_table(floor)
    refused = edit_venue(admin_client, floor.venue, session_hours="48")
    assert refused.status_code == 200 and errors_of(refused)
    assert Venue.objects.get(pk=floor.venue.pk).session_hours == 12
    response = edit_venue(admin_client, floor.venue, session_hours="8")
    assert response.status_code == 302, errors_of(response)
    assert Venue.objects.get(pk=floor.venue.pk).session_hours == 8
    event = AuditEvent.objects.get(action="venue.update")
    assert (event.before["session_hours"], event.after["session_hours"]) == ("12", "8")


def test_the_variance_a_table_closes_with_without_a_reason_is_set_on_the_venue(admin_client, floor):
    open_table(floor)  # it applies at the next close, so it changes while tables are open
    negative = edit_venue(admin_client, floor.venue, variance_reason_over="-5")
    assert field_errors(negative, "variance_reason_over") == [
        "“-5” is not an amount: write 100,000 or 100000, without decimals"
    ]
    saved = edit_venue(admin_client, floor.venue, variance_reason_over="50000")
    assert saved.status_code == 302, errors_of(saved)
    assert Venue.objects.get(pk=floor.venue.pk).variance_reason_over == D("50000")
    event = AuditEvent.objects.get(action="venue.update")
    assert (event.before["variance_reason_over"], event.after["variance_reason_over"]) == (
        "0",
        "50000",
    )


def test_a_manager_cannot_change_another_venue_nor_set_one_up(admin_client, floor):
    other = floor.other_venue
    before = Venue.objects.filter(pk=other.pk).values().get()
    response = admin_client.post(venue_url(other), {"name": "taken", "code": other.code})
    assert response.status_code == 302 and response["Location"] == "/admin/"  # not found
    assert Venue.objects.filter(pk=other.pk).values().get() == before
    add = admin_client.post(
        reverse("admin:venues_venue_add"),
        {"code": "new", "name": "New", "currency": "VND", "rounding_unit": "1000"},
    )
    assert add.status_code == 403
    assert not Venue.objects.filter(code="new").exists()
    assert not AuditEvent.objects.filter(action__startswith="venue.").exists()


def test_a_superuser_sets_up_a_venue_with_its_staff(client, floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    page = client.get(reverse("admin:venues_venue_add"))
    data = form_data(page)
    data.update(
        code="macau",
        name="Macau",
        currency="MOP",
        rounding_unit="0.10",
        timezone="Asia/Macau",
        language="pt",
        staff=[str(floor.manager.pk)],
    )
    response = client.post(reverse("admin:venues_venue_add"), data)
    assert response.status_code == 302, errors_of(response)
    venue = Venue.objects.get(code="macau")
    assert list(venue.staff.all()) == [floor.manager]
    created = AuditEvent.objects.get(action="venue.create")
    assert created.after["rounding_unit"] == "0.1"
    staffed = AuditEvent.objects.get(action="venue.staff")
    assert (staffed.before, staffed.after) == (
        {"staff": [], "roles": []},
        {"staff": ["floor-manager"], "roles": []},
    )
    # a bad time zone is named on its field
    data.update(code="lisbon", timezone="Europe/Nowhere")
    bad = client.post(reverse("admin:venues_venue_add"), data)
    assert any("is not a time zone" in m for m in field_errors(bad, "timezone"))


# Players: registered and edited like the API does


def test_a_player_beside_the_same_number_in_other_case_is_refused_as_by_the_api(
    admin_client, floor
):
    PlayerFactory(venue=floor.venue, membership_number="HANOI-0001", name="First")
    api = api_client(floor.manager).post(
        "/api/v1/players/",
        {"venue": floor.venue.pk, "membership_number": "hanoi-0001", "name": "Second"},
        format="json",
    )
    status, detail, field = api_error(api)
    assert (status, field) == (400, "membership_number")
    page = admin_client.get(reverse("admin:players_player_add"))
    data = form_data(page)
    data.update(venue=str(floor.venue.pk), membership_number="hanoi-0001", name="Second")
    response = admin_client.post(reverse("admin:players_player_add"), data)
    assert field_errors(response, "membership_number") == [detail]
    assert Player.objects.filter(venue=floor.venue).count() == 1


def test_a_player_is_registered_and_edited_with_the_apis_audit(admin_client, floor):
    data = form_data(admin_client.get(reverse("admin:players_player_add")))
    data.update(venue=str(floor.venue.pk), membership_number=" VIP-007 ", name="Bond")
    response = admin_client.post(reverse("admin:players_player_add"), data)
    assert response.status_code == 302, errors_of(response)
    player = Player.objects.get(venue=floor.venue, name="Bond")
    created = AuditEvent.objects.get(action="player.create")
    assert created.object_id == str(player.pk) and created.after["name"] == "Bond"
    url = reverse("admin:players_player_change", args=[player.pk])
    data = form_data(admin_client.get(url))
    data["status"] = "barred"
    assert admin_client.post(url, data).status_code == 302
    event = AuditEvent.objects.get(action="player.update")
    assert (event.before["status"], event.after["status"]) == ("active", "barred")
    # an empty name is refused with the API's words
    data["name"] = " "
    refused = admin_client.post(url, data)
    api = api_client(floor.manager).patch(
        f"/api/v1/players/{player.pk}/", {"name": " "}, format="json"
    )
    assert api.status_code == 400
    assert errors_of(refused)
    assert Player.objects.get(pk=player.pk).name == "Bond"


# Staff: who works where and in which role, set by a superuser and audited


def _role_rows(data: dict, rows: list[tuple[Any, str]]) -> dict:
    """The user form's data with the roles inline holding ``rows`` (venue, role) in place
    of what it held."""
    data = {key: value for key, value in data.items() if not key.startswith("venue_roles-")}
    data.update(
        {
            "venue_roles-TOTAL_FORMS": str(len(rows)),
            "venue_roles-INITIAL_FORMS": "0",
            "venue_roles-MIN_NUM_FORMS": "0",
            "venue_roles-MAX_NUM_FORMS": "1000",
        }
    )
    for index, (venue, role) in enumerate(rows):
        data[f"venue_roles-{index}-venue"] = str(venue.pk)
        data[f"venue_roles-{index}-role"] = role
    return data


def test_a_superuser_changes_a_members_roles_per_venue_audited(client, floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    url = reverse("admin:auth_user_change", args=[floor.dealer.pk])
    page = client.get(url)
    assert b"Roles at venues" in page.content
    data = form_data(page)
    assert "groups" not in data  # the groups follow the roles; nobody sets them by hand
    StaffRole.objects.filter(user=floor.dealer).delete()  # the inline's rows replace them
    data = _role_rows(
        data, [(floor.venue, DEALER), (floor.other_venue, MANAGER), (floor.venue, COUNT)]
    )
    data["first_name"] = "Linh"
    response = client.post(url, data)
    assert response.status_code == 302, errors_of(response)
    floor.dealer.refresh_from_db()
    # a manager at the other venue only, a dealer and a counter at the own venue
    assert roles_at(floor.dealer, floor.venue.pk) == {DEALER, COUNT}
    assert roles_at(floor.dealer, floor.other_venue.pk) == {MANAGER}
    assert can(floor.dealer, MANAGE, floor.other_venue.pk)
    assert not can(floor.dealer, MANAGE, floor.venue.pk)
    assert floor.dealer.venues.filter(pk=floor.other_venue.pk).exists()  # now works there
    assert sorted(floor.dealer.groups.values_list("name", flat=True)) == [
        "count",
        "dealer",
        "manager",
    ]
    assert floor.dealer.first_name == "Linh"
    event = AuditEvent.objects.get(action="staff.update")
    assert event.before["roles"] == []
    assert event.after["roles"] == ["hanoi:count", "hanoi:dealer", "seoul:manager"]
    assert event.after["venues"] == ["hanoi", "seoul"]
    assert event.user == root


def test_a_new_account_has_no_access_until_a_superuser_gives_it(client, floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    add = reverse("admin:auth_user_add")
    data = form_data(client.get(add))
    data.update(username="newcomer", password1="a-long-pass-1", password2="a-long-pass-1")
    data["usable_password"] = "true"
    response = client.post(add, data)
    assert response.status_code == 302, errors_of(response)
    newcomer = type(root).objects.get(username="newcomer")
    assert (newcomer.is_staff, list(newcomer.groups.all())) == (False, [])
    assert not StaffRole.objects.filter(user=newcomer).exists()
    url = reverse("admin:auth_user_change", args=[newcomer.pk])
    data = _role_rows(form_data(client.get(url)), [(floor.venue, DEALER)])
    data.update(is_staff="on")
    assert client.post(url, data).status_code == 302
    event = AuditEvent.objects.get(action="staff.update")
    assert (event.before["is_staff"], event.after["is_staff"]) == (False, True)
    assert event.after["roles"] == ["hanoi:dealer"]
    assert can(newcomer, PLAY, floor.venue.pk)


def test_a_superuser_cannot_take_away_their_own_superuser_status(client, floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    url = reverse("admin:auth_user_change", args=[root.pk])
    data = form_data(client.get(url))
    data.pop("is_superuser")
    response = client.post(url, data)
    assert any("ask another superuser" in m for m in field_errors(response, "is_superuser"))
    root.refresh_from_db()
    assert root.is_superuser


def test_a_venues_staff_are_changed_by_a_superuser_and_audited(client, floor):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    newcomer = UserFactory(username="newcomer", is_staff=True)
    data = form_data(client.get(venue_url(floor.venue)))
    data["staff"] = [*data["staff"], str(newcomer.pk)]
    response = client.post(venue_url(floor.venue), data)
    assert response.status_code == 302, errors_of(response)
    assert floor.venue.staff.filter(pk=newcomer.pk).exists()
    event = AuditEvent.objects.get(action="venue.staff")
    assert set(event.after["staff"]) - set(event.before["staff"]) == {"newcomer"}


def test_staff_services_are_for_superusers(floor):
    from casino.kernel.errors import Forbidden
    from casino.staff.services import staff_access_update, venue_staff_set

    with pytest.raises(Forbidden):
        venue_staff_set(venue=floor.venue, user=floor.manager, staff=[floor.manager])
    with pytest.raises(Forbidden):
        staff_access_update(member=floor.dealer, user=floor.manager, roles=[(floor.venue, MANAGER)])
    assert not AuditEvent.objects.filter(action__in=["venue.staff", "staff.update"]).exists()


# No other way to write


def test_no_delete_nor_bulk_delete_is_offered(admin_client, floor):
    player = PlayerFactory(venue=floor.venue)
    for model, obj in (("venues_table", floor.table), ("players_player", player)):
        delete = reverse(f"admin:{model}_delete", args=[obj.pk])
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403
        listing = admin_client.get(reverse(f"admin:{model}_changelist"))
        assert "delete_selected" not in listing.content.decode()
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    admin_client.force_login(root)
    delete = reverse("admin:venues_venue_delete", args=[floor.venue.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Venue.objects.filter(pk=floor.venue.pk).exists()


def test_a_plain_edit_keeps_djangos_history_message(admin_client, floor):
    """The admin's own history keeps Django's wording for a plain edit."""
    edit_table(admin_client, floor.table, seats="6")
    message = LogEntry.objects.get().change_message
    assert json.loads(message) == [{"changed": {"fields": ["Seats"]}}]


# Venues: their gaming day and shifts, saved by gaming_day_set


def test_a_venues_shifts_are_saved_from_its_page_and_audited(admin_client, floor):
    page = admin_client.get(venue_url(floor.venue))
    assert 'name="shift_plan"' in page.content.decode()
    response = edit_venue(
        admin_client, floor.venue, shift_plan="06:00 Ca sáng\n14:00 Ca chiều\n\n22:00  Ca đêm\n"
    )
    assert response.status_code == 302, errors_of(response)
    assert Venue.objects.get(pk=floor.venue.pk).shift_plan == [
        {"name": "Ca sáng", "starts": "06:00"},
        {"name": "Ca chiều", "starts": "14:00"},
        {"name": "Ca đêm", "starts": "22:00"},
    ]
    event = AuditEvent.objects.get(action="venue.gaming_day")
    assert (event.user, event.before["shifts"]) == (floor.manager, [])
    assert not AuditEvent.objects.filter(action="venue.update").exists()
    # The page shows the plan as it was written, one shift a line.
    shown = form_data(admin_client.get(venue_url(floor.venue)))["shift_plan"]
    assert shown.splitlines() == ["06:00 Ca sáng", "14:00 Ca chiều", "22:00 Ca đêm"]


def test_a_wrong_shift_is_shown_on_the_shifts_field(admin_client, floor):
    response = edit_venue(admin_client, floor.venue, shift_plan="06:00 Ca sáng\n14:00 ca sáng")
    assert field_errors(response, "shift_plan") == [
        "two shifts are named ca sáng; give each shift a name of its own"
    ]
    assert Venue.objects.get(pk=floor.venue.pk).shift_plan == []


def test_a_venues_gaming_day_start_waits_for_its_tables_to_close(admin_client, floor):
    session = open_table(floor)
    refused = edit_venue(admin_client, floor.venue, gaming_day_starts="08:00")
    assert any(
        "these tables are open: NN1" in m for m in field_errors(refused, "gaming_day_starts")
    )
    close_table(floor, session)
    saved = edit_venue(admin_client, floor.venue, gaming_day_starts="08:00", shift_plan="08:00 Day")
    assert saved.status_code == 302, errors_of(saved)
    venue = Venue.objects.get(pk=floor.venue.pk)
    assert (str(venue.gaming_day_starts), venue.shift_plan) == (
        "08:00:00",
        [{"name": "Day", "starts": "08:00"}],
    )


def test_a_venues_shifts_are_shown_to_who_only_reads_the_venue(client, floor):
    edit_venue(client_logged_in(client, floor.manager), floor.venue, shift_plan="06:00 Ca sáng")
    client.force_login(floor.supervisor)
    page = client.get(venue_url(floor.venue))
    assert page.status_code == 200
    assert "06:00 Ca sáng" in page.content.decode()


def client_logged_in(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


# The chips as the venue writes amounts; a request says it is one, and nothing more


def messages_of(response: Any) -> list[tuple[str, str]]:
    return [(message.level_tag, str(message)) for message in response.context["messages"]]


def test_the_chips_are_shown_and_typed_as_the_venue_writes_amounts(admin_client, floor):
    Venue.objects.filter(pk=floor.venue.pk).update(amount_grouping="dot")
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = admin_client.get(table_url(floor.table))
    chips = page.context["adminform"].form["chip_denominations"]
    assert chips.value() == "1.000.000; 100.000; 10.000; 1.000"
    assert "e.g. 500.000; 100.000; 5.000" in chips.help_text
    # typed as the venue writes them, separated by semicolons; saved as the API saves them
    session = open_table(floor)
    close_table(floor, session)
    response = edit_table(admin_client, floor.table, chip_denominations="5.000; 500.000")
    assert response.status_code == 302, errors_of(response)
    assert table_row(floor.table)["chips"] == ["500000", "5000"]
    # what the reader refuses is refused in its words, and nothing changes
    response = edit_table(admin_client, floor.table, chip_denominations="500.000; 2,5")
    assert field_errors(response, "chip_denominations") == [
        "“2,5” is not an amount: write 100.000 or 100000, without decimals"
    ]
    assert table_row(floor.table)["chips"] == ["500000", "5000"]


def test_an_unchanged_chip_list_is_no_change_of_a_live_table(admin_client, floor):
    open_table(floor)
    response = edit_table(admin_client, floor.table, code="NN9")
    assert response.status_code == 302, errors_of(response)
    event = AuditEvent.objects.get(action="table.update")
    assert set(event.after) - {"code"} <= set(event.before)
    assert "chip_denominations" not in event.summary


def test_a_ruleset_request_says_only_that_it_waits_for_approval(admin_client, floor, macau):
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = edit_table(
        admin_client, floor.table, ruleset=str(macau.pk), reason="the Macau sheet"
    )
    shown = messages_of(admin_client.get(response.url))
    change = TableRulesetChange.objects.get()
    assert shown == [
        (
            "warning",
            f"Requested the change of ruleset to macau-001 (request {change.pk}); the table "
            f"keeps {floor.table.ruleset.code} until another manager of the venue approves it.",
        )
    ]
    # with another change saved beside it, both are said
    ruleset_change_refuse(change=change, user=floor.manager)  # withdrawn
    response = edit_table(
        admin_client, floor.table, seats="6", ruleset=str(macau.pk), reason="again"
    )
    levels = [level for level, _text in messages_of(admin_client.get(response.url))]
    assert sorted(levels) == ["success", "warning"]

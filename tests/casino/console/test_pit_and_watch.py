"""The pit boss and the auditor: a supervisor's home is the pit (every live session of the
venue), an auditor watches a live session read-only, supervisors read the venue's reports
and the floor's records in the admin, and one bar leads between the console, the reports
and the admin for those each lets in, with the language and logging out."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from casino.cage.models import Slip
from casino.floor.models import Round
from casino.floor.services.sessions import session_open
from tests.niuniu.test_console import HX, NIU_9, preview_then_confirm, round_data, url

pytestmark = pytest.mark.django_db


def signed_in(client, user):
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def main_of(html: str) -> str:
    return re.search(r"<main.*?</main>", html, re.S).group(0)


def test_a_supervisors_home_is_the_pit_with_every_live_session(client, floor, session):
    signed_in(client, floor.dealer)
    preview_then_confirm(client, session, round_data(box1=(NIU_9, {"single": "100,000"})))
    house = Round.objects.get().house_net
    signed_in(client, floor.supervisor)
    page = client.get(reverse("console:home")).content.decode()
    assert 'aria-labelledby="pit-title"' in page and "Pit: live sessions" in page
    row = re.search(rf'<tr id="pit-session-{session.pk}">.*?</tr>', page, re.S).group(0)
    assert "NN1" in row and "dealer" in row
    assert f"{abs(house):,.0f}" in row
    assert reverse("console:close", args=[session.pk]) in row
    assert reverse("console:watch", args=[session.pk]) in row
    # another venue's sessions are not in it
    other = session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={},
    )
    assert f"pit-session-{other.pk}" not in client.get(reverse("console:home")).content.decode()


def test_a_dealers_home_has_no_pit(client, floor, session):
    page = signed_in(client, floor.dealer).get(reverse("console:home")).content.decode()
    assert "pit-title" not in page
    assert reverse("console:round", args=[session.pk]) in page


def test_an_auditor_watches_a_live_session_read_only(client, floor, session):
    signed_in(client, floor.dealer)
    preview_then_confirm(client, session, round_data(box1=(NIU_9, {"single": "100,000"})))
    signed_in(client, floor.auditor)
    home = client.get(reverse("console:home")).content.decode()
    watch_url = reverse("console:watch", args=[session.pk])
    assert watch_url in home
    assert f'href="{reverse("console:round", args=[session.pk])}"' not in home
    page = client.get(watch_url)
    assert page.status_code == 200
    main = main_of(page.content.decode())
    assert 'role="region"' in main and "Table NN1, read-only" in main
    assert "Rules: vn-kr-004 v1" in main
    assert not re.search(r"<(form|input|button|select|textarea)\b", main)
    assert "hx-post" not in main and 'hx-trigger="every 15s"' in main
    # the refresh is the region alone
    part = client.get(watch_url, **HX).content.decode()
    assert part.lstrip().startswith('<section id="watch"')


def test_the_read_only_view_and_every_write_refuse_the_auditor(client, floor, session):
    signed_in(client, floor.auditor)
    data = round_data(box1=(NIU_9, {"single": "100,000"}))
    assert client.post(reverse("console:watch", args=[session.pk]), data).status_code == 403
    for name in ("preview", "confirm", "slips", "close"):
        assert client.post(url(name, session), data, **HX).status_code == 403, name
    assert not Round.objects.exists() and not Slip.objects.exists()
    # another venue's session is not found at all
    other = session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={},
    )
    assert client.get(reverse("console:watch", args=[other.pk])).status_code == 404


def test_supervisors_read_the_floor_in_the_admin_and_nothing_else(client, floor, session):
    signed_in(client, floor.supervisor)
    assert client.get(reverse("admin:index")).status_code == 200
    for model in (
        "floor_tablesession",
        "floor_round",
        "cage_slip",
        "venues_table",
        "players_player",
    ):
        assert client.get(reverse(f"admin:{model}_changelist")).status_code == 200, model
    assert client.get(reverse("admin:venues_table_add")).status_code == 403
    assert client.get(reverse("admin:rulesets_ruleset_changelist")).status_code == 403
    assert client.get(reverse("admin:audit_auditevent_changelist")).status_code == 403


def nav_of(html: str) -> str:
    return re.search(r'<nav class="app-nav who".*?</nav>', html, re.S).group(0)


def test_one_bar_leads_between_console_reports_and_admin_for_those_allowed(client, floor):
    signed_in(client, floor.supervisor)
    for path in (reverse("console:home"), reverse("reports:dashboard"), reverse("admin:index")):
        response = client.get(path)
        assert response.status_code == 200, path
        bar = nav_of(response.content.decode())
        for link in (reverse("console:home"), reverse("reports:dashboard"), reverse("admin:index")):
            assert f'href="{link}"' in bar, (path, link)
        assert 'for="language"' in bar and 'name="language"' in bar
        assert reverse("logout") in bar
    dealer_bar = nav_of(
        signed_in(client, floor.dealer).get(reverse("console:home")).content.decode()
    )
    assert (
        reverse("reports:dashboard") not in dealer_bar and reverse("admin:index") not in dealer_bar
    )
    assert "data-lock-now" in dealer_bar


def test_the_bar_speaks_the_language_chosen(client, floor):
    signed_in(client, floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    bar = nav_of(client.get(reverse("reports:dashboard")).content.decode())
    assert "Báo cáo" in bar and "Đăng xuất" in bar


def test_the_pit_the_watch_and_the_floor_show_one_win_by_ledger(client, floor, session):
    from casino.floor import figures
    from casino.venues.services.pits import pit_create

    pit = pit_create(
        user=floor.manager,
        venue=floor.venue,
        code="P1",
        name="Main pit",
        supervisors=[floor.supervisor],
        tables=[floor.table],
    )
    signed_in(client, floor.dealer)
    preview_then_confirm(client, session, round_data(box1=(NIU_9, {"single": "100,000"})))
    won = figures.wins_by_ledger([session.pk])[session.pk]
    assert won == Round.objects.get().house_net == -95000  # Niu 9 beats the dealer's Niu 8
    shown = "-95,000"
    signed_in(client, floor.supervisor)
    home = client.get(reverse("console:home")).content.decode()
    row = re.search(rf'<tr id="pit-session-{session.pk}">.*?</tr>', home, re.S).group(0)
    watch = client.get(reverse("console:watch", args=[session.pk])).content.decode()
    floor_page = client.get(reverse("console:pit", args=[pit.pk])).content.decode()
    win = re.search(r"data-win>([^<]*)<", floor_page).group(1)
    assert shown in row and shown in watch and shown in win
    definition = str(figures.DEFINITIONS["win_by_ledger"])
    for page in (home, watch, floor_page):
        assert definition in page

"""The close page lists the drops entered, and a supervisor reverses a mistaken one there."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse

from casino.floor.models import TableSession
from casino.floor.services.sessions import drop_record, session_open
from casino.ledger.models import Drop

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def reversal(session, drop, **data):
    form = {"reason": "counted twice", "supervisor": "supervisor", "password": "pw-for-tests"}
    path = reverse("console:drop-reverse", args=[session.pk, drop.pk])
    return path, {**form, **data}


def test_a_drop_is_reversed_on_the_close_page_with_a_supervisors_credentials(
    dealer, floor, session
):
    drop = drop_record(session=session, user=floor.supervisor, amount=D("2000000"))
    page = dealer.get(reverse("console:close", args=[session.pk])).content.decode()
    assert "Drops entered" in page and f"Reverse drop {drop.pk}" in page
    assert 'name="reason"' in page and "2,000,000" in page
    path, data = reversal(session, drop)
    # wrong credentials, no reason, a dealer's credentials: nothing is reversed
    for bad, message in (
        ({"password": "guess"}, "Wrong username or password: nothing was reversed."),
        ({"reason": " "}, "Say why the drop is reversed."),
        ({"supervisor": "dealer"}, "dealer is not a supervisor at this venue"),
    ):
        refused = dealer.post(path, {**data, **bad}, **HX)
        assert refused.status_code == 422
        assert message in refused.content.decode()
        assert 'role="alert"' in refused.content.decode()
    assert Drop.objects.count() == 1
    # a supervisor's own credentials and a reason
    done = dealer.post(path, data, **HX)
    html = done.content.decode()
    assert done.status_code == 200 and "<html" not in html and 'id="close"' in html
    assert f"Drop {drop.pk} of 2,000,000 reversed." in html
    assert f"Reverses drop {drop.pk}: “counted twice”" in html
    assert f"Reverse drop {drop.pk}" not in html
    undo = Drop.objects.get(reverses=drop)
    assert (undo.amount, undo.counted_by, undo.reason) == (
        D("-2000000"),
        floor.supervisor,
        "counted twice",
    )
    # the same form again reverses nothing more
    assert dealer.post(path, data, **HX).status_code == 200
    assert Drop.objects.count() == 2
    # and the figures on the page no longer count it
    closing = dealer.get(reverse("console:close", args=[session.pk])).content.decode()
    assert "Drop entered</dt><dd>0" in closing


def test_a_drop_of_another_session_is_not_found(dealer, floor, session):
    other = session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={"100000": 5},
    )
    theirs = drop_record(session=other, user=floor.other_supervisor, amount=D("1000"))
    path, data = reversal(session, theirs)
    assert dealer.post(path, data, **HX).status_code == 404
    assert not Drop.objects.filter(reverses=theirs).exists()


def test_a_closed_sessions_drop_form_goes_back_to_the_summary(dealer, floor, session):
    drop = drop_record(session=session, user=floor.supervisor, amount=D("1000"))
    TableSession.objects.filter(pk=session.pk).update(status=TableSession.Status.CLOSED)
    path, data = reversal(session, drop)
    answer = dealer.post(path, data)
    assert answer.status_code == 303
    assert answer.url == reverse("console:close", args=[session.pk])
    assert not Drop.objects.filter(reverses=drop).exists()

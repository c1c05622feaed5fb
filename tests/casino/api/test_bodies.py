"""Bodies Django will not read: too large, too many fields. Never a bare HTML 400 or a 500.

Under /api/ the answer is the API's error body (413 for a body over
DATA_UPLOAD_MAX_MEMORY_SIZE, 400 for too many fields); the console answers with a page
that says what happened, or to htmx with the bare message. Bad JSON and a wrong content
type are in test_errors.py (DRF's own errors, in the same shape).
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client

from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.ledger.models import Drop
from tests.casino.api import client_for, error_of

pytestmark = pytest.mark.django_db

TOO_LARGE = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
TOO_MANY = "&".join(f"f{n}=1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def session(floor):
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )


def signed_in(user) -> tuple[Client, str]:
    """A browser's client: logged in, CSRF enforced, with the token a page hands out."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.get("/console/")
    return client, client.cookies[settings.CSRF_COOKIE_NAME].value


def test_a_body_over_the_limit_is_a_413_in_the_apis_shape(floor, session):
    supervisor = client_for(floor.supervisor)
    body = json.dumps({"amount": "1000", "note": "x" * TOO_LARGE})
    response = supervisor.post(
        f"/api/v1/sessions/{session.pk}/drop/", body, content_type="application/json"
    )
    assert error_of(response) == (413, "too_large", None)
    assert "2.62144 MB" in response.json()["detail"]
    assert not Drop.objects.exists()


def test_too_many_fields_is_a_400_in_the_apis_shape(floor, session):
    # in a list's query string
    listed = client_for(floor.dealer).get(f"/api/v1/rounds/?{TOO_MANY}")
    assert error_of(listed) == (400, "invalid", None)
    assert "more than 1000 fields" in listed.json()["detail"]
    # a browser's session posting a form to the API: the API reads JSON only
    client, token = signed_in(floor.supervisor)
    response = client.post(
        f"/api/v1/sessions/{session.pk}/drop/",
        TOO_MANY,
        content_type=FORM,
        HTTP_X_CSRFTOKEN=token,
    )
    assert error_of(response) == (415, "unsupported_media_type", None)
    assert not Drop.objects.exists()


def test_the_console_says_what_happened_and_changes_nothing(floor, session):
    client, token = signed_in(floor.supervisor)
    close = f"/console/sessions/{session.pk}/close/"
    crowded = client.post(close, f"{TOO_MANY}&csrfmiddlewaretoken={token}", content_type=FORM)
    assert crowded.status_code == 400
    page = crowded.content.decode()
    assert "The form sent more fields than any form here has: nothing was changed." in page
    assert 'role="alert"' in page
    huge = client.post(
        close, f"csrfmiddlewaretoken={token}&drop={'9' * TOO_LARGE}", content_type=FORM
    )
    assert huge.status_code == 413
    assert "The form sent more than 2.62144 MB" in huge.content.decode()
    # to htmx, the bare message, which the console shows in place
    partial = client.post(
        close, TOO_MANY, content_type=FORM, HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true"
    )
    assert partial.status_code == 400
    assert partial["Content-Type"].startswith("text/plain")
    assert partial.content.decode().startswith("The form sent more fields")
    session.refresh_from_db()
    assert session.status == TableSession.Status.OPEN

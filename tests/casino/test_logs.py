"""Structured logs: every line a JSON object with its request's (or task's) id, user and venue."""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.conf import settings
from django.urls import reverse

from casino.kernel.logs import ContextFilter, JsonFormatter
from casino.reports.tasks import shift_reports_sweep_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def lines():
    """What the root logger writes, formatted as in production (LOG_FORMAT=json)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)


def test_json_is_the_default_format():
    assert settings.LOG_FORMAT == "json"
    assert settings.LOGGING["handlers"]["console"]["formatter"] == "json"


def test_a_requests_lines_carry_its_id_user_and_venue(client, floor, lines):
    client.force_login(floor.manager)
    # a sane id from the proxy is kept and echoed
    response = client.get(
        reverse("reports:dashboard") + "?venue=hanoi", HTTP_X_REQUEST_ID="edge-42"
    )
    assert response.status_code == 200 and response["X-Request-ID"] == "edge-42"
    access = [line for line in lines() if line["logger"] == "casino.access"]
    assert len(access) == 1
    line = access[0]
    assert (line["request_id"], line["user"], line["venue"]) == (
        "edge-42",
        "floor-manager",
        "hanoi",
    )
    assert (line["method"], line["path"], line["status"]) == ("GET", "/reports/", 200)
    assert line["level"] == "INFO" and line["time"].endswith("+00:00")
    assert isinstance(line["duration_ms"], float)

    # an id that could forge a line is replaced by a new one
    response = client.get(reverse("reports:dashboard"), HTTP_X_REQUEST_ID='x"\n{"level":"ERROR"}')
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32 and request_id.isalnum()
    assert lines()[-1]["request_id"] == request_id


def test_a_403_and_another_venues_404_are_security_lines(client, floor, lines):
    client.force_login(floor.dealer)
    assert client.get(reverse("reports:dashboard")).status_code == 403
    client.force_login(floor.manager)
    assert client.get(reverse("reports:dashboard") + "?venue=seoul").status_code == 404
    security = [line for line in lines() if line["logger"] == "casino.security"]
    assert [(line["user"], line["message"]) for line in security] == [
        ("dealer", "permission denied: GET /reports/"),
        (
            "floor-manager",
            f"not found at the user's venues: the reports of venue {floor.other_venue.pk}",
        ),
    ]
    assert security[1]["venue"] == "seoul" and security[1]["venue_id"] == floor.other_venue.pk


def test_a_tasks_lines_carry_its_task_id(lines):
    shift_reports_sweep_task.apply(task_id="task-7")
    ended = [line for line in lines() if line["logger"] == "casino.tasks"]
    assert len(ended) == 1
    assert ended[0]["request_id"] == "task-7"
    assert ended[0]["task"] == "casino.tasks.shift_reports_sweep_task"
    assert ended[0]["state"] == "SUCCESS"


def test_a_failed_login_is_a_json_security_line(client, floor, lines):
    client.post(
        settings.LOGIN_URL, {"username": "dealer", "password": "wrong"}, REMOTE_ADDR="10.0.0.9"
    )
    security = [line for line in lines() if line["logger"] == "casino.security"]
    assert len(security) == 1
    line = security[0]
    assert line["level"] == "WARNING" and line["event"] == "login_failed"
    assert (line["username"], line["address"]) == ("dealer", "10.0.0.9")
    assert line["request_id"] and "wrong" not in json.dumps(line)

"""The OpenAPI schema: generated without errors or warnings, and served."""

from __future__ import annotations

import re

import pytest
import yaml
from django.core.management import call_command

from tests.casino.api import client_for, error_of
from tests.factories import UserFactory


def test_the_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    paths = schema["paths"]
    assert "/api/v1/rounds/{id}/settle/" in paths
    settle = paths["/api/v1/rounds/{id}/settle/"]["post"]
    assert {p["name"] for p in settle["parameters"]} == {"id", "Idempotency-Key"}
    assert set(paths["/api/v1/rounds/{id}/void/"]["post"]["responses"]) >= {"200", "202", "403"}
    assert schema["components"]["schemas"]["Error"]["required"] == ["detail", "error", "field"]


@pytest.mark.django_db
def test_the_schema_and_the_docs_are_served_to_the_apis_callers_only(floor, client):
    # a token's holder reads the schema; without one it is the API's 401
    assert client_for(floor.dealer).get("/api/schema/").status_code == 200
    anonymous = client_for()
    refused = anonymous.get("/api/schema/")
    assert error_of(refused)[:2] == (401, "not_authenticated")
    assert refused["Content-Type"] == "application/json"
    # a browser signs in for the Swagger page, which loads Swagger UI from the app itself
    sent = client.get("/api/docs/")
    assert sent.status_code == 302 and sent.url.startswith("/accounts/login/?next=")
    client.force_login(floor.auditor)
    page = client.get("/api/docs/").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r'"(\S+\.(?:js|css))"', page)
    assert any("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in a for a in assets)
    assert not [a for a in assets if a.startswith(("http:", "https:", "//"))], assets
    assert "cdn" not in page.lower()
    assert client.get("/api/schema/?format=json").json()["info"]["title"]


@pytest.mark.django_db
def test_staff_without_a_floor_role_are_told_why(client):
    client.force_login(UserFactory(username="bare", is_staff=True))
    page = client.get("/api/docs/")
    assert page.status_code == 403
    assert "Only staff with a floor role read the API" in page.content.decode()
    assert error_of(client.get("/api/schema/"))[:2] == (403, "forbidden")


def test_the_days_reads_are_in_the_schema(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    paths = schema["paths"]
    for path in (
        "/api/v1/venues/{id}/cash-transactions/",
        "/api/v1/venues/{id}/cash-alerts/",
        "/api/v1/venues/{id}/cash-report/",
        "/api/v1/venues/{id}/ratings/",
        "/api/v1/venues/{id}/figures/{gaming_date}/",
        "/api/v1/venues/{id}/periods/",
    ):
        assert set(paths[path]) == {"get"}, path
        assert set(paths[path]["get"]["responses"]) >= {"200", "401", "403", "404"}, path
    rows = schema["components"]["schemas"]["DayFiguresRow"]["properties"]
    assert rows["win_by_count"]["type"] == "string"  # money as a Decimal string
    assert "closer - opener + credits - fills + drop" in rows["win_by_count"]["description"]
    listed = paths["/api/v1/venues/{id}/cash-transactions/"]["get"]["parameters"]
    assert {p["name"] for p in listed} >= {"gaming_date", "table", "session", "player", "limit"}

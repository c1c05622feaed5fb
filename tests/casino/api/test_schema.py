"""The OpenAPI schema: generated without errors or warnings, and served."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command

from tests.casino.api import client_for


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
def test_the_schema_and_the_docs_are_served(floor):
    client = client_for(floor.dealer)
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200

"""Browsers ask every page's icon at /favicon.ico: it is there, for anyone, not a 404."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_icon_is_served_to_anyone_and_kept(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert "max-age=86400" in response["Cache-Control"]
    assert response.content.startswith(b"<svg")

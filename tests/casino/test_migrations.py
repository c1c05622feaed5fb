"""The migrations describe the models exactly: a model change without its migration fails here."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:
        pytest.fail(f"models differ from their migrations (exit {exit_.code}):\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()

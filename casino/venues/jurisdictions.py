"""The jurisdictions a venue can be in, and what their anti-money-laundering law asks of a
casino: one frozen preset per jurisdiction, each citing where its figures are written.

A venue names its jurisdiction (``Venue.jurisdiction``, empty: none chosen), and
``jurisdiction_of(venue)`` gives its preset. The preset drives the cash thresholds: a manager
proposes the law's figures from it, and a reporting threshold above the law's is refused
(``casino/cage/services/threshold_presets.py``). Each preset cites its sources, and
``docs/compliance/`` has one guide per jurisdiction saying what each source says and where
it was read (``docs/compliance/README.md``: how to add one).

A figure that no source we read states is ``None`` (or, for a yes/no, named in
``unconfirmed``), never guessed; the guide says so plainly. Adding a jurisdiction is adding
one entry to ``JURISDICTIONS`` and its guide.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _


class Period:
    """What a reporting threshold is measured over."""

    #: The customer's cash of a (gaming) day added up; the venue counts its gaming day.
    GAMING_DAY = "gaming_day"
    #: Each transaction on its own.
    TRANSACTION = "transaction"


class Instrument:
    """What a law counts towards its threshold."""

    CASH = "cash"
    CHIPS = "chips"
    CHEQUES = "cheques"
    CREDIT = "credit"


class Deadline:
    """How a suspicious transaction report's deadline is counted."""

    WORKING_DAYS = "working_days"
    CALENDAR_DAYS = "calendar_days"
    HOURS = "hours"
    #: The law says "without delay" and gives no number.
    WITHOUT_DELAY = "without_delay"


class SourceKind:
    """What a cited source is: the law's text, its authority's page, or a summary of it."""

    LAW = "law"
    AUTHORITY = "authority"
    SUMMARY = "summary"


@dataclass(frozen=True)
class Source:
    """Where a preset's figures are written: a title, the article or section, the address
    it was read at, and what it is (``SourceKind``)."""

    title: Any
    article: Any
    url: str
    kind: str = SourceKind.LAW


@dataclass(frozen=True)
class Jurisdiction:
    """What one jurisdiction's law asks of a casino against money laundering."""

    code: str
    name: Any
    currency: str
    #: The large cash transaction reporting threshold, in ``currency``: at or above it, a
    #: customer's cash is reported (``reporting_period``).
    reporting_threshold: Decimal
    reporting_period: str  # Period
    #: Who the large cash transaction reports go to.
    large_reports_to: Any
    #: The customer identification (due diligence) threshold for casinos, where the law has
    #: one of its own; ``None`` where it has none or no source we read states it.
    cdd_threshold: Decimal | None
    cdd_period: str  # Period
    #: What the reporting period adds up: the venue's tables, its cage, and the operator's
    #: other venues in the jurisdiction.
    aggregates_tables: bool
    aggregates_cage: bool
    aggregates_operator_venues: bool
    #: What counts towards the threshold (``Instrument``).
    instruments: tuple[str, ...]
    #: How many years records are kept; ``None`` where no source we read states it.
    record_years: int | None
    #: The suspicious transaction report's deadline: a number of ``str_deadline_unit``
    #: (``None`` with ``Deadline.WITHOUT_DELAY``), and who the report goes to.
    str_deadline: int | None
    str_deadline_unit: str  # Deadline
    str_authority: Any
    sources: tuple[Source, ...]
    #: What the report's deadline counts from: the detection of the activity
    #: (``"detection"``) or the decision that it is suspicious (``"decision"``).
    str_counted_from: str = "decision"
    #: The fields whose value no source we read confirms (the guide says why).
    unconfirmed: tuple[str, ...] = ()

    @property
    def confirmed(self) -> bool:
        """Whether every figure of the preset is stated by a source it cites."""
        return not self.unconfirmed

    @property
    def legal_source(self) -> Source:
        """The source of the reporting threshold (the first cited)."""
        return self.sources[0]


VIETNAM = Jurisdiction(
    code="VN",
    name=_("Vietnam"),
    currency="VND",
    reporting_threshold=Decimal("400000000"),
    reporting_period=Period.GAMING_DAY,
    large_reports_to=_("State Bank of Vietnam, Anti-Money Laundering Department"),
    cdd_threshold=Decimal("70000000"),
    cdd_period=Period.GAMING_DAY,
    aggregates_tables=True,
    aggregates_cage=True,
    aggregates_operator_venues=False,
    instruments=(Instrument.CASH,),
    record_years=None,
    str_deadline=3,
    str_deadline_unit=Deadline.WORKING_DAYS,
    str_counted_from="detection",
    str_authority=_("State Bank of Vietnam, Anti-Money Laundering Department"),
    sources=(
        Source(
            _("Decision 11/2023/QD-TTg on the minimum level of high-value transactions"),
            _("Article 3"),
            "https://english.luatvietnam.vn/tai-chinh/decision-11-2023-qd-ttg-high-value-"
            "transactions-subject-to-reporting-251149-d1.html",
        ),
        Source(
            _("Law on Anti-Money Laundering No. 14/2022/QH15"),
            _("Article 3(3), Article 4(2), Article 25(2)"),
            "https://english.luatvietnam.vn/law-on-anti-money-laundering-no-14-2022-qh15-of-the-"
            "national-assembly-237800-doc1.html",
        ),
        Source(
            _("Decree 19/2023/ND-CP detailing the Law on Anti-Money Laundering"),
            _("Article 6"),
            "https://vietlawonline.com/en/new-regulations-on-assessment-of-money-laundering-"
            "risks-and-anti-money-laundering-measures-vbpl123836.vlo",
            SourceKind.SUMMARY,
        ),
        Source(
            _("Reporting thresholds of the 2022 law, Decree 19/2023 and Decision 11/2023"),
            "",
            "http://tothethao.com/bong-da_en/vietnam-enforces-strict-anti-money-laundering-"
            "checks-on-large-transactions-2382240.html",
            SourceKind.SUMMARY,
        ),
        Source(
            _("Summary of the 2022 law's reporting time limits"),
            "",
            "https://financialcrime.world/posts/aml-law-what-firms-need-"
            "pub6ba302a878cd4aa7b08970f2f95c100c",
            SourceKind.SUMMARY,
        ),
    ),
    unconfirmed=("aggregates_operator_venues", "record_years"),
)

KOREA = Jurisdiction(
    code="KR",
    name=_("South Korea"),
    currency="KRW",
    reporting_threshold=Decimal("10000000"),
    reporting_period=Period.GAMING_DAY,
    large_reports_to=_("Korea Financial Intelligence Unit (KoFIU)"),
    cdd_threshold=Decimal("3000000"),
    cdd_period=Period.TRANSACTION,
    aggregates_tables=True,
    aggregates_cage=True,
    aggregates_operator_venues=True,
    instruments=(Instrument.CASH, Instrument.CHEQUES),
    record_years=None,
    str_deadline=None,
    str_deadline_unit=Deadline.WITHOUT_DELAY,
    str_authority=_("Korea Financial Intelligence Unit (KoFIU)"),
    sources=(
        Source(
            _("KoFIU: Currency Transaction Report system"),
            "",
            "https://www.kofiu.go.kr/eng/policy/amls04.do",
            SourceKind.AUTHORITY,
        ),
        Source(
            _("KoFIU: Suspicious Transaction Report"),
            "",
            "https://kofiu.go.kr/eng/policy/amls03.do",
            SourceKind.AUTHORITY,
        ),
        Source(
            _("Act on Reporting and Using Specified Financial Transaction Information"),
            _("Article 4, Article 4-2, Article 5-2"),
            "https://elaw.klri.re.kr/eng_mobile/viewer.do?hseq=55944&type=sogan&key=40",
        ),
        Source(
            _("KoFIU sanction of a casino: CTR of KRW 10 million, identification at KRW 3 million"),
            "",
            "https://casinogumsa.com/bbs/board.php?bo_table=ca_news&page=24&wr_id=1198",
            SourceKind.SUMMARY,
        ),
        Source(
            _("Enforcement Decree amendment of 2008: cheques exchanged for chips"),
            "",
            "https://fnnews.com/ampNews/200811041600290776",
            SourceKind.SUMMARY,
        ),
    ),
    unconfirmed=("aggregates_operator_venues", "instruments", "record_years"),
)

MACAU = Jurisdiction(
    code="MO",
    name=_("Macau"),
    currency="MOP",
    reporting_threshold=Decimal("500000"),
    reporting_period=Period.TRANSACTION,
    large_reports_to=_("Gaming Inspection and Coordination Bureau (DICJ)"),
    cdd_threshold=Decimal("500000"),
    cdd_period=Period.TRANSACTION,
    aggregates_tables=False,
    aggregates_cage=False,
    aggregates_operator_venues=False,
    instruments=(Instrument.CASH, Instrument.CHIPS, Instrument.CHEQUES, Instrument.CREDIT),
    record_years=5,
    str_deadline=2,
    str_deadline_unit=Deadline.WORKING_DAYS,
    str_authority=_("Financial Intelligence Office (GIF, Gabinete de Informação Financeira)"),
    sources=(
        Source(
            _("DICJ Instruction 1/2016 on the prevention of money laundering in gaming"),
            "",
            "https://www.iflr.com/Article/3569311/Macau-AML-rules.html?ArticleId=3569311",
            SourceKind.SUMMARY,
        ),
        Source(
            _("The Prevention of Money Laundering in the Macau Gaming Industry"),
            "",
            "https://issuu.com/asiagaminglawyer/docs/agl_4_mid-res/16",
            SourceKind.SUMMARY,
        ),
        Source(
            _("GIF: suspicious transaction reports under Administrative Regulation 7/2006"),
            "",
            "https://www.gif.gov.mo/en/standard/evidence.html",
            SourceKind.AUTHORITY,
        ),
        Source(
            _("Casinos report high value transactions to the DICJ"),
            "",
            "http://ggrasia.com/fewer-macau-casino-suspect-transaction-reports-in-2015",
            SourceKind.SUMMARY,
        ),
    ),
    unconfirmed=("reporting_period",),
)

#: Every jurisdiction a venue can be in, by code.
JURISDICTIONS: dict[str, Jurisdiction] = {j.code: j for j in (VIETNAM, KOREA, MACAU)}


def jurisdiction_choices() -> list[tuple[str, Any]]:
    """The choices of ``Venue.jurisdiction``: each jurisdiction's code and name."""
    return [(j.code, j.name) for j in JURISDICTIONS.values()]


def jurisdiction_of(venue: Any) -> Jurisdiction | None:
    """The venue's jurisdiction's preset; None when it has chosen none (or names one no
    longer kept)."""
    return JURISDICTIONS.get(getattr(venue, "jurisdiction", "") or "")

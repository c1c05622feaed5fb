"""The columns of a shift report's tables and how each figure is written: the sections, each
table's (key, header) columns, and which keys hold money, computed amounts, percentages,
counts and row numbers, which the page, the PDF (``casino.reports.outputs.present``) and
the CSV and XLSX (``kind_of``) all read."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy, pgettext_lazy

from casino.exports import Kind

#: The performance sections: (figures key, title, what the first column is).
SECTIONS = [
    ("tables", gettext_lazy("Tables"), gettext_lazy("Table")),
    ("dealers", gettext_lazy("Dealers"), pgettext_lazy("staff role", "Dealer")),
    ("games", gettext_lazy("Games"), gettext_lazy("Game")),
    ("bet_types", gettext_lazy("Bet types"), gettext_lazy("Bet type")),
    ("hours", gettext_lazy("Hours"), gettext_lazy("Hour")),
]
#: Columns of a performance section: (key, header).
FIGURE_COLUMNS = [
    ("rounds", gettext_lazy("Rounds")),
    ("bets", gettext_lazy("Bets")),
    ("handle", gettext_lazy("Handle")),
    ("player_result", gettext_lazy("Player win/loss")),
    ("commission", gettext_lazy("Commission")),
    ("house_win", gettext_lazy("House win")),
    ("hold_pct", gettext_lazy("Hold %")),
    ("theoretical_win", gettext_lazy("Theoretical win")),
    ("theoretical_hold_pct", gettext_lazy("Theoretical hold %")),
    ("actual_minus_theoretical", gettext_lazy("Actual - theoretical")),
    ("hold_low_pct", gettext_lazy("95% range low %")),
    ("hold_high_pct", gettext_lazy("95% range high %")),
    ("flagged", gettext_lazy("Outside range")),
]
PLAYER_COLUMNS = [
    ("key", gettext_lazy("Member")),
    ("label", gettext_lazy("Name")),
    ("rounds", gettext_lazy("Rounds")),
    ("hands", gettext_lazy("Hands")),
    ("minutes", gettext_lazy("Minutes at table")),
    ("bets", gettext_lazy("Bets")),
    ("handle", gettext_lazy("Handle")),
    ("average_bet", gettext_lazy("Average bet")),
    ("theoretical_win", gettext_lazy("Theoretical win")),
    ("actual_win", gettext_lazy("Actual win")),
    ("commission", gettext_lazy("Commission")),
]
FEE_COLUMNS = [
    ("label", gettext_lazy("Table")),
    ("rounds", gettext_lazy("Rounds")),
    ("seats", gettext_lazy("Seats played")),
    ("volume", gettext_lazy("Volume between players")),
    ("fees", gettext_lazy("Fees")),
    # xgettext:no-python-format
    ("fee_pct", gettext_lazy("Fee % of volume")),
]
PAYOUT_COLUMNS = [
    ("table", gettext_lazy("Table")),
    ("round", gettext_lazy("Round")),
    ("box", gettext_lazy("Box")),
    ("player", gettext_lazy("Member")),
    ("player_name", gettext_lazy("Name")),
    ("bet_type", gettext_lazy("Bet type")),
    ("stake", gettext_lazy("Stake")),
    ("odds", gettext_lazy("Odds")),
    ("net", gettext_lazy("Paid (net)")),
    ("settled_at", gettext_lazy("Settled at")),
    ("settled_by", gettext_lazy("Settled by")),
]
VOID_COLUMNS = [
    ("table", gettext_lazy("Table")),
    ("round", gettext_lazy("Round")),
    ("handle", gettext_lazy("Handle")),
    ("house_net", gettext_lazy("House net reversed")),
    ("reason", gettext_lazy("Reason")),
    ("requested_by", gettext_lazy("Requested by")),
    ("requested_at", gettext_lazy("Requested at")),
    ("approved_by", gettext_lazy("Approved by")),
    ("approved_at", gettext_lazy("Approved at")),
]
REQUEST_COLUMNS = [
    ("table", gettext_lazy("Table")),
    ("round", gettext_lazy("Round")),
    ("status", gettext_lazy("Status")),
    ("reason", gettext_lazy("Reason")),
    ("requested_by", gettext_lazy("Requested by")),
    ("requested_at", gettext_lazy("Requested at")),
]
VOIDED_SLIP_COLUMNS = [
    ("table", gettext_lazy("Table")),
    ("slip", gettext_lazy("Slip")),
    ("kind", gettext_lazy("Kind")),
    ("amount", gettext_lazy("Amount")),
    ("reason", gettext_lazy("Reason")),
    ("requested_by", gettext_lazy("Requested by")),
    ("voided_by", gettext_lazy("Voided by")),
    ("voided_at", gettext_lazy("Voided at")),
]
SESSION_COLUMNS = [
    ("table", gettext_lazy("Table")),
    ("session", gettext_lazy("Session")),
    ("status", gettext_lazy("Status")),
    ("dealer", pgettext_lazy("staff role", "Dealer")),
    ("opening", gettext_lazy("Opening")),
    ("closing", gettext_lazy("Closing")),
    ("fills", gettext_lazy("Fills")),
    ("credits", gettext_lazy("Credits")),
    ("drop", gettext_lazy("Drop")),
    ("win_by_count", gettext_lazy("Win by count")),
    ("win_by_ledger", gettext_lazy("Win by ledger")),
    ("variance", gettext_lazy("Variance")),
    ("flagged", gettext_lazy("Flagged")),
    ("counted", gettext_lazy("The count")),
    ("counted_drop", gettext_lazy("Drops counted after close")),
    ("win_with_count", gettext_lazy("Win with the count's drops")),
    ("variance_with_count", gettext_lazy("Variance with the count")),
    ("opened_by", gettext_lazy("Opener counted by")),
    ("opening_confirmed_by", gettext_lazy("Opener confirmed by")),
    ("opening_difference", gettext_lazy("Opening difference")),
    ("opening_reason", gettext_lazy("Opening difference reason")),
    ("closing_counted_by", gettext_lazy("Closer counted by")),
    ("closed_by", gettext_lazy("Closed by")),
]
SLIP_COLUMNS = [
    ("table", gettext_lazy("Table")),
    ("slip", gettext_lazy("Slip")),
    ("kind", gettext_lazy("Kind")),
    ("amount", gettext_lazy("Amount")),
    ("requested_by", gettext_lazy("Requested by")),
    ("issued_by", gettext_lazy("Issued by")),
    ("verified_by", gettext_lazy("Verified by")),
    ("verified_at", gettext_lazy("Verified at")),
]

MONEY = {
    "handle",
    "player_result",
    "commission",
    "house_win",
    "actual_win",
    "theoretical_win",
    "actual_minus_theoretical",
    "unrated_handle",
    "volume",
    "fees",
    "stake",
    "net",
    "amount",
    "opening",
    "opening_difference",
    "denomination",
    "closing",
    "fills",
    "credits",
    "drop",
    "win_by_count",
    "win_by_ledger",
    "variance",
    "average_bet",
    "house_net",
    "house_net_reversed",
    "counted_drop",
    "win_with_count",
    "drop_with_count",
    "variance_with_count",
}
#: Figures computed from amounts (a quotient, a product): rounded half up to the currency's
#: minor units when shown (``casino.kernel.money.format_money``); every other amount shows whole.
COMPUTED = {"average_bet", "theoretical_win", "actual_minus_theoretical"}
PERCENT = {
    "hold_pct",
    "theoretical_hold_pct",
    "hold_low_pct",
    "hold_high_pct",
    "fee_pct",
    "win_drop_pct",
}
COUNTS = {
    "rounds",
    "bets",
    "hands",
    "minutes",
    "seats",
    "count",
    "flagged_sessions",
    "uncounted_sessions",
    "unlisted",
}
#: Numbers that name a row (a round's number, a box's position, a session's).
NUMBERED = {"round", "box", "session"}


def kind_of(key: str | None) -> Kind:
    """How a figure's column is written in the CSV and the XLSX (``casino.exports``)."""
    if key in COMPUTED:
        return Kind.COMPUTED
    if key in MONEY:
        return Kind.MONEY
    if key in PERCENT:
        return Kind.PERCENT
    if key in COUNTS or key in NUMBERED:
        return Kind.COUNT
    if key == "odds":
        return Kind.RATE
    return Kind.TEXT


def columns_of(section: str) -> Sequence[tuple[str, str]]:
    return {"players": PLAYER_COLUMNS, "fee_games": FEE_COLUMNS}.get(section, FIGURE_COLUMNS)

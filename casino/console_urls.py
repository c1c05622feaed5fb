"""The console's URLs, under ``/console/``: the floor's shell (the round screen, its preview
and its Confirm among them), the cage's and the count's screens, and each game's own live
partials (``GameConsole.urls``, tried first), all named in the ``console`` namespace. The
project's wiring mounts them: the floor's screens do not know the cage's and the count's
above them."""

from django.urls import URLPattern, URLResolver, path

from casino import games
from casino.cage.views import cage, cash, cash_log, front_money, manual, markers, patrons, slips
from casino.cage.views import inventory as cage_inventory
from casino.count import views as count
from casino.floor.console import (
    closing,
    floor,
    history,
    lock,
    pit,
    rotation,
    tables,
)
from casino.floor.console import round as rounds
from casino.staff.policy import Capability, declare

app_name = "console"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", tables.home, name="home"),
    path("language/venue/", tables.language_of_venue, name="language-of-venue"),
    # The lock screen's: its unlock is anyone's to try (every refusal a login attempt); a
    # login locks its own console and says it is in use; a PIN is one's own.
    path("lock/", declare(Capability.SIGNED_IN)(lock.lock), name="lock"),
    path("active/", declare(Capability.SIGNED_IN)(lock.active), name="active"),
    path("unlock/", declare(Capability.PUBLIC)(lock.unlock), name="unlock"),
    path("pin/", declare(Capability.SIGNED_IN)(lock.own_pin), name="pin"),
    path("tables/<int:table_id>/open/", tables.table_open, name="open"),
    path("sessions/<int:session_id>/", tables.round_screen, name="round"),
    # The round screen's preview and Confirm, every game's: the table's game reads the entry.
    path("sessions/<int:session_id>/preview/", rounds.preview, name="preview"),
    path("sessions/<int:session_id>/confirm/", rounds.confirm, name="confirm"),
    path("sessions/<int:session_id>/watch/", pit.watch, name="watch"),
    path("sessions/<int:session_id>/history/", history.history, name="history"),
    path(
        "sessions/<int:session_id>/rounds/<int:round_id>/",
        history.round_detail,
        name="round-detail",
    ),
    path("sessions/<int:session_id>/rounds/<int:round_id>/void/", history.void, name="void"),
    path("sessions/<int:session_id>/slips/", slips.slips, name="slips"),
    path("sessions/<int:session_id>/dealers/", rotation.dealers, name="dealers"),
    path(
        "sessions/<int:session_id>/slips/<int:slip_id>/<slug:step>/",
        slips.slip_step,
        name="slip-step",
    ),
    path("sessions/<int:session_id>/cash/", cash.cash, name="cash"),
    path("sessions/<int:session_id>/markers/", markers.session_markers, name="markers"),
    path(
        "sessions/<int:session_id>/cash/<int:tx_id>/void/",
        cash.cash_void_view,
        name="cash-void",
    ),
    path(
        "sessions/<int:session_id>/front-money/", front_money.front_money_table, name="front-money"
    ),
    path("pits/", floor.pits, name="pits"),
    path("pits/<int:pit_id>/", floor.pit_view, name="pit"),
    path("pits/<int:pit_id>/limits/", floor.limit_schedule, name="limit-schedule"),
    path("cage/", cage.cage_home, name="cage-home"),
    path("cage/<int:venue_id>/", cage.cage, name="cage"),
    path("cage/<int:venue_id>/markers/", markers.cage_markers, name="cage-markers"),
    path("cage/<int:venue_id>/markers/issue/", markers.cage_marker_issue, name="cage-marker-issue"),
    path(
        "cage/<int:venue_id>/markers/<int:marker_id>/pay/",
        markers.cage_marker_pay,
        name="cage-marker-pay",
    ),
    path(
        "cage/<int:venue_id>/inventory/",
        cage_inventory.cage_inventory,
        name="cage-inventory",
    ),
    path(
        "cage/<int:venue_id>/inventory/count/",
        cage_inventory.cage_count,
        name="cage-count",
    ),
    path(
        "cage/<int:venue_id>/inventory/counts/<int:count_id>/sign/",
        cage_inventory.cage_count_signature,
        name="cage-count-sign",
    ),
    path(
        "cage/<int:venue_id>/inventory/<slug:move>/",
        cage_inventory.cage_movement,
        name="cage-movement",
    ),
    path(
        "cage/<int:venue_id>/slips/<int:slip_id>/<slug:step>/",
        cage.cage_step,
        name="cage-step",
    ),
    path("cage/<int:venue_id>/front-money/", front_money.front_money_cage, name="cage-front-money"),
    path("cage/<int:venue_id>/cash-log/", cash_log.cash_log_page, name="cash-log"),
    path("cage/<int:venue_id>/cash-log.csv", cash_log.cash_log_csv, name="cash-log-csv"),
    path(
        "cage/<int:venue_id>/unknown-patrons/",
        patrons.unknown_patrons,
        name="cage-unknown-patrons",
    ),
    path(
        "cage/<int:venue_id>/unknown-patrons/record/",
        patrons.unknown_patron_record,
        name="cage-unknown-patron-record",
    ),
    path(
        "cage/<int:venue_id>/unknown-patrons/<int:patron_id>/link/",
        patrons.unknown_patron_link_page,
        name="cage-unknown-patron-link",
    ),
    path("slips/<int:slip_id>/pdf/", cage.slip_pdf, name="slip-pdf"),
    path("venues/<int:venue_id>/slip-report/", cage.slip_report, name="slip-report"),
    path("venues/<int:venue_id>/slip-report.csv", cage.slip_report_csv, name="slip-report-csv"),
    # When the system is down: the manual series, their printed forms, the late entries.
    path("venues/<int:venue_id>/manual/", manual.manual_home, name="manual"),
    path("venues/<int:venue_id>/manual/issue/", manual.series_issue, name="manual-series-issue"),
    path("manual/<int:series_id>/", manual.series_page, name="manual-series"),
    path("manual/<int:series_id>/print/", manual.series_print, name="manual-series-print"),
    path("manual/<int:series_id>/pdf/", manual.series_pdf, name="manual-series-pdf"),
    path("manual/<int:series_id>/enter/", manual.paper_enter, name="manual-paper-enter"),
    path("manual/<int:series_id>/spoil/", manual.paper_spoil, name="manual-paper-spoil"),
    path("sessions/<int:session_id>/close/", closing.close, name="close"),
    path(
        "sessions/<int:session_id>/drops/<int:drop_id>/reverse/",
        closing.drop_reversal,
        name="drop-reverse",
    ),
    path("count/", count.count_home, name="count-home"),
    path("count/<int:venue_id>/<str:gaming_date>/", count.count_day, name="count-day"),
    path(
        "count/<int:venue_id>/<str:gaming_date>/boxes/<int:box_id>/",
        count.count_box,
        name="count-box",
    ),
    path(
        "count/<int:venue_id>/<str:gaming_date>/close/",
        count.count_day_close,
        name="count-close",
    ),
    path(
        "count/<int:venue_id>/<str:gaming_date>/reopen/",
        count.count_day_reopen,
        name="count-reopen",
    ),
    path(
        "count/<int:venue_id>/<str:gaming_date>/figures/",
        count.count_figures,
        name="count-figures",
    ),
]

# Each game's live partials first: the hand and the stakes partials are most of the
# console's requests, and Django tries the patterns in order (44 µs to find the hand's
# after the others, 18 µs first). None of them is a path of the shell's.
urlpatterns[:0] = [url for game in games.all_games() for url in game.console.urls()]

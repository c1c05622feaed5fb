from django.urls import path

from casino.cage.views import front_money, marker_reports
from casino.cage.views import inventory_reports as cage_views
from casino.cage.views import reports as cash_views
from casino.integrity import investigation_views
from casino.integrity import rounds_views as integrity_rounds_views
from casino.integrity import views as integrity_views
from casino.reports import (
    period_views,
    player_views,
    reconciliation_views,
    statistical_views,
    views,
)

app_name = "reports"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("shift/<int:pk>/", views.report_detail, name="report"),
    path("shift/<int:pk>/rebuild/", views.report_rebuild, name="rebuild"),
    path("shift/<int:pk>/files/<str:name>", views.report_download, name="file"),
    path("shifts/<int:shift_id>/build/", views.shift_build, name="build"),
    path("investigations/", investigation_views.investigation_list, name="investigations"),
    path("investigations/log/", investigation_views.investigation_log, name="investigation_log"),
    path(
        "investigations/<int:pk>/",
        investigation_views.investigation_detail,
        name="investigation",
    ),
    path(
        "investigations/<int:pk>/<str:step>/",
        investigation_views.investigation_step,
        name="investigation_step",
    ),
    path("markers/aging/", marker_reports.marker_aging_report, name="marker_aging"),
    path("markers/aging/csv/", marker_reports.marker_aging_csv, name="marker_aging_csv"),
    path(
        "markers/credit-lines/", marker_reports.credit_line_propose_view, name="credit_line_propose"
    ),
    path("markers/terms/", marker_reports.marker_terms_view, name="marker_terms"),
    path(
        "markers/credit-lines/<int:pk>/approve/",
        marker_reports.credit_line_approve_view,
        name="credit_line_approve",
    ),
    path("cash/", cash_views.cash_report, name="cash"),
    path("cash/csv/", cash_views.cash_report_csv, name="cash_csv"),
    path("cash/thresholds/", cash_views.thresholds_propose_view, name="cash_thresholds"),
    path(
        "cash/thresholds/<int:pk>/approve/",
        cash_views.thresholds_approve_view,
        name="cash_thresholds_approve",
    ),
    path("front-money/", front_money.front_money_report, name="front_money"),
    path("front-money/csv/", front_money.front_money_report_csv, name="front_money_csv"),
    path(
        "front-money/<int:pk>/reverse/",
        front_money.front_money_reverse_view,
        name="front_money_reverse",
    ),
    path("cage/", cage_views.cage_shifts, name="cage_shifts"),
    path("cage/shifts/<int:pk>/", cage_views.cage_shift_report, name="cage_shift"),
    path("cage/shifts/<int:pk>/csv/", cage_views.cage_shift_report_csv, name="cage_shift_csv"),
    path("cage/chip-liability/", cage_views.chip_liability, name="chip_liability"),
    path("cage/chip-liability/csv/", cage_views.chip_liability_csv, name="chip_liability_csv"),
    path("periods/", period_views.period_report, name="periods"),
    path("periods/csv/", period_views.period_report_csv, name="periods_csv"),
    path("statistical/", statistical_views.statistical_page, name="statistical"),
    path(
        "statistical/<str:name>",
        statistical_views.statistical_file,
        name="statistical_file",
    ),
    path(
        "reconciliation/",
        reconciliation_views.reconciliation_page,
        name="reconciliation",
    ),
    path(
        "reconciliation/<str:name>",
        reconciliation_views.reconciliation_file,
        name="reconciliation_file",
    ),
    path("integrity/", integrity_views.integrity_page, name="integrity"),
    path("integrity/run/", integrity_views.integrity_run_now, name="integrity_run"),
    path(
        "integrity/<int:pk>/rounds/",
        integrity_rounds_views.integrity_rounds,
        name="integrity_rounds",
    ),
    path("players/", player_views.player_list, name="players"),
    path("players/areas/", player_views.exclusion_areas, name="exclusion_areas"),
    path(
        "players/areas/<int:venue_id>/<str:step>/",
        player_views.exclusion_area_step,
        name="exclusion_area_step",
    ),
    path("players/<int:pk>/", player_views.player_detail, name="player"),
    path("players/<int:pk>/<str:step>/", player_views.player_step, name="player_step"),
    path("comps/", player_views.comp_report, name="comps"),
    path("comps/csv/", player_views.comp_report_csv, name="comps_csv"),
    path("comps/policy/", player_views.comp_policy, name="comp_policy"),
    path(
        "comps/policy/<int:venue_id>/<str:step>/",
        player_views.comp_policy_step,
        name="comp_policy_step",
    ),
]

"""Routes of the API at ``/api/v1/``; anything else under it is a JSON 404."""

from django.urls import path, re_path

from casino import games
from casino.api import auth, views
from casino.cage import api as cash
from casino.cage import cash_log_api as cash_log
from casino.cage import front_money_api as front_money
from casino.cage import inventory_api as cage
from casino.cage import manual_api as manual
from casino.cage import marker_api as markers
from casino.compliance import api as compliance
from casino.count import api as count
from casino.floor.api import rounds, sessions
from casino.ledger import api as audit
from casino.reports.api import day
from casino.reports.api import shift_reports as reports
from casino.reports.api.players import (
    PlayerDetailView,
    PlayerDuplicatesView,
    PlayerHistoryView,
    PlayerLinkView,
    PlayerListView,
    PlayerUnlinkView,
)
from casino.rulesets.api import views as rulesets
from casino.venues.api import views as venues

app_name = "api"

urlpatterns = [
    path("venues/", venues.VenueListView.as_view(), name="venue-list"),
    path("venues/<int:pk>/", venues.VenueDetailView.as_view(), name="venue-detail"),
    path(
        "venues/<int:pk>/gaming-day/",
        venues.VenueGamingDayView.as_view(),
        name="venue-gaming-day",
    ),
    path("tables/", venues.TableListView.as_view(), name="table-list"),
    path("tables/<int:pk>/", venues.TableDetailView.as_view(), name="table-detail"),
    path(
        "table-ruleset-changes/",
        venues.TableRulesetChangeListView.as_view(),
        name="table-ruleset-change-list",
    ),
    path(
        "table-ruleset-changes/<int:pk>/",
        venues.TableRulesetChangeDetailView.as_view(),
        name="table-ruleset-change-detail",
    ),
    path(
        "table-ruleset-changes/<int:pk>/approve/",
        venues.TableRulesetChangeApproveView.as_view(),
        name="table-ruleset-change-approve",
    ),
    path(
        "table-ruleset-changes/<int:pk>/refuse/",
        venues.TableRulesetChangeRefuseView.as_view(),
        name="table-ruleset-change-refuse",
    ),
    path(
        "venues/<int:pk>/compliance/cases/",
        compliance.VenueCaseListView.as_view(),
        name="compliance-case-list",
    ),
    path(
        "compliance/cases/<int:pk>/",
        compliance.CaseDetailView.as_view(),
        name="compliance-case-detail",
    ),
    path("players/", PlayerListView.as_view(), name="player-list"),
    path("players/duplicates/", PlayerDuplicatesView.as_view(), name="player-duplicates"),
    path("players/<int:pk>/", PlayerDetailView.as_view(), name="player-detail"),
    path("players/<int:pk>/link/", PlayerLinkView.as_view(), name="player-link"),
    path("players/<int:pk>/unlink/", PlayerUnlinkView.as_view(), name="player-unlink"),
    path("players/<int:pk>/history/", PlayerHistoryView.as_view(), name="player-history"),
    path(
        "players/<int:pk>/front-money/",
        front_money.PlayerFrontMoneyView.as_view(),
        name="player-front-money",
    ),
    path(
        "players/<int:pk>/front-money/deposit/",
        front_money.FrontMoneyDepositView.as_view(),
        name="front-money-deposit",
    ),
    path(
        "players/<int:pk>/front-money/return/",
        front_money.FrontMoneyReturnView.as_view(),
        name="front-money-return",
    ),
    path(
        "sessions/<int:pk>/front-money-draws/",
        front_money.SessionFrontMoneyDrawView.as_view(),
        name="front-money-draw",
    ),
    path(
        "front-money/<int:pk>/reverse/",
        front_money.FrontMoneyReverseView.as_view(),
        name="front-money-reverse",
    ),
    path(
        "venues/<int:pk>/front-money/",
        front_money.VenueFrontMoneyView.as_view(),
        name="venue-front-money",
    ),
    path("rulesets/", rulesets.RulesetListView.as_view(), name="ruleset-list"),
    path("rulesets/<int:pk>/", rulesets.RulesetDetailView.as_view(), name="ruleset-detail"),
    path(
        "rulesets/<int:pk>/versions/<int:number>/",
        rulesets.RulesetVersionDetailView.as_view(),
        name="ruleset-version-detail",
    ),
    path("sessions/", sessions.SessionListView.as_view(), name="session-list"),
    path("sessions/<int:pk>/", sessions.SessionDetailView.as_view(), name="session-detail"),
    path("sessions/<int:pk>/close/", sessions.SessionCloseView.as_view(), name="session-close"),
    path(
        "sessions/<int:pk>/reconcile/",
        sessions.SessionReconcileView.as_view(),
        name="session-reconcile",
    ),
    path("sessions/<int:pk>/drop/", sessions.SessionDropView.as_view(), name="session-drop"),
    path(
        "sessions/<int:pk>/drop/<int:drop_id>/reverse/",
        sessions.SessionDropReverseView.as_view(),
        name="session-drop-reverse",
    ),
    path("rounds/", rounds.RoundListView.as_view(), name="round-list"),
    path("rounds/<int:pk>/", rounds.RoundDetailView.as_view(), name="round-detail"),
    path("rounds/<int:pk>/settle/", rounds.RoundSettleView.as_view(), name="round-settle"),
    path("rounds/<int:pk>/void/", rounds.RoundVoidView.as_view(), name="round-void"),
    path("rounds/<int:pk>/ledger/", rounds.RoundLedgerView.as_view(), name="round-ledger"),
    path("players/<int:pk>/credit/", markers.PlayerCreditView.as_view(), name="player-credit"),
    path(
        "players/<int:pk>/credit-lines/",
        markers.CreditLineProposeView.as_view(),
        name="credit-line-propose",
    ),
    path(
        "credit-lines/<int:pk>/approve/",
        markers.CreditLineApproveView.as_view(),
        name="credit-line-approve",
    ),
    path("sessions/<int:pk>/markers/", markers.SessionMarkerView.as_view(), name="session-marker"),
    path("venues/<int:pk>/markers/", markers.CageMarkerView.as_view(), name="cage-marker"),
    path("venues/<int:pk>/marker-aging/", markers.MarkerAgingView.as_view(), name="marker-aging"),
    path("venues/<int:pk>/marker-terms/", markers.MarkerTermsView.as_view(), name="marker-terms"),
    path("markers/<int:pk>/payments/", markers.MarkerPaymentView.as_view(), name="marker-pay"),
    path(
        "marker-payments/<int:pk>/reverse/",
        markers.PaymentReverseView.as_view(),
        name="marker-payment-reverse",
    ),
    path("venues/<int:pk>/cage/", cage.CageInventoryView.as_view(), name="cage-inventory"),
    path(
        "venues/<int:pk>/cage/movements/",
        cage.CageMovementListView.as_view(),
        name="cage-movement-list",
    ),
    path("venues/<int:pk>/cage/counts/", cage.CageCountView.as_view(), name="cage-count"),
    path("cage-counts/<int:pk>/sign/", cage.CageCountSignView.as_view(), name="cage-count-sign"),
    path("venues/<int:pk>/cage/purchases/", cage.ChipPurchaseView.as_view(), name="chip-purchase"),
    path(
        "venues/<int:pk>/cage/redemptions/",
        cage.ChipRedemptionView.as_view(),
        name="chip-redemption",
    ),
    path(
        "venues/<int:pk>/cage/vault-transfers/",
        cage.VaultTransferView.as_view(),
        name="vault-transfer",
    ),
    path(
        "venues/<int:pk>/cage/chip-liability/",
        cage.ChipLiabilityView.as_view(),
        name="chip-liability",
    ),
    path("venues/<int:pk>/cash-log/", cash_log.CashLogView.as_view(), name="cash-log"),
    path(
        "unknown-patrons/<int:pk>/link/",
        cash_log.UnknownPatronLinkView.as_view(),
        name="unknown-patron-link",
    ),
    path("slips/", cash.SlipListView.as_view(), name="slip-list"),
    path("slips/<int:pk>/", cash.SlipDetailView.as_view(), name="slip-detail"),
    path("slips/<int:pk>/issue/", cash.SlipIssueView.as_view(), name="slip-issue"),
    path(
        "slips/<int:pk>/confirm-dealer/",
        cash.SlipConfirmDealerView.as_view(),
        name="slip-confirm-dealer",
    ),
    path(
        "slips/<int:pk>/confirm-supervisor/",
        cash.SlipConfirmSupervisorView.as_view(),
        name="slip-confirm-supervisor",
    ),
    path("slips/<int:pk>/receive/", cash.SlipReceiveView.as_view(), name="slip-receive"),
    path("slips/<int:pk>/void/", cash.SlipVoidView.as_view(), name="slip-void"),
    path("slips/<int:pk>/ledger/", cash.SlipLedgerView.as_view(), name="slip-ledger"),
    # When the system is down: a table's manual series and its papers entered afterwards.
    path("manual-series/", manual.SeriesListView.as_view(), name="manual-series-list"),
    path("manual-series/<int:pk>/", manual.SeriesDetailView.as_view(), name="manual-series"),
    path("manual-series/<int:pk>/slips/", manual.PaperSlipView.as_view(), name="manual-paper-slip"),
    path(
        "manual-series/<int:pk>/rounds/",
        manual.PaperRoundView.as_view(),
        name="manual-paper-round",
    ),
    path(
        "manual-series/<int:pk>/spoiled/",
        manual.PaperSpoilView.as_view(),
        name="manual-paper-spoil",
    ),
    path(
        "venues/<int:pk>/manual/<str:gaming_date>/",
        manual.ManualDayView.as_view(),
        name="manual-day",
    ),
    path(
        "venues/<int:pk>/count/<str:gaming_date>/",
        count.CountDayView.as_view(),
        name="count-day",
    ),
    path(
        "venues/<int:pk>/count/<str:gaming_date>/close/",
        count.CountCloseView.as_view(),
        name="count-close",
    ),
    path(
        "venues/<int:pk>/count/<str:gaming_date>/reopen/",
        count.CountReopenView.as_view(),
        name="count-reopen",
    ),
    path(
        "venues/<int:pk>/count/<str:gaming_date>/figures/",
        count.CountFiguresView.as_view(),
        name="count-figures",
    ),
    path(
        "venues/<int:pk>/cash-transactions/",
        day.CashTransactionListView.as_view(),
        name="cash-transaction-list",
    ),
    path("venues/<int:pk>/cash-report/", day.CashReportView.as_view(), name="cash-report"),
    path("venues/<int:pk>/cash-alerts/", day.CashAlertListView.as_view(), name="cash-alert-list"),
    path("venues/<int:pk>/ratings/", day.RatingListView.as_view(), name="rating-list"),
    path(
        "venues/<int:pk>/figures/<str:gaming_date>/",
        day.DayFiguresView.as_view(),
        name="day-figures",
    ),
    path(
        "venues/<int:pk>/reconciliation/<str:gaming_date>/",
        day.ReconciliationView.as_view(),
        name="reconciliation",
    ),
    path("venues/<int:pk>/periods/", day.PeriodView.as_view(), name="period"),
    path(
        "sessions/<int:pk>/cash-transactions/",
        cash.SessionCashView.as_view(),
        name="session-cash",
    ),
    path("cash-transactions/<int:pk>/void/", cash.CashVoidView.as_view(), name="cash-void"),
    path(
        "shifts/<int:pk>/report/",
        reports.ShiftReportRequestView.as_view(),
        name="shift-report-request",
    ),
    path(
        "shift-reports/<int:pk>/",
        reports.ShiftReportDetailView.as_view(),
        name="shift-report-detail",
    ),
    path("drop-boxes/<int:pk>/counts/", count.BoxCountView.as_view(), name="box-count"),
    path("audit/", audit.AuditEventListView.as_view(), name="audit-list"),
    path("audit/<int:pk>/", audit.AuditEventDetailView.as_view(), name="audit-detail"),
    path("auth/login/", auth.LoginView.as_view(), name="auth-login"),
    path("auth/logout/", auth.LogoutView.as_view(), name="auth-logout"),
    path("auth/logout-all/", auth.LogoutAllView.as_view(), name="auth-logout-all"),
    path("auth/tokens/", auth.TokenListView.as_view(), name="auth-token-list"),
    path("auth/tokens/<int:pk>/", auth.TokenDetailView.as_view(), name="auth-token-detail"),
    path("auth/me/", auth.MeView.as_view(), name="auth-me"),
]

# Each game's own endpoints, then a JSON 404 for anything else.
for _game in games.all_games():
    urlpatterns += _game.api.urls()
urlpatterns.append(
    re_path(r"^.*$", views.NoSuchEndpointView.as_view(), name="no-such-endpoint"),
)

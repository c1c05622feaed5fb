from django.urls import path

from casino.reports import views

app_name = "reports"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("shift/<int:pk>/", views.report_detail, name="report"),
    path("shift/<int:pk>/rebuild/", views.report_rebuild, name="rebuild"),
    path("shift/<int:pk>/files/<str:name>", views.report_download, name="file"),
    path("shifts/<int:shift_id>/build/", views.shift_build, name="build"),
    path("periods/", views.period_report, name="periods"),
    path("periods/csv/", views.period_report_csv, name="periods_csv"),
]

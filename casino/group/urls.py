from django.urls import path

from casino.group import views

app_name = "group"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("csv/", views.dashboard_csv, name="dashboard_csv"),
    path("rates/", views.rate_propose_view, name="rate_propose"),
    path("rates/<int:pk>/approve/", views.rate_approve_view, name="rate_approve"),
]

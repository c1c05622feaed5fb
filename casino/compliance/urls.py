"""The compliance screens under ``/compliance/`` (the ``compliance`` namespace)."""

from django.urls import path

from casino.compliance import lctr_views, views

app_name = "compliance"

urlpatterns = [
    path("", views.compliance_home, name="home"),
    path("venues/<int:venue_id>/cases/", views.case_list, name="cases"),
    path("venues/<int:venue_id>/cases/new/", views.case_new, name="case-new"),
    path("cases/<int:case_id>/", views.case_detail, name="case"),
    path("cases/<int:case_id>/<slug:step>/", views.case_step, name="case-step"),
    path("venues/<int:venue_id>/lctr/", lctr_views.lctr_page, name="lctr"),
    path("venues/<int:venue_id>/lctr/file.<slug:layout>", lctr_views.lctr_file, name="lctr-file"),
]

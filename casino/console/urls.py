"""The console's URLs, under ``/console/``."""

from django.urls import path

from casino.console import maubinh, views

app_name = "console"

urlpatterns = [
    path("", views.home, name="home"),
    path("language/venue/", views.language_of_venue, name="language-of-venue"),
    path("tables/<int:table_id>/open/", views.table_open, name="open"),
    path("sessions/<int:session_id>/", views.round_screen, name="round"),
    path("sessions/<int:session_id>/hand/", views.hand, name="hand"),
    path("sessions/<int:session_id>/stakes/", views.stakes, name="stakes"),
    path("sessions/<int:session_id>/player/", views.player, name="player"),
    path("sessions/<int:session_id>/preview/", views.preview, name="preview"),
    path("sessions/<int:session_id>/confirm/", views.confirm, name="confirm"),
    path("sessions/<int:session_id>/maubinh/seat/", maubinh.seat, name="mb-seat"),
    path("sessions/<int:session_id>/maubinh/arrange/", maubinh.arrange, name="mb-arrange"),
    path("sessions/<int:session_id>/maubinh/preview/", maubinh.preview, name="mb-preview"),
    path("sessions/<int:session_id>/maubinh/confirm/", maubinh.confirm, name="mb-confirm"),
    path("sessions/<int:session_id>/history/", views.history, name="history"),
    path(
        "sessions/<int:session_id>/rounds/<int:round_id>/", views.round_detail, name="round-detail"
    ),
    path("sessions/<int:session_id>/rounds/<int:round_id>/void/", views.void, name="void"),
    path("sessions/<int:session_id>/slips/", views.slips, name="slips"),
    path("sessions/<int:session_id>/close/", views.close, name="close"),
    path(
        "sessions/<int:session_id>/drops/<int:drop_id>/reverse/",
        views.drop_reversal,
        name="drop-reverse",
    ),
]

"""A rated table's page in the dealer's console (``CONSOLE``): no round screen, since the
game deals no rounds on the system, but its ratings: the supervisor enters a player's
average bet, time in and time out (and, if known, the player's win or loss), and corrects a
rating with a new one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from casino.floor.console.access import session_context, session_view
from casino.floor.console.selectors import players_by_number
from casino.floor.models import TableSession
from casino.floor.rules import NoRulesInForce, rules_in_force
from casino.kernel.errors import ServiceError
from casino.players.membership import membership_key
from casino.staff.policy import Capability
from casino.staff.roles import SUPERVISE, can
from casino.venues.models import TableLimit
from tablegames.models import Rating
from tablegames.selectors import BET_TYPE, session_ratings
from tablegames.services import rating_enter

TEMPLATE = "tablegames/console/ratings.html"
FIELDS = ("player", "average_bet", "started_at", "ended_at", "actual_win", "replaces", "reason")


def _local(value: str) -> datetime | None:
    """A ``datetime-local`` field's value on the venue's clocks (the view's zone)."""
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed


def ratings_context(
    request: HttpRequest,
    session: TableSession,
    *,
    data: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    saved: Rating | None = None,
) -> dict[str, Any]:
    table = session.table
    try:
        in_force = rules_in_force(table)
        rules, version = in_force.rules, in_force.version
    except NoRulesInForce:
        rules = version = None
    corrected = list(
        Rating.objects.filter(session=session, replaced_by__isnull=False)
        .select_related("player", "entered_by")
        .order_by("started_at", "pk")
    )
    return {
        **session_context(session, "round"),
        "rules": rules,
        "version": version,
        "limit": TableLimit.objects.filter(table=table, bet_type=BET_TYPE).first(),
        "ratings": session_ratings(session),
        "corrected": corrected,
        "data": data or {},
        "errors": errors or {},
        "saved": saved,
        "can_rate": can(request.user, SUPERVISE, table.venue_id),
        "rate_url": reverse("console:tablegames-rate", args=[session.pk]),
    }


def _rate(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The supervisor's rating, entered through ``rating_enter``; every mistake beside its
    field."""
    data = {name: request.POST.get(name, "").strip() for name in FIELDS}
    errors: dict[str, str] = {}
    venue = session.table.venue
    number = membership_key(data["player"])
    player = players_by_number(venue=venue, numbers=[data["player"]]).get(number or "")
    if player is None:
        errors["player"] = _("No member of %(venue)s has the number %(number)s.") % {
            "venue": venue.name,
            "number": data["player"] or "–",
        }
    times = {}
    for name in ("started_at", "ended_at"):
        times[name] = _local(data[name]) if data[name] else None
        if data[name] and times[name] is None:
            errors[name] = _("Type a date and time, e.g. 2026-12-02 21:30.")
    replaces = None
    if data["replaces"]:
        replaces = Rating.objects.filter(pk=data["replaces"], session=session).first()
        if replaces is None:
            errors["replaces"] = _("Choose a rating of this session to correct.")
    if not errors:
        try:
            saved = rating_enter(
                session=session,
                user=request.user,
                player=player,
                average_bet=data["average_bet"],
                started_at=times["started_at"],
                ended_at=times["ended_at"],
                actual_win=data["actual_win"] or None,
                replaces=replaces,
                reason=data["reason"],
            )
        except ServiceError as error:
            errors[error.field if error.field in FIELDS else "form"] = str(error.message)
        else:
            context = ratings_context(request, session, saved=saved)
            return render(request, TEMPLATE, context)
    context = ratings_context(request, session, data=data, errors=errors)
    return render(request, TEMPLATE, context, status=400)


#: POST only (405 otherwise, before anything else is asked), a supervisor's.
rate_view = require_POST(session_view(_rate, capability=Capability.SUPERVISE_TABLES))


class TableGamesConsole:
    template = TEMPLATE
    summary_template = "tablegames/console/round_summary.html"
    history_columns = (gettext_lazy("Dealer"), gettext_lazy("Boxes"))
    detail_template = "tablegames/console/round_summary.html"
    stale_preview = gettext_lazy("This table deals no rounds on the system.")

    def urls(self) -> list[URLPattern]:
        return [
            path("sessions/<int:session_id>/ratings/", rate_view, name="tablegames-rate"),
        ]

    def positions(self, seats: int) -> tuple[int, ...]:
        return ()

    def deposit_multiples(self, rules: Any, bet_types: Sequence[str]) -> Mapping[str, Decimal]:
        return {}

    def screen(self, request: HttpRequest, session: TableSession) -> HttpResponse:
        return render(request, TEMPLATE, ratings_context(request, session))

    def entry_in(self, data: Mapping[str, str]) -> bool:
        return False

    def read_entry(self, data: Mapping[str, str], screen: Any, *, evaluate: bool = True) -> Any:
        raise NotImplementedError("a rated table game deals no rounds")

    def form_data(self, dealer_cards: str, boxes: Sequence[Any], screen: Any) -> dict[str, str]:
        return {}

    def data_from_round(self, round_: Any, screen: Any) -> dict[str, str]:
        return {}

    def preview_of(self, result: Any, entry: Any) -> object:
        raise NotImplementedError("a rated table game deals no rounds")

    def context(self, screen: Any, entry: Any, **kwargs: Any) -> dict[str, Any]:
        return {}


CONSOLE = TableGamesConsole()

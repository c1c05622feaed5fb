"""Closing a table: the figures so far, the closing count a supervisor signs, the drops
entered (each reversible by a supervisor), and the summary of a closed session."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.floor import answers
from casino.floor import selectors as floor_selectors
from casino.floor.console import forms
from casino.floor.console.access import go, page, session_context, signed_by, with_session
from casino.floor.figures import DEFINITIONS, TrayExpected, session_counted, tray_expected
from casino.floor.models import Round, TableSession
from casino.floor.services.closing import (
    check_closable,
    session_close,
    session_figures,
)
from casino.floor.services.sessions import drop_reverse
from casino.kernel.errors import Conflict, Forbidden, ServiceError
from casino.kernel.money import venue_money


@dataclass(frozen=True)
class SessionState:
    """A session's figures so far and what stops it from closing."""

    figures: dict[str, Decimal]
    rounds: int
    unsettled: list[int]
    pending_slips: list[str]  # by the number the slips page shows

    @property
    def tray(self) -> TrayExpected:
        """The tray a count should find, line by line (``casino.floor.figures.tray_expected``)."""
        return tray_expected(opener=self.figures["opening"], sums=self.figures)

    @property
    def expected_tray(self) -> Decimal:
        return self.tray.total

    @property
    def variance_base(self) -> Decimal:
        """What a count plus the drop must come to for the win by count to equal the win
        by ledger: opener + fills - credits + house win - the drops entered."""
        f = self.figures
        return f["opening"] + f["win_by_ledger"] + f["fills"] - f["credits"] - f["drop"]


def session_state(*, session: TableSession) -> SessionState:
    figures = {"opening": session.opening_total, **session_figures(session)}
    counts = Round.objects.filter(session=session).aggregate(
        rounds=Count("pk", filter=~Q(status="voided"))
    )
    unsettled = list(
        Round.objects.filter(session=session, status="dealt").values_list("number", flat=True)
    )
    return SessionState(
        figures=figures,
        rounds=counts["rounds"],
        unsettled=unsettled,
        pending_slips=answers.pending_slips(session),
    )


def summary(request: HttpRequest, session: TableSession) -> HttpResponse:
    """A closed session: its count, the settled win and the variance between them as
    stored at the close, and beside them the same with the count's drop once posted."""
    context = {
        **session_context(session, "close"),
        "state": session_state(session=session),
        "counted": session_counted(session),
        "definitions": DEFINITIONS,
    }
    return render(request, "console/summary.html", context)


@require_http_methods(["GET", "POST"])
@with_session
def close(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Close the table with the closing count: the dealer logged in counts, a supervisor
    confirms with their own credentials; both are recorded."""
    done = reverse("console:round", args=[session.pk])
    if session.status != TableSession.Status.OPEN:
        if request.method == "POST":  # closed already (a repeat of this form)
            return go(request, done)
        return summary(request, session)
    state = session_state(session=session)
    venue = session.table.venue
    errors: dict[str, str] = {}
    message = ""
    counted = None
    if request.method == "POST":
        chips, errors = forms.read_chips(
            request.POST, session.table.chip_denominations, grouping=venue.amount_grouping
        )
        try:
            drop = forms.read_amount(request.POST.get("drop") or "", venue)
        except ValueError as error:
            errors["drop"] = str(error)
            drop = None
        counted = None if errors else forms.chips_value(chips)
        reason = (request.POST.get("variance_reason") or "").strip()
        credentials = forms.read_credentials(request.POST)
        try:
            check_closable(session)  # before a supervisor is asked to sign
        except ServiceError as error:
            message = error.message
        if not message and not errors and not credentials.given:
            message = _("A supervisor enters their username and password to close the table.")
        elif not message and not errors:
            supervisor, message = signed_by(
                request, credentials, _("Wrong username or password: the table is still open.")
            )
            if supervisor is not None:
                try:
                    session_close(
                        session=session,
                        counted_by=request.user,
                        confirmed_by=supervisor,
                        closing_chips=chips,
                        drop=drop,
                        variance_reason=reason,
                    )
                except Forbidden as error:
                    if error.reason == "confirmed_by_counter":
                        message = error.message
                    else:
                        message = _(
                            "%(user)s is not a supervisor at this venue and cannot close the table."
                        ) % {"user": supervisor.get_username()}
                except Conflict as error:
                    session.refresh_from_db(fields=["status"])
                    if session.status != TableSession.Status.OPEN:
                        return go(request, done)  # closed meanwhile
                    message = error.message
                except ServiceError as error:
                    if error.field == "variance_reason":
                        errors["variance_reason"] = error.message
                    else:
                        message = error.message
                else:
                    return go(request, done)
    context = close_context(
        session,
        state=state,
        data=request.POST,
        errors=errors,
        message=message,
        counted=counted,
        variance=counted_variance(
            state, counted, request.POST.get("drop") or "", venue.amount_grouping
        ),
        tray_difference=tray_difference(state, counted),
    )
    status = 422 if errors or message else 200
    return page(request, "console/close.html", "close", context, status=status)


def counted_variance(
    state: SessionState, counted: Decimal | None, drop: str, grouping: str
) -> Decimal | None:
    """The variance the close would store for a count as typed (win by count - win by
    ledger, the drop typed with it included, in the venue's ``grouping``), shown again
    with a refused close so that nothing typed goes blank."""
    if counted is None:
        return None
    try:
        dropped = forms.read_amount(drop, grouping) or Decimal(0)
    except ValueError:
        return None
    return counted + dropped - state.variance_base


def tray_difference(state: SessionState, counted: Decimal | None) -> Decimal | None:
    """The tray as counted against the tray expected (the drop is no part of the tray)."""
    return None if counted is None else counted - state.expected_tray


def close_context(
    session: TableSession, state: SessionState | None = None, **extra: Any
) -> dict[str, Any]:
    """The close page: the figures so far, the drops entered (each with its reversal form
    until it is reversed) and the closing count's form."""
    drops = list(floor_selectors.session_drops(session=session))
    return {
        **session_context(session, "close"),
        "state": state or session_state(session=session),
        "definitions": DEFINITIONS,
        "denominations": session.table.chip_denominations,
        "drops": drops,
        "reversed": {drop.reverses_id for drop in drops if drop.reverses_id},
        "data": {},
        "errors": {},
        "message": "",
        "counted": None,
        "variance": None,
        "tray_difference": None,
        "drop_errors": {},
        "drop_notice": "",
        "drop_reason": "",
        **extra,
    }


@require_POST
@with_session
def drop_reversal(request: HttpRequest, session: TableSession, drop_id: int) -> HttpResponse:
    """Reverse a drop entered by mistake: a supervisor signs with their own username and
    password and says why. Wrong credentials reverse nothing; a repeat shows it done."""
    drop = floor_selectors.session_drop_get(session=session, pk=drop_id)
    if drop is None:
        raise Http404("no such drop in this session")
    if session.status != TableSession.Status.OPEN:
        return go(request, reverse("console:close", args=[session.pk]))
    reason = (request.POST.get("reason") or "").strip()
    credentials = forms.read_credentials(request.POST)
    error = notice = ""
    if drop.reverses_id or hasattr(drop, "reversed_by"):
        pass  # reversed already (a repeat of this form): show it
    elif not reason:
        error = _("Say why the drop is reversed.")
    elif not credentials.given:
        error = _("A supervisor enters their username and password to approve.")
    else:
        supervisor, error = signed_by(
            request, credentials, _("Wrong username or password: nothing was reversed.")
        )
        if supervisor is not None:
            try:
                drop_reverse(drop=drop, user=supervisor, reason=reason)
            except Forbidden:
                error = _(
                    "%(user)s is not a supervisor at this venue and cannot reverse a drop."
                ) % {"user": supervisor.get_username()}
            except ServiceError as refused:
                error = refused.message
            else:
                notice = _("Drop %(number)s of %(amount)s reversed.") % {
                    "number": drop.pk,
                    "amount": venue_money(drop.amount, session.table.venue),
                }
    context = close_context(
        session,
        drop_errors={drop.pk: error} if error else {},
        drop_notice=notice,
        drop_reason=reason,
    )
    return page(request, "console/close.html", "close", context, status=422 if error else 200)

"""The cage's inventory at the cage window (``/console/cage/<venue>/inventory/``): what the
cage should hold by denomination, the open cage shift, the count that opens or closes it
and its second signature, the window's chip purchases and redemptions, the transfers to and
from the vault, and the shift's movements. Each form calls one service
(``casino.cage.services.inventory``); htmx swaps the page's ``cage-inventory`` part, and
every form works without it.

The page is for those who count the cage (``Capability.COUNT_CAGE``: its cashiers and the
venue's managers; 403 otherwise, another venue's page 404); the window's and the vault's
forms are the cashier's, as their services say.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.cage import inventory_selectors as inventory
from casino.cage import slip_selectors
from casino.cage.models import CageCount, Instrument, MovementKind
from casino.cage.services.cage_identification import document_posted
from casino.cage.services.inventory import (
    cage_count_record,
    cage_count_sign,
    chip_purchase,
    chip_redemption,
    vault_transfer,
)
from casino.cage.services.patrons import window_patron_named
from casino.floor.console.access import console_login_required, page, refusal, use_venue_language
from casino.floor.console.forms import read_chips
from casino.kernel.errors import Conflict, Forbidden, ServiceError
from casino.staff.policy import Capability, allows, declare
from casino.venues.models import Venue

TEMPLATE = "console/cage_inventory.html"
PART = "cage-inventory"
#: The window's and the vault's forms, by the name in their URL.
MOVES = {
    "purchase": MovementKind.CHIP_PURCHASE,
    "redemption": MovementKind.CHIP_REDEMPTION,
    "to-vault": MovementKind.TO_VAULT,
    "from-vault": MovementKind.FROM_VAULT,
}


def _venue(request: HttpRequest, venue_id: int) -> Venue | HttpResponse:
    venue = slip_selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if not allows(request.user, Capability.COUNT_CAGE, venue.pk):
        return refusal(
            request, 403, _("Only the cage's cashier or a manager works on the cage's inventory.")
        )
    return venue


def _rows(venue: Venue, held: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Each denomination the cage counts, with what it should hold of it."""
    return [
        {
            "instrument": instrument,
            "label": Instrument(instrument).label,
            "denomination": denomination,
            "expected": held[instrument].get(denomination, 0),
        }
        for instrument, denominations in inventory.denominations(venue).items()
        for denomination in denominations
    ]


def inventory_context(venue: Venue, user: Any, **extra: Any) -> dict[str, Any]:
    shift = inventory.open_shift(venue)
    held = inventory.cage_inventory(venue)
    pending = inventory.pending_count(venue)
    return {
        "venue": venue,
        "shift": shift,
        "rows": _rows(venue, held),
        "expected_value": inventory.holding_value(held),
        "pending": pending,
        "may_sign": pending is not None and pending.counted_by_id != user.pk,
        "count_kind": CageCount.Kind.CLOSING if shift else CageCount.Kind.OPENING,
        "is_cashier": allows(user, Capability.CAGE, venue.pk),
        "movements": inventory.cage_movements(venue=venue, shift=shift, limit=20) if shift else [],
        "reports_url": f"{reverse('reports:cage_shifts')}?venue={venue.code}",
        "error": "",
        "error_form": "",
        "notice": "",
        "data": {},
        **extra,
    }


@declare(Capability.COUNT_CAGE)
@require_GET
@console_login_required
def cage_inventory(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The cage's inventory and its forms."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    return page(request, TEMPLATE, PART, inventory_context(venue, request.user))


def _holding(request: HttpRequest, venue: Venue) -> tuple[dict[str, dict[str, int]], str]:
    """The notes and chips a form counted, and the first thing wrong with them ("")."""
    listed = inventory.denominations(venue)
    notes, note_errors = read_chips(
        request.POST, listed[Instrument.NOTES], prefix="notes-", grouping=venue.amount_grouping
    )
    chips, chip_errors = read_chips(
        request.POST, listed[Instrument.CHIPS], prefix="chips-", grouping=venue.amount_grouping
    )
    errors = [*note_errors.values(), *chip_errors.values()]
    return {Instrument.NOTES: notes, Instrument.CHIPS: chips}, str(errors[0]) if errors else ""


def _answer(request: HttpRequest, venue: Venue, form: str, work: Any, done: str) -> HttpResponse:
    """Run ``work`` (a service call); the page again with ``done``, or with why not."""
    try:
        work()
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as refused:
        status = 409 if isinstance(refused, Conflict) else 422
        context = inventory_context(
            venue, request.user, error=refused.message, error_form=form, data=request.POST
        )
        return page(request, TEMPLATE, PART, context, status=status)
    return page(request, TEMPLATE, PART, inventory_context(venue, request.user, notice=done))


def _typo(request: HttpRequest, venue: Venue, form: str, error: str) -> HttpResponse:
    context = inventory_context(
        venue, request.user, error=error, error_form=form, data=request.POST
    )
    return page(request, TEMPLATE, PART, context, status=422)


@declare(Capability.COUNT_CAGE)
@require_POST
@console_login_required
def cage_count(request: HttpRequest, venue_id: int) -> HttpResponse:
    """Count the cage, to open a shift or close the open one; a second person signs."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    counted, error = _holding(request, venue)
    if error:
        return _typo(request, venue, "count", error)
    kind = request.POST.get("kind", "")
    return _answer(
        request,
        venue,
        "count",
        lambda: cage_count_record(
            venue=venue,
            user=request.user,
            kind=kind,
            counted=counted,
            reason=request.POST.get("reason", ""),
        ),
        _("Counted: a second person signs the count."),
    )


@declare(Capability.COUNT_CAGE)
@require_POST
@console_login_required
def cage_count_signature(request: HttpRequest, venue_id: int, count_id: int) -> HttpResponse:
    """Sign a waiting count as the second person."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    count = CageCount.objects.filter(venue=venue, pk=count_id).first()
    if count is None:
        raise Http404("no such cage count at this venue")
    done = (
        _("Signed: the cage shift is open.")
        if count.kind == CageCount.Kind.OPENING
        else _("Signed: the cage shift is closed.")
    )
    return _answer(
        request, venue, "sign", lambda: cage_count_sign(count=count, user=request.user), done
    )


@declare(Capability.CAGE)
@require_POST
@console_login_required
def cage_movement(request: HttpRequest, venue_id: int, move: str) -> HttpResponse:
    """A chip purchase or redemption at the window, or a transfer to or from the vault."""
    venue = _venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    if not allows(request.user, Capability.CAGE, venue.pk):
        return refusal(request, 403, _("Only the cage's cashier works the cage window."))
    kind = MOVES.get(move)
    if kind is None:
        raise Http404("no such movement at the cage")
    form = "vault" if kind in (MovementKind.TO_VAULT, MovementKind.FROM_VAULT) else "window"
    held, error = _holding(request, venue)
    if error:
        return _typo(request, venue, form, error)
    note = request.POST.get("note", "")
    user = request.user
    if form == "window":
        service = chip_purchase if kind == MovementKind.CHIP_PURCHASE else chip_redemption

        def work() -> Any:
            patron = window_patron_named(
                venue,
                request.POST.get("player", ""),
                request.POST.get("patron_description", ""),
                document_posted(request.POST),
            )
            return service(
                venue=venue,
                user=user,
                chips=held[Instrument.CHIPS],
                notes=held[Instrument.NOTES],
                note=note,
                patron=patron,
            )
    else:

        def work() -> Any:
            return vault_transfer(venue=venue, user=user, kind=kind, moved=held, note=note)

    done = _("%(kind)s entered in the cage book.") % {"kind": MovementKind(kind).label}
    return _answer(request, venue, form, work, done)

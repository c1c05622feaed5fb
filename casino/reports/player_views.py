"""The player pages: the search, a player's page (identity, barring, rated play, comps,
buy-ins and cash-outs), the comps report, the venue's comp policy and the group's exclusion
areas.

Whoever reads a venue's reports (its supervisors, managers and auditors) reads its players;
another venue's player is "not found". Each change is a POST to one service, which decides
who may make it (a manager bars and edits identity, a supervisor or manager issues comps,
two managers make a comp policy or an exclusion area); a refused change shows the page
again with the service's message and its status, never a 500.

Long because the players' screens (the list, a player's page and its steps, the comp policy,
the exclusion areas) share their readers, forms and refusal pages.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from casino.cage import selectors as cash_selectors
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.access import use_venue_language
from casino.floor.console.readers import dates_asked, reader_check, venue_asked
from casino.kernel.errors import InvalidInput, ServiceError
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_today, venue_zone
from casino.players import selectors as player_selectors
from casino.players import services as player_services
from casino.players.areas import area_venue_ids, areas_in_force, linked_memberships
from casino.players.eligibility import Activity, player_eligibility, players_eligibility
from casino.players.membership import membership_key
from casino.players.models import Comp, CompPolicy, ExclusionArea, Player, PlayerBarring
from casino.reports import comps as comp_services
from casino.reports.ratings import player_history
from casino.staff.policy import (
    Capability,
    declare,
    may_see_exclusion_area,
    venues_allowing,
)
from casino.staff.roles import MANAGE, SUPERVISE, can
from casino.venues.models import Venue
from casino.venues.selectors import report_venues

HISTORY_DAYS = 90
#: The comps report's days by default.
COMPS_DAYS = 30
PLAYER_STEPS = ("bar", "unbar", "identity", "comp", "link", "unlink")
POLICY_STEPS = ("propose", "approve")
AREA_STEPS = ("propose", "approve")
MAX_FOUND = 100


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def player_list(request: HttpRequest) -> HttpResponse:
    """A venue's players by membership number or name; the barred ones marked."""
    venues, venue = venue_asked(request, required=True)
    query = request.GET.get("q", "").strip()[:120]
    players = Player.objects.filter(venue=venue).order_by("membership_number")
    if query:
        # The start of a number in its stored form (a typed number that has none: by name).
        key = membership_key(query)
        by_number = Q(membership_number__startswith=key) if key else Q(pk__in=[])
        players = players.filter(by_number | Q(name__icontains=query))
    with replica_reads():
        found = list(players[:MAX_FOUND])
        answers = players_eligibility(players=found, venue=venue, activity=Activity.PLAY)
    rows = [
        {"player": p, "barred": answers[p.pk].barred, "barring": answers[p.pk].barring_shown}
        for p in found
    ]
    context = {"venues": venues, "venue": venue, "q": query, "rows": rows}
    context.update(_duplicate_search(request))
    return render(request, "players/list.html", context)


#: The duplicate search's fields, as the players page's form names them.
DUPLICATE_FIELDS = (
    "name",
    "date_of_birth",
    "id_document_type",
    "id_document_number",
    "id_document_country",
)


def _duplicate_search(request: HttpRequest) -> dict[str, Any]:
    """The duplicate search before enrolling: the form's values, and the candidates found
    at the venues whose players the user reads, each with why it matched."""
    asked = {name: request.GET.get(f"dup_{name}", "").strip()[:120] for name in DUPLICATE_FIELDS}
    if not any(asked.values()):
        return {"dup": asked, "dup_searched": False, "dup_error": "", "candidates": []}
    try:
        born = _day(asked["date_of_birth"], "date_of_birth", required=False)
    except InvalidInput as error:
        return {"dup": asked, "dup_searched": False, "dup_error": error.message, "candidates": []}
    with replica_reads():
        found = player_selectors.duplicate_candidates(
            user=request.user, **{**asked, "date_of_birth": born}
        )
    return {"dup": asked, "dup_searched": True, "dup_error": "", "candidates": found}


def _group(player: Player, user: Any) -> dict[str, Any]:
    """The player's other memberships across the group (those at venues the user reads
    named, the others counted) and the duplicate search's candidates for them."""
    readable = venues_allowing(user, Capability.READ_REPORTS)
    linked = list(linked_memberships(player))
    candidates = [
        c
        for c in player_selectors.duplicate_candidates(
            user=user,
            name=player.name,
            date_of_birth=player.date_of_birth,
            id_document_type=player.id_document_type,
            id_document_number=player.id_document_number,
            id_document_country=player.id_document_country,
            exclude=player.pk,
        )
        if c.player.person_id is None or c.player.person_id != player.person_id
    ]
    return {
        "linked": [m for m in linked if m.venue_id in readable],
        "linked_elsewhere": sum(1 for m in linked if m.venue_id not in readable),
        "candidates": candidates,
    }


def _get(request: HttpRequest, pk: int) -> Player:
    player = Player.objects.select_related("venue").filter(pk=pk).first()
    if player is None:
        raise Http404("no such player")
    reader_check(request.user, player.venue_id)
    use_venue_language(request, player.venue.language)
    return player


def _page(
    request: HttpRequest,
    player: Player,
    *,
    error: ServiceError | None = None,
    step: str = "",
) -> HttpResponse:
    venue = player.venue
    user = request.user
    manager = can(user, MANAGE, venue.pk)
    date_from, date_to = dates_asked(request, today=venue_today(venue), days=HISTORY_DAYS)
    with replica_reads():
        history = player_history(player=player, date_from=date_from, date_to=date_to)
        barrings = list(
            PlayerBarring.objects.filter(player=player).select_related("barred_by", "lifted_by")
        )
        comps = list(
            Comp.objects.filter(player=player)
            .select_related("issued_by", "authorised_by")
            .order_by("-issued_at")[:50]
        )
        cash = cash_selectors.player_cash(player=player)
    answer = player_eligibility(player=player, venue=venue, activity=Activity.PLAY)
    earned = comp_services.comp_earned(player)
    context = {
        "player": player,
        "venue": venue,
        "identity": player_services.identity_of(player, full=manager),
        "identity_full": manager,
        "barred": answer.barred,
        "barring": answer.barring,
        "barring_text": answer.reason,
        "barrings": barrings,
        "history": history,
        "history_svg": _history_chart(venue, history.lines),
        "comps": comps,
        "earned": earned,
        "cash": cash,
        "kinds": Comp.Kind.choices,
        "can_bar": manager,
        "can_edit_identity": manager,
        "can_comp": can(user, SUPERVISE, venue.pk) and earned.policy is not None,
        "barring_shown": answer.barring_shown,
        "kinds_of_barring": PlayerBarring.Kind.choices,
        "group": _group(player, user),
        "today": venue_today(venue),
        "error": error,
        "error_step": step,
        "done": request.GET.get("done", "") if error is None else "",
        "posted": request.POST if error is not None else {},
    }
    status = error.status if error is not None else 200
    with timezone.override(venue_zone(venue)):
        return render(request, "players/detail.html", context, status=status)


def _history_chart(venue: Venue, lines: list[dict[str, Any]]) -> str:
    """The player's actual win per session against its theoretical win, oldest first, for
    the eye; the table below it has the figures."""
    from casino.kernel import charts  # matplotlib: loaded on the first chart

    shown = sorted(lines, key=lambda line: line["started_at"])
    zone = venue_zone(venue)
    labels = [
        f"{line['started_at'].astimezone(zone):%m-%d %H:%M} {line['table_code']}" for line in shown
    ]
    title = gettext("Actual against theoretical win by session")
    svg = charts.against_theoretical(
        title,
        labels,
        [line["actual_win"] for line in shown],
        [line["theoretical_win"] for line in shown],
        venue.currency,
        venue.amount_grouping,
    )
    return charts.accessible(
        svg,
        ident="player-history-chart",
        title=title,
        desc=gettext(
            "A bar per session for the player's actual win, green above zero and red below, "
            "with its theoretical win as a point; the table below gives each figure."
        ),
    )


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, _get(request, pk))


def _day(text: str | None, field: str, *, required: bool) -> date | None:
    text = (text or "").strip()
    if not text and not required:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(
            gettext("Enter the date as YYYY-MM-DD, e.g. 2026-12-01."), field=field
        ) from None


@declare(Capability.SUPERVISE_TABLES)
@login_required
@require_POST
def player_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    """One change to a player, by the service that makes it."""
    if step not in PLAYER_STEPS:
        raise Http404("no such step")
    player = _get(request, pk)
    user, data = request.user, request.POST
    try:
        if step == "bar":
            player_services.player_bar(
                player=player,
                user=user,
                reason=data.get("reason", ""),
                starts_on=_day(data.get("starts_on"), "starts_on", required=True),
                ends_on=_day(data.get("ends_on"), "ends_on", required=False),
                kind=data.get("kind", PlayerBarring.Kind.BARRING),
            )
        elif step == "unbar":
            barring = PlayerBarring.objects.filter(
                player=player, pk=data.get("barring") if str(data.get("barring")).isdigit() else 0
            ).first()
            if barring is None:
                raise InvalidInput(gettext("Choose the barring to lift."), field="barring")
            player_services.player_unbar(
                barring=barring, user=user, reason=data.get("lift_reason", "")
            )
        elif step == "link":
            other = Player.objects.filter(
                pk=data.get("other") if str(data.get("other")).isdigit() else 0,
                venue_id__in=venues_allowing(user, Capability.READ_REPORTS),
            ).first()
            if other is None:
                raise InvalidInput(gettext("Choose the membership to link."), field="other")
            player_services.player_link(
                player=player, other=other, user=user, reason=data.get("link_reason", "")
            )
        elif step == "unlink":
            player_services.player_unlink(
                player=player, user=user, reason=data.get("unlink_reason", "")
            )
        elif step == "identity":
            player_services.player_identity_update(
                player=player,
                user=user,
                **{name: data.get(name, "") for name in player_services.IDENTITY},
            )
        else:
            comp_services.comp_issue(
                player=player,
                user=user,
                amount=data.get("amount", ""),
                kind=data.get("kind", ""),
                notes=data.get("notes", ""),
            )
    except ServiceError as error:
        return _page(
            request, Player.objects.select_related("venue").get(pk=pk), error=error, step=step
        )
    return redirect(reverse("reports:player", args=[pk]) + f"?done={step}")


# The comps report


def _comps(venue: Venue, date_from: date, date_to: date) -> list[Comp]:
    with replica_reads():
        return list(
            Comp.objects.filter(venue=venue, gaming_date__gte=date_from, gaming_date__lte=date_to)
            .select_related("player", "issued_by", "authorised_by", "policy")
            .order_by("gaming_date", "issued_at")
        )


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def comp_report(request: HttpRequest) -> HttpResponse:
    """A venue's comps over a range of gaming dates: each comp and the totals by kind."""
    venues, venue = venue_asked(request, required=True)
    date_from, date_to = dates_asked(request, today=venue_today(venue), days=COMPS_DAYS)
    comps = _comps(venue, date_from, date_to)
    by_kind: dict[str, Any] = {}
    for comp in comps:
        kind = by_kind.setdefault(
            comp.kind, {"label": comp.get_kind_display(), "count": 0, "amount": 0}
        )
        kind["count"] += 1
        kind["amount"] += comp.amount
    context = {
        "venues": venues,
        "venue": venue,
        "date_from": date_from,
        "date_to": date_to,
        "comps": comps,
        "by_kind": list(by_kind.values()),
        "total": sum((comp.amount for comp in comps), 0),
        "csv_url": reverse("reports:comps_csv")
        + f"?venue={venue.code}&from={date_from.isoformat()}&to={date_to.isoformat()}",
    }
    with timezone.override(venue_zone(venue)):
        return render(request, "players/comps.html", context)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def comp_report_csv(request: HttpRequest) -> HttpResponse:
    """A venue's comps over a range of gaming dates as CSV (``casino.exports``)."""
    _venues_shown, venue = venue_asked(request, required=True)
    language = file_language(request, venue.language)
    date_from, date_to = dates_asked(request, today=venue_today(venue), days=COMPS_DAYS)
    columns = [
        Column(gettext("Gaming date")),
        Column(gettext("Issued at")),
        Column(gettext("Membership number")),
        Column(gettext("Player")),
        Column(gettext("Kind")),
        Column(gettext("Amount"), Kind.MONEY),
        Column(gettext("Currency")),
        Column(gettext("Issued by")),
        Column(gettext("Authorised by")),
        Column(gettext("Notes")),
    ]
    rows = [
        [
            comp.gaming_date,
            comp.issued_at,
            comp.player.membership_number,
            comp.player.name,
            comp.get_kind_display(),
            comp.amount,
            venue.currency,
            comp.issued_by.get_username(),
            comp.authorised_by.get_username() if comp.authorised_by else "",
            comp.notes,
        ]
        for comp in _comps(venue, date_from, date_to)
    ]
    export = Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        sheets=[Sheet(gettext("Comps"), columns, rows)],
    )
    return csv_response(export, f"{venue.code}-comps-{date_from}-{date_to}.csv", language=language)


# The comp policy


def _policy_page(
    request: HttpRequest,
    venues: list[Venue],
    venue: Venue,
    *,
    error: ServiceError | None = None,
    step: str = "",
) -> HttpResponse:
    policies = list(
        CompPolicy.objects.filter(venue=venue).select_related("proposed_by", "approved_by")[:20]
    )
    context = {
        "venues": venues,
        "venue": venue,
        "policies": policies,
        "in_force": comp_services.comp_policy_in_force(venue),
        "can_manage": can(request.user, MANAGE, venue.pk),
        "earned_days": comp_services.EARNED_DAYS,
        "error": error,
        "error_step": step,
        "done": request.GET.get("done", "") if error is None else "",
        "posted": request.POST if error is not None else {},
    }
    status = error.status if error is not None else 200
    with timezone.override(venue_zone(venue)):
        return render(request, "players/comp_policy.html", context, status=status)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def comp_policy(request: HttpRequest) -> HttpResponse:
    venues, venue = venue_asked(request, required=True)
    return _policy_page(request, venues, venue)


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def comp_policy_step(request: HttpRequest, venue_id: int, step: str) -> HttpResponse:
    """Propose a policy, or approve one (a second manager)."""
    if step not in POLICY_STEPS:
        raise Http404("no such step")
    venue = Venue.objects.filter(pk=venue_id).first()
    if venue is None:
        raise Http404("no such venue")
    reader_check(request.user, venue.pk)
    use_venue_language(request, venue.language)
    data = request.POST
    try:
        if step == "propose":
            comp_services.comp_policy_propose(
                venue=venue,
                user=request.user,
                reinvestment_pct=data.get("reinvestment_pct", ""),
                supervisor_limit=data.get("supervisor_limit", ""),
                manager_limit=data.get("manager_limit", ""),
            )
        else:
            policy = CompPolicy.objects.filter(
                venue=venue, pk=data.get("policy") if str(data.get("policy")).isdigit() else 0
            ).first()
            if policy is None:
                raise InvalidInput(gettext("Choose the comp policy to approve."), field="policy")
            comp_services.comp_policy_approve(policy=policy, user=request.user)
    except ServiceError as error:
        venues = list(report_venues(user=request.user))
        return _policy_page(request, venues, venue, error=error, step=step)
    return redirect(f"{reverse('reports:comp_policy')}?venue={venue.code}&done={step}")


# The exclusion areas


def _area_row(area: ExclusionArea, approvers: frozenset[int]) -> dict[str, Any]:
    return {
        "area": area,
        "venues": sorted(area.venues.all(), key=lambda v: v.name),
        # Offered to a manager of one of its venues; the service decides (four eyes, a
        # manager of each venue of the version and of the one it replaces).
        "approvable": area.status == ExclusionArea.Status.PROPOSED
        and not approvers.isdisjoint(area_venue_ids(area)),
    }


def _areas_page(
    request: HttpRequest,
    venues: list[Venue],
    venue: Venue,
    *,
    error: ServiceError | None = None,
    step: str = "",
) -> HttpResponse:
    """The areas in force and the versions waiting for a second manager that the user sees
    (``may_see_exclusion_area``), in the page's venue's time zone, and the form to propose
    a version with the venues where the user may propose one."""
    user = request.user
    approvers = venues_allowing(user, Capability.APPROVE)
    with replica_reads():
        in_force = [
            _area_row(area, approvers)
            for area in areas_in_force()
            if may_see_exclusion_area(user=user, venue_ids=area_venue_ids(area))
        ]
        waiting = ExclusionArea.objects.filter(status=ExclusionArea.Status.PROPOSED)
        proposed = [
            _area_row(area, approvers)
            for area in waiting.select_related("proposed_by").prefetch_related("venues")
            if may_see_exclusion_area(user=user, venue_ids=area_venue_ids(area))
        ]
        proposable = list(
            Venue.objects.filter(pk__in=venues_allowing(user, Capability.MANAGE_VENUE)).order_by(
                "name"
            )
        )
    posted = request.POST if error is not None else {}
    chosen = {int(pk) for pk in posted.getlist("venues") if pk.isdigit()} if posted else set()
    context = {
        "venues": venues,
        "venue": venue,
        "in_force": in_force,
        "proposed": proposed,
        "proposable": proposable,
        "fields": {
            name: ExclusionArea._meta.get_field(name)
            for name in ("shares_details", "aggregates_cash")
        },
        "error": error,
        "error_step": step,
        "done": request.GET.get("done", "") if error is None else "",
        "posted": posted,
        "chosen": chosen,
    }
    status = error.status if error is not None else 200
    with timezone.override(venue_zone(venue)):
        return render(request, "players/exclusion_areas.html", context, status=status)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def exclusion_areas(request: HttpRequest) -> HttpResponse:
    """The group's exclusion areas, read in the language and time zone of ``?venue=``."""
    venues, venue = venue_asked(request, required=True)
    return _areas_page(request, venues, venue)


def _chosen_venues(user: Any, asked: list[str]) -> list[Venue]:
    """The venues ticked on the form, among those whose reports the user reads (the
    service then refuses a venue where they may not propose, naming it)."""
    ids = {int(pk) for pk in asked if pk.isdigit()}
    found = list(Venue.objects.filter(pk__in=ids & venues_allowing(user, Capability.READ_REPORTS)))
    if {v.pk for v in found} != ids or not all(pk.isdigit() for pk in asked):
        raise InvalidInput(
            gettext("Choose the area's venues among those on the form."), field="venues"
        )
    return found


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def exclusion_area_step(request: HttpRequest, venue_id: int, step: str) -> HttpResponse:
    """Propose a version of an area, or approve one (a second manager); ``venue_id`` is the
    page's venue (its language and time zone), the services decide who may."""
    if step not in AREA_STEPS:
        raise Http404("no such step")
    venue = Venue.objects.filter(pk=venue_id).first()
    if venue is None:
        raise Http404("no such venue")
    reader_check(request.user, venue.pk)
    use_venue_language(request, venue.language)
    user, data = request.user, request.POST
    try:
        if step == "propose":
            player_services.exclusion_area_propose(
                user=user,
                code=data.get("code", ""),
                name=data.get("name", ""),
                venues=_chosen_venues(user, data.getlist("venues")),
                shares_details=bool(data.get("shares_details")),
                aggregates_cash=bool(data.get("aggregates_cash")),
            )
        else:
            asked = data.get("area", "")
            area = ExclusionArea.objects.filter(pk=int(asked) if asked.isdigit() else 0).first()
            if area is None or not may_see_exclusion_area(
                user=user, venue_ids=area_venue_ids(area)
            ):
                raise InvalidInput(gettext("Choose the exclusion area to approve."), field="area")
            player_services.exclusion_area_approve(area=area, user=user)
    except ServiceError as error:
        venues = list(report_venues(user=request.user))
        return _areas_page(request, venues, venue, error=error, step=step)
    return redirect(f"{reverse('reports:exclusion_areas')}?venue={venue.code}&done={step}")

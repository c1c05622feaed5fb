"""The rounds an integrity result counted: its scope's settled rounds of its run's gaming
dates, newest first, each shown by its game's parts as the console's history shows it
(casino.floor.console.history), for the venue's managers and auditors (docs/INTEGRITY.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from casino.floor.console.access import use_venue_language
from casino.floor.console.history import round_parts
from casino.floor.console.readers import reader_check, render_at_venue
from casino.floor.models import Bet, Box, Round, RoundStatus
from casino.integrity.models import IntegrityResult
from casino.integrity.views import _reader
from casino.kernel.logs import log_venue
from casino.staff.policy import Capability, declare

#: Rounds a page lists.
PAGE_ROUNDS = 50

Scope = IntegrityResult.Scope


def counted_rounds(result: IntegrityResult) -> QuerySet[Round]:
    """The settled rounds of the result's game that its counts came from, newest first:
    the venue's rounds of the run's gaming dates (their session's) at the table, dealt by
    the dealer, with the player at a box, or at the pit's tables. A voided round is left
    out, as a void takes it off the tallies the run read. Three queries, whatever the page
    holds: the rounds with their table, gaming date and dealer, their boxes with their
    players, the boxes' bets."""
    run = result.run
    rounds = Round.objects.filter(
        status=RoundStatus.SETTLED,
        game=result.game,
        session__table__venue_id=result.venue_id,
        session__shift__gaming_date__gte=run.date_from,
        session__shift__gaming_date__lte=run.date_to,
    )
    if result.scope == Scope.TABLE:
        rounds = rounds.filter(session__table_id=result.table_id)
    elif result.scope == Scope.DEALER:
        rounds = rounds.filter(dealer_id=result.dealer_id)
    elif result.scope == Scope.PLAYER:
        seated = Box.objects.filter(round=OuterRef("pk"), player_id=result.player_id)
        rounds = rounds.filter(Exists(seated))
    else:
        rounds = rounds.filter(session__table__pit_id=result.pit_id)
    return (
        rounds.select_related("session__table", "session__shift", "dealer")
        .prefetch_related(
            Prefetch("boxes", queryset=Box.objects.select_related("player").order_by("position")),
            Prefetch("boxes__bets", queryset=Bet.objects.order_by("pk")),
        )
        .order_by("-settled_at", "-pk")
    )


@declare(Capability.READ_INTEGRITY)
@login_required
@require_GET
def integrity_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    """One result's rounds, a page of ``PAGE_ROUNDS`` at a time (``?page=``)."""
    result = IntegrityResult.objects.select_related("run", "venue").filter(pk=pk).first()
    if result is None:
        raise Http404("no such integrity result")
    venue = result.venue
    log_venue(venue)
    reader_check(request.user, venue.pk)
    _reader(request, venue)
    use_venue_language(request, venue.language)
    page = Paginator(counted_rounds(result), PAGE_ROUNDS).get_page(request.GET.get("page"))
    context = {
        "venue": venue,
        "result": result,
        "run": result.run,
        "page": page,
        "consoles": round_parts(),
    }
    return render_at_venue(request, venue, "reports/integrity_rounds.html", context)

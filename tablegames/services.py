"""Writes of rated table games: their rulesets (through the shared versioning and approval
of ``casino.rulesets.services``) and the supervisor's ratings."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit.services import audit_record
from casino.floor.models import TableSession
from casino.floor.rules import rules_in_force
from casino.kernel.amounts import check_amount
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.kernel.money import plain, venue_money
from casino.kernel.timezones import venue_time
from casino.players.eligibility import Activity, check_player_may
from casino.players.models import Player
from casino.rulesets import services as rulesets
from casino.staff.roles import SUPERVISE, can
from casino.venues.models import TableLimit, Venue
from tablegames import engine
from tablegames.models import RULE_FIELDS, Rating, RatingAuditAction, TableGameRulesetVersion
from tablegames.selectors import BET_TYPE

GAME = "tablegames"


def _fill_rules(version: TableGameRulesetVersion, rules: engine.Ruleset) -> None:
    """Write an engine snapshot's rules onto the saved, still empty ``version``."""
    version.game_name = rules.game_name
    version.house_edge_rate = rules.house_edge
    version.decisions_per_hour = rules.decisions_per_hour
    version.full_clean(exclude=["ruleset"])
    version.save()


def version_save_draft(*, version: TableGameRulesetVersion, user: Any) -> TableGameRulesetVersion:
    """Save a draft's own fields (the admin form)."""
    return rulesets.version_save_draft(
        model=TableGameRulesetVersion,
        version=version,
        user=user,
        rule_fields=RULE_FIELDS,
        fill_default_rows=lambda draft: None,
    )


def venue_ruleset_from_preset(
    *, venue: Venue, preset_code: str, editor: Any, **options: Any
) -> TableGameRulesetVersion:
    """Give ``venue`` its own ruleset copied from a preset, as a draft by ``editor``;
    approved and activated at once with an ``approver`` (another person)."""
    return rulesets.preset_copy_to_venue(
        model=TableGameRulesetVersion,
        game=GAME,
        venue=venue,
        preset_code=preset_code,
        rules=engine.get(preset_code),
        fill=_fill_rules,
        editor=editor,
        **options,
    )


def _amount(value: Any, venue: Venue, field: str, *, allow_negative: bool = False) -> Decimal:
    """An amount of ``venue`` as every amount is read (``casino.kernel.amounts.check_amount``:
    ``500.000`` where the venue groups with points), above 0 unless ``allow_negative``."""
    amount = check_amount(value, venue, field=field, signed=allow_negative)
    if not allow_negative and amount <= 0:
        raise InvalidInput(_("The average bet is above 0."), field=field, reason="not_positive")
    return amount


@transaction.atomic
def rating_enter(
    *,
    session: TableSession,
    user: Any,
    player: Player | int | None,
    average_bet: Decimal | str,
    started_at: datetime | None,
    ended_at: datetime | None,
    actual_win: Decimal | str | None = None,
    replaces: Rating | None = None,
    reason: str = "",
) -> Rating:
    """Record a supervisor's rating of one player's play at ``session``'s table.

    The times are within the session (from its opening to its close, or now while it is
    open), time out after time in; the average bet is within the table's limits; the player
    is a member of the venue the eligibility question allows to be rated on the venue's
    date of the time in (a barred player's play is not rated). The theoretical win is
    worked out with the house edge and pace of the version in force. A correction
    ``replaces`` a rating of the same session with a reason: the new one is in force, the
    old one stays on record.

    Locks the session, then the rating replaced.
    """
    session = _rated_session(session, user)
    venue = session.table.venue
    found = _rated_player(player, venue, started_at)
    bet = _average_bet(average_bet, session.table, venue)
    started_at, ended_at = _check_times(session, started_at, ended_at)
    won = (
        None
        if actual_win in (None, "")
        else _amount(actual_win, venue, "actual_win", allow_negative=True)
    )
    reason = (reason or "").strip()
    if replaces is not None:
        replaces = _replaced(replaces, session, reason)
    in_force = rules_in_force(session.table)
    rules: engine.Ruleset = in_force.rules
    seconds = int((ended_at - started_at).total_seconds())
    rating = Rating.objects.create(
        session=session,
        player=found,
        version=in_force.version,
        average_bet=bet,
        started_at=started_at,
        ended_at=ended_at,
        decisions=engine.decisions(seconds, rules.decisions_per_hour),
        theoretical_win=engine.theoretical_win(
            average_bet=bet,
            seconds=seconds,
            decisions_per_hour=rules.decisions_per_hour,
            house_edge=rules.house_edge,
        ),
        actual_win=won,
        entered_by=user,
        replaces=replaces,
        reason=reason,
    )
    _audit_rating(rating, user=user)
    return rating


def _rated_session(session: TableSession, user: Any) -> TableSession:
    """The session, locked: a rated table game's, at a venue ``user`` supervises."""
    session = (
        TableSession.objects.select_for_update().select_related("table__venue").get(pk=session.pk)
    )
    if session.table.game != GAME:
        raise InvalidInput(_("Only a rated table game's session takes ratings."), field="session")
    if not can(user, SUPERVISE, session.table.venue.pk):
        raise Forbidden(_("Only a supervisor of the venue rates players."))
    return session


def _rated_player(player: Player | int | None, venue: Venue, at: datetime | None) -> Player:
    """The player, a member of ``venue`` whom the eligibility question allows to be rated."""
    player_id = getattr(player, "pk", player)
    found = Player.objects.filter(pk=player_id, venue=venue).first() if player_id else None
    if found is None:
        raise InvalidInput(
            _("Choose a player who is a member of %(venue)s.") % {"venue": venue.name},
            field="player",
            reason="player_not_of_venue",
        )
    check_player_may(player=found, venue=venue, activity=Activity.RATE, at=at)
    return found


def _average_bet(value: Decimal | str, table: Any, venue: Venue) -> Decimal:
    """The average bet, an amount of the venue within the table's limits."""
    bet = _amount(value, venue, "average_bet")
    limit = TableLimit.objects.filter(table=table, bet_type=BET_TYPE).first()
    if limit is not None and not limit.min_stake <= bet <= limit.max_stake:
        raise InvalidInput(
            _("The average bet is within the table's limits, %(low)s to %(high)s.")
            % {
                "low": venue_money(limit.min_stake, venue),
                "high": venue_money(limit.max_stake, venue),
            },
            field="average_bet",
            reason="outside_limits",
        )
    return bet


def _check_times(
    session: TableSession, started_at: datetime | None, ended_at: datetime | None
) -> tuple[datetime, datetime]:
    """The time in and the time out, both given, within the session (from its opening to its
    close, or now while it is open), the time out after the time in."""
    if started_at is None or ended_at is None:
        raise InvalidInput(
            _("Give the time in and the time out."),
            field="started_at" if started_at is None else "ended_at",
            reason="time_missing",
        )
    until = session.closed_at or timezone.now()
    if started_at < session.opened_at or started_at >= until:
        raise InvalidInput(
            _("The time in is within the session (it opened at %(opened)s).")
            % {"opened": venue_time(session.opened_at, session.table.venue)},
            field="started_at",
            reason="outside_session",
        )
    if ended_at <= started_at:
        raise InvalidInput(
            _("The time out is after the time in."), field="ended_at", reason="ends_before_start"
        )
    if ended_at > until:
        raise InvalidInput(
            _("The time out is within the session: not after its close or now."),
            field="ended_at",
            reason="outside_session",
        )
    return started_at, ended_at


def _replaced(replaces: Rating, session: TableSession, reason: str) -> Rating:
    """The rating a correction replaces, locked: of the same session, in force (not corrected
    already), with a reason given."""
    replaces = Rating.objects.select_for_update().get(pk=replaces.pk)
    if replaces.session_id != session.pk:
        raise InvalidInput(
            _("A correction replaces a rating of the same session."), field="replaces"
        )
    if Rating.objects.filter(replaces=replaces).exists():
        raise Conflict(
            _("This rating was corrected already: correct the rating in force."),
            field="replaces",
            reason="already_replaced",
        )
    if not reason:
        raise InvalidInput(
            _("Say why the rating is corrected."), field="reason", reason="reason_missing"
        )
    return replaces


def _audit_rating(rating: Rating, *, user: Any) -> None:
    replaces = rating.replaces
    venue = rating.session.table.venue
    found = rating.player
    bet, won = rating.average_bet, rating.actual_win
    audit_record(
        user=user,
        action=RatingAuditAction.CORRECT if replaces is not None else RatingAuditAction.ENTER,
        obj=rating,
        venue=venue,
        summary=(
            f"rated {found.membership_number} at {rating.session.table.code}: average bet "
            f"{plain(bet)}, {venue_time(rating.started_at, venue)} to "
            f"{venue_time(rating.ended_at, venue)}, theoretical {plain(rating.theoretical_win)}"
            + (f" (replaces rating {replaces.pk}: {rating.reason})" if replaces is not None else "")
        ),
        before={"rating": replaces.pk} if replaces is not None else None,
        after={
            "player": found.pk,
            "average_bet": plain(bet),
            "started_at": rating.started_at.isoformat(),
            "ended_at": rating.ended_at.isoformat(),
            "actual_win": plain(won) if won is not None else None,
            "theoretical_win": plain(rating.theoretical_win),
            "version": rating.version.pk,
        },
    )

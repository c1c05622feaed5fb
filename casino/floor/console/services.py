"""The console's write that is more than one call to a floor service.

``round_confirm`` deals and settles a round in one transaction, keyed by the form's
idempotency key: ``round_create`` returns the round already recorded under the key and
``round_settle`` answers a repeat of the key with the settlement already made, so however
many times a form is posted (a double click, a retry after a lost answer) the round is
recorded and paid once. Locking: ``round_create`` locks the session row and holds it to the
end of the transaction, so a second request with the same key waits, then finds the round;
``round_settle`` locks the round row. (A slip requested once per form:
``casino.cage.services.slips.slip_request_once``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from casino.floor.models import TableSession
from casino.floor.services.rounds import RoundWritten, round_create_written
from casino.floor.services.settlement import round_settle_written
from casino.games import BoxInput
from casino.kernel.errors import Conflict


@transaction.atomic
def round_confirm(
    *,
    session: TableSession,
    user: Any,
    dealer_cards: str,
    boxes: Sequence[BoxInput],
    key: str,
    version_id: int | None = None,
    expected_number: int | None = None,
) -> RoundWritten:
    """Record and settle a round once per ``key`` (the create key and the settle key).

    ``version_id`` is the ruleset version the dealer's preview was evaluated under: a round
    dealt under another one (activated meanwhile) is refused and nothing is written, so what
    is paid is what was previewed. ``expected_number`` is the round's number when it was
    previewed: a table that recorded another round since (another terminal) refuses it
    (``round_create``), so two previews of one deal record one round.

    One transaction without a savepoint of either service's: any refusal leaves this
    function by its exception and rolls the deal and the settle back together."""
    dealt = round_create_written(
        session=session,
        user=user,
        dealer_cards=dealer_cards,
        boxes=boxes,
        create_key=key,
        expected_number=expected_number,
        savepoint=False,
    )
    if version_id is not None and dealt.round.ruleset_version_id != version_id:
        raise Conflict(
            _(
                "The rules changed after the preview: preview the round again to see the "
                "payouts under the version now in force, then confirm."
            ),
            reason="rules_changed",
        )
    return round_settle_written(
        round_=dealt.round, user=user, key=key, dealt=dealt, savepoint=False
    )

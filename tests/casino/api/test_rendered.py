"""The round answer rendered by one serializer per class is DRF's own rendering."""

from __future__ import annotations

import pytest

from casino.api.base import rendered
from casino.floor import selectors
from casino.floor.api.round_serializers import RoundSerializer
from tests.casino.api import NIU_8, NIU_9, NO_NIU, box, client_for, deal, open_session, settle
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_rendered_answers_equal_a_fresh_serializer(floor):
    client = client_for(floor.dealer)
    session_id = open_session(client, floor.table.pk)["id"]
    player = PlayerFactory(venue=floor.venue)
    dealt = deal(
        client,
        session_id,
        box(1, NIU_9, single="100000", double="100000", player=player.pk),
        box(2, NO_NIU, single="200000"),
        dealer=NIU_8,
    )
    other = deal(client, session_id, box(1, NO_NIU, single="100000"), dealer=NIU_9)
    assert settle(client, dealt["id"], "k1").status_code == 200

    views = [selectors.round_view(round_id=pk) for pk in (dealt["id"], other["id"])]
    # Settled (people, a player, two bets) then dealt (nobody settled it): what one round
    # leaves on the shared serializer must not show in the next answer.
    for view in [*views, *views]:
        assert rendered(RoundSerializer, view) == RoundSerializer(view).data
    first, second = (rendered(RoundSerializer, view) for view in views)
    assert first["settled_by"] == floor.dealer.username
    assert first["boxes"][0]["player"]["id"] == player.pk
    assert second["settled_by"] is None
    assert len(second["boxes"]) == 1

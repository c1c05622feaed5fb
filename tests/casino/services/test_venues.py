"""How a venue writes its amounts is one of its settings: changed by its manager at any
time (it decides no money), audited, and only to a grouping there is."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditEvent
from casino.floor.services.sessions import session_open
from casino.kernel.errors import InvalidInput
from casino.venues.services.venues import venue_update

pytestmark = pytest.mark.django_db


def test_a_manager_changes_the_grouping_even_with_a_table_open_and_it_is_audited(floor):
    session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    venue = venue_update(venue=floor.venue, user=floor.manager, amount_grouping="dot")
    assert venue.amount_grouping == "dot"
    event = AuditEvent.objects.get(action="venue.update")
    assert event.before["amount_grouping"] == "comma"
    assert event.after["amount_grouping"] == "dot"


def test_a_grouping_there_is_not_is_refused_on_its_field(floor):
    with pytest.raises(InvalidInput) as refused:
        venue_update(venue=floor.venue, user=floor.manager, amount_grouping="dots")
    assert refused.value.field == "amount_grouping"

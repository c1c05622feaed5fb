"""What a site sends the group (casino.ops.sites): every table named resolves, each column
list holds its table's key, and no person's details are among the columns sent. The drill
(tests/drills/test_group_sites.py) runs the replication itself."""

from __future__ import annotations

import pytest
from django.apps import apps

from casino.kernel.errors import InvalidInput
from casino.ops import sites

#: The columns that describe a person, or say what was recorded about one, of each table that
#: holds them: they stay at the site.
PERSONAL = {
    "players.Player": {
        "name", "date_of_birth", "nationality", "id_document_type", "id_document_number",
        "id_document_country", "name_key", "document_key",
    },
    "players.PlayerBarring": {"reason", "lift_reason"},
    "cage.CashTransaction": {"id_document_type", "id_document_number", "patron_description"},
    "audit.AuditEvent": {"summary", "before", "after"},
}  # fmt: skip


def test_every_table_sent_exists_with_its_key_and_no_personal_column():
    tables = sites.sent_tables()
    assert len(tables) == len(sites.SENT)
    for label, table in zip(sites.SENT, tables, strict=True):
        model = apps.get_model(label)
        columns = {field.column for field in model._meta.concrete_fields}
        sent = columns if table.columns is None else set(table.columns)
        assert model._meta.pk.column in sent, label
        personal = PERSONAL.get(label, set())
        assert personal <= columns, label  # still the model's: the check checks something
        assert not sent & personal, (label, sent & personal)
    assert PERSONAL.keys() <= sites.SENT.keys()


def test_a_member_goes_as_venue_number_and_group_key_only():
    player = next(t for t in sites.sent_tables() if t.table == "casino_player")
    columns = ("id", "venue_id", "membership_number", "status", "created_at", "group_key")
    assert player.columns == columns
    assert player.published(lambda name: f'"{name}"') == (
        '"casino_player" ("id", "venue_id", "membership_number", "status", "created_at", '
        '"group_key")'
    )


def test_a_column_renamed_or_a_key_left_out_is_named(monkeypatch):
    monkeypatch.setitem(sites.SENT, "players.Player", ("id", "nickname"))
    with pytest.raises(LookupError, match=r"players\.Player has no column nickname"):
        sites.sent_tables()
    monkeypatch.setitem(sites.SENT, "players.Player", ("venue_id",))
    with pytest.raises(LookupError, match="its key id must be sent"):
        sites.sent_tables()


def test_each_site_has_its_own_range_of_keys():
    assert sites.site_range(1, "bigint") == (10**12, 2 * 10**12)
    assert sites.site_range(2, "integer") == (2 * 10**6, 3 * 10**6)
    # the last site's integer keys still fit an integer column
    assert sites.site_range(sites.GROUP_KEYS, "integer")[1] <= 2**31 - 1


@pytest.mark.parametrize("number", [0, -1, sites.MOST_SITES + 1])
def test_a_sites_number_out_of_range_is_refused(number):
    with pytest.raises(InvalidInput, match=f"a site's number is 1 to {sites.MOST_SITES}"):
        sites.site_init(number)


@pytest.mark.parametrize("name", ["Hanoi", "vn-hanoi", "", "x" * 42, "vn;drop"])
def test_a_sites_name_is_checked_before_it_names_a_subscription(name):
    with pytest.raises(InvalidInput, match="a site's name is lower-case letters"):
        sites.subscription_name(name)
    assert sites.subscription_name("vn_hanoi") == "casino_site_vn_hanoi"

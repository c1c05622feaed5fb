"""A group of sites: each site (one venue or a country's venues) runs its own PostgreSQL and
app, deals and settles with no link to anyone, and sends the group's reporting database its
records through PostgreSQL's logical replication (docs/OPERATIONS.md, "A group of sites").

- **Keys of the site's own.** Every sequence of a site's database starts in the site's range
  (``site_range``: site ``n`` from ``n`` times 10**12 for a bigint key, 10**6 for an integer
  one), set once by ``manage.py site_setup --site n`` on the empty database: the rows of every
  site meet in the group's database, table by table, without two sharing a key (the
  group's own writes are in a range of their own, ``GROUP_KEYS``).
- **What a site sends** (``SENT``): the records the group reports on (venues, tables, days,
  sessions, rounds, boxes, bets, tallies, the ledger, the drops, the cash records, the audit
  trail, the members and their barrings), in one publication (``PUBLICATION``). A person's
  details never leave the site: a member's row goes without name, birth date, nationality or
  document, a cash record without the document or the description of an unknown patron, a
  barring without its reasons, an audit event without its summary and the values it
  recorded. The columns sent are named (an allow-list): a column added later stays at the
  site until it is named here. One exception, a venue's to set (``Venue.group_player_data``)
  where the group's jurisdiction allows it: an identified venue's members go with their
  name, birth date and document too (``IDENTITY``). A publication has one column list a
  table, for every row, and PostgreSQL refuses a subscription two lists of one table: every
  venue of a site says the same, or the site is not published (``player_columns``).
- **What the group does** (``group_prepare``, ``subscribe``): its database is migrated like a
  site's, each column a site does not send and that a row must have gets an empty default
  (a row arrives without it), and one subscription per site (``casino_site_<name>``) copies
  the site's rows, then follows its changes. A site whose link is down keeps its changes in
  its replication slot and sends them when the link is back; nothing arrives twice (the
  keys are the sites' own).
- **Barrings travel back**: each barring a site sends (of a member with a group key: their
  identity document hashed with the group's secret, ``casino.players.names.group_key``)
  becomes a ``GroupBarring`` in the group's database (a trigger, ``BARRING_TRIGGER``, that
  fires for the rows replication writes too), which the group publishes (``BARRINGS``) and
  every site subscribes to (``subscribe_barrings``); a site's eligibility question reads it
  (``casino.players.eligibility``). Only the group writes it: no row goes round in a loop.

The commands ``site_setup``, ``group_setup`` and ``replication_status`` run these on the
database they are given.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.apps import apps
from django.db import connections

from casino.kernel.errors import InvalidInput

#: The publication every site has and the group subscribes to.
PUBLICATION = "casino_group"
#: The group's publication of the barrings of every site, and each site's subscription to it.
BARRINGS = "casino_group_barrings"
#: Where each site's range of keys starts: site ``n`` at ``n`` times this, per key type.
RANGE = {"bigint": 10**12, "integer": 10**6}
#: The highest site number the smaller (integer) range allows.
MOST_SITES = 1999
#: The range of the group's own database (its operating group, rates, staff and audit
#: trail): one no site has.
GROUP_KEYS = MOST_SITES + 1

#: The models whose rows a site sends, and the columns sent where not all of them are
#: (``None``: every column).
SENT: dict[str, tuple[str, ...] | None] = {
    "venues.Venue": None,
    "venues.Pit": None,
    "venues.Table": None,
    "venues.Shift": None,
    "venues.GamingDay": None,
    "floor.TableSession": None,
    "floor.Round": None,
    "floor.Box": None,
    "floor.Bet": None,
    "floor.BetTally": None,
    "floor.SeatTally": None,
    "integrity.CategoryTally": None,
    "integrity.CardTally": None,
    "ledger.LedgerEntry": None,
    "ledger.Drop": None,
    "count.DropBox": None,
    "count.CountDay": None,
    "cage.CashAlert": None,
    "cage.Slip": None,
    "cage.CashTransaction": (
        "id", "venue_id", "session_id", "table_id", "player_id", "kind", "instrument", "amount",
        "gaming_date", "recorded_by_id", "recorded_at", "voided_by_id", "voided_at",
        "void_reason", "key", "threshold",
    ),
    "players.Player": (
        "id", "venue_id", "membership_number", "status", "created_at", "group_key",
    ),
    "players.PlayerBarring": (
        "id", "player_id", "kind", "starts_on", "ends_on", "barred_by_id", "barred_at",
        "lifted_by_id", "lifted_at",
    ),
    "audit.AuditEvent": (
        "id", "at", "user_id", "venue_id", "action", "object_type", "object_id",
    ),
}  # fmt: skip

#: What else an identified venue's members go with (``Venue.group_player_data``): who they
#: are, by name, birth date and identity document.
IDENTITY = (
    "name", "date_of_birth", "id_document_type", "id_document_number", "id_document_country",
)  # fmt: skip
PLAYERS = "players.Player"

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,40}$")


@dataclass(frozen=True)
class SentTable:
    """One table a site publishes: its name and the columns sent (all when ``columns`` is
    None)."""

    table: str
    columns: tuple[str, ...] | None

    def published(self, quote: Callable[[str], str]) -> str:
        """As a publication names it (``quote``: the connection's ``quote_name``)."""
        if self.columns is None:
            return quote(self.table)
        return f"{quote(self.table)} ({', '.join(quote(column) for column in self.columns)})"


def player_columns(venues: dict[str, str]) -> tuple[str, ...]:
    """The members' columns a site sends, from what each of its venues (code: its
    ``group_player_data``) says: ``SENT``'s when all are pseudonymised (or there is no venue
    yet), with ``IDENTITY`` when all are identified. Venues that disagree are refused, by
    name: a publication has one column list for every row of a table."""
    identified = sorted(code for code, said in venues.items() if said == "identified")
    pseudonymised = sorted(set(venues) - set(identified))
    if identified and pseudonymised:
        raise InvalidInput(
            f"the venues of this site disagree on what of their members leaves it for the "
            f"group: identified {', '.join(identified)}; pseudonymised "
            f"{', '.join(pseudonymised)}. A site sends one set of a member's columns for all "
            "of its venues: set every venue's \"members' data sent to the group\" alike (a "
            "superuser, on the venue's page), then run site_setup again",
            field="group_player_data",
        )
    columns = SENT[PLAYERS] or ()
    return (*columns, *IDENTITY) if identified else columns


def site_player_columns(*, using: str = "default") -> tuple[str, ...]:
    """``player_columns`` of the venues of the database ``using``."""
    venues = apps.get_model("venues.Venue").objects.using(using)
    return player_columns(dict(venues.values_list("code", "group_player_data")))


def sent_tables(players: tuple[str, ...] | None = None) -> list[SentTable]:
    """``SENT`` as tables (the members' columns ``players`` where given:
    ``player_columns``), each column named checked against its model (a renamed column
    fails here, not in PostgreSQL at a site)."""
    tables = []
    for label, columns in SENT.items():
        if label == PLAYERS and players is not None:
            columns = players
        meta = apps.get_model(label)._meta
        if columns is not None:
            known = {field.column for field in meta.concrete_fields}
            unknown = sorted(set(columns) - known)
            if unknown:
                raise LookupError(f"{label} has no column {', '.join(unknown)}")
            if meta.pk.column not in columns:
                raise LookupError(f"{label}: its key {meta.pk.column} must be sent")
        tables.append(SentTable(meta.db_table, columns))
    return tables


def site_range(site: int, key_type: str) -> tuple[int, int]:
    """The first key of site ``site`` for a key of ``key_type`` and the first beyond its
    range."""
    size = RANGE[key_type]
    return site * size, (site + 1) * size


def site_init(site: int, *, using: str = "default", group: bool = False) -> list[str]:
    """Every sequence of the database ``using`` (bigint and integer ones) moved into site
    ``site``'s range, where it is not there yet: what was moved, one line a sequence. Rows
    written before keep their keys (below every site's range: one site of a group may have
    them, the installation it grew from). A sequence in another site's range is refused:
    a site keeps its number. Run again, nothing changes. ``group``: the group's own database,
    in its range (``GROUP_KEYS``; ``site`` is not read)."""
    if group:
        site = GROUP_KEYS
    elif not 1 <= site <= MOST_SITES:
        raise InvalidInput(f"a site's number is 1 to {MOST_SITES}, got {site}", field="site")
    moved = []
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT schemaname, sequencename, data_type::text FROM pg_sequences "
            "WHERE schemaname = current_schema() ORDER BY sequencename"
        )
        for schema, name, key_type in cursor.fetchall():
            if key_type not in RANGE:
                continue  # a smallint sequence: a table of a handful of rows, not sent
            sequence = f'"{schema}"."{name}"'
            cursor.execute(f"SELECT last_value FROM {sequence}")  # noqa: S608 (its own name)
            (at,) = cursor.fetchone()  # the last key given, or the first to give
            first, beyond = site_range(site, key_type)
            if first <= at < beyond:
                continue  # in the range already
            if at >= RANGE[key_type]:  # in another site's range
                raise InvalidInput(
                    f"the sequence {name} is at {at}, in another site's range (site "
                    f"{at // RANGE[key_type]}), not site {site}'s: a site keeps the number "
                    "it was set up with",
                    field="site",
                )
            cursor.execute("SELECT setval(%s, %s, false)", [sequence, first])
            moved.append(f"{name}: from {first}")
    return moved


def publication_sql(quote: Callable[[str], str], players: tuple[str, ...] | None = None) -> str:
    """The tables of a site's publication, as ``CREATE`` and ``ALTER PUBLICATION`` name
    them (the members' columns ``players`` where given)."""
    return ", ".join(table.published(quote) for table in sent_tables(players))


def site_publish(*, using: str = "default") -> str:
    """The site's publication made, or its tables set to ``SENT`` if it exists, the members'
    columns as its venues say (``site_player_columns``: refused when they disagree): what
    was done. When the members' columns grow (the venues now identified), every member's
    row is sent again, so that the group has the identities of the members registered
    before too (replication sends a row when it is written, not when its publication
    changes; the rows are written unchanged)."""
    connection = connections[using]
    players = site_player_columns(using=using)
    tables = publication_sql(connection.ops.quote_name, players)
    player_table = apps.get_model(PLAYERS)._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_publication WHERE pubname = %s", [PUBLICATION])
        if not cursor.fetchone():
            cursor.execute(f"CREATE PUBLICATION {PUBLICATION} FOR TABLE {tables}")
            return f"publication {PUBLICATION}: made ({len(SENT)} tables)"
        cursor.execute(
            "SELECT attnames FROM pg_publication_tables WHERE pubname = %s "
            "AND schemaname = current_schema() AND tablename = %s",
            [PUBLICATION, player_table],
        )
        row = cursor.fetchone()
        before = set(row[0] or []) if row else set()
        cursor.execute(f"ALTER PUBLICATION {PUBLICATION} SET TABLE {tables}")
        done = f"publication {PUBLICATION}: tables set ({len(SENT)})"
        if row and set(players) - before:
            cursor.execute(f'UPDATE "{player_table}" SET "group_key" = "group_key"')  # noqa: S608
            done += f"; {cursor.rowcount} members sent again with {', '.join(IDENTITY)}"
        return done


#: A default for a column a site does not send, by its type (a row arrives without it).
_EMPTY = {
    "character varying": "''",
    "text": "''",
    "jsonb": "'{}'::jsonb",
    "boolean": "false",
}


#: At the group: each barring a site sends, of a member with a group key, as a
#: ``GroupBarring`` (made, or its end, lifting and kind brought up to date). ``ENABLE ALWAYS``:
#: it fires for the rows the subscriptions write too (a trigger does not, by default);
#: ``search_path FROM CURRENT``: a subscription's worker runs with an empty one.
BARRING_TRIGGER = """
CREATE OR REPLACE FUNCTION casino_group_barring() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO casino_groupbarring
    (barring_id, group_key, kind, venue_code, venue_name, starts_on, ends_on, lifted_at)
  SELECT NEW.id, p.group_key, NEW.kind, v.code, v.name, NEW.starts_on, NEW.ends_on,
         NEW.lifted_at
  FROM casino_player p JOIN casino_venue v ON v.id = p.venue_id
  WHERE p.id = NEW.player_id AND p.group_key <> ''
  ON CONFLICT (barring_id) DO UPDATE SET kind = EXCLUDED.kind, ends_on = EXCLUDED.ends_on,
    lifted_at = EXCLUDED.lifted_at;
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS casino_group_barring ON casino_playerbarring;
CREATE TRIGGER casino_group_barring AFTER INSERT OR UPDATE ON casino_playerbarring
  FOR EACH ROW EXECUTE FUNCTION casino_group_barring();
ALTER TABLE casino_playerbarring ENABLE ALWAYS TRIGGER casino_group_barring;
"""


#: At the group: the identities of the members of a venue that is no longer identified
#: emptied (a site sends its members without them from its next publication, but what it
#: sent before stays until written over: a column no longer sent is not).
FORGET_IDENTITIES = """
UPDATE casino_player p SET name = '', date_of_birth = NULL, id_document_type = '',
  id_document_number = '', id_document_country = ''
FROM casino_venue v
WHERE v.id = p.venue_id AND v.group_player_data <> 'identified'
  AND (p.name <> '' OR p.date_of_birth IS NOT NULL OR p.id_document_type <> ''
       OR p.id_document_number <> '' OR p.id_document_country <> '')
"""


def group_prepare(*, using: str = "default") -> list[str]:
    """The group's database made ready to receive: its own keys in a range no site has
    (``GROUP_KEYS``: what the group writes itself, its rates and audit trail, never meets a
    site's row), every column a site does not send that a
    row must have (not null, no default) given an empty default, and every check on such a
    column dropped (the site keeps it); the identities of the members of venues not
    identified (any more) emptied (``FORGET_IDENTITIES``); the trigger that makes the
    sites' barrings group barrings (``BARRING_TRIGGER``), and their publication. Run after
    each migrate of the group's database; nothing changes when it is ready."""
    done = [f"the group's own keys: {len(site_init(0, using=using, group=True))} moved"]
    with connections[using].cursor() as cursor:
        cursor.execute(BARRING_TRIGGER)
        cursor.execute(FORGET_IDENTITIES)
        if cursor.rowcount:
            done.append(f"identities of members of pseudonymised venues: {cursor.rowcount} gone")
        cursor.execute("SELECT 1 FROM pg_publication WHERE pubname = %s", [BARRINGS])
        if not cursor.fetchone():
            cursor.execute(f"CREATE PUBLICATION {BARRINGS} FOR TABLE casino_groupbarring")
            done.append(f"publication {BARRINGS}: made")
        for table in sent_tables():
            if table.columns is None:
                continue
            # A check on a column the group does not receive is the site's to keep: here it
            # would refuse every row (a barring's reason is not empty, at its site).
            cursor.execute(
                "SELECT c.conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid "
                "WHERE t.relname = %s AND t.relnamespace = current_schema()::regnamespace "
                "AND c.contype = 'c' AND EXISTS (SELECT 1 FROM unnest(c.conkey) k JOIN "
                "pg_attribute a ON a.attrelid = t.oid AND a.attnum = k "
                "WHERE NOT a.attname = ANY(%s))",
                [table.table, list(table.columns)],
            )
            for (constraint,) in cursor.fetchall():
                cursor.execute(f'ALTER TABLE "{table.table}" DROP CONSTRAINT "{constraint}"')
                done.append(f"{table.table}: check {constraint} left to the sites")
            cursor.execute(
                "SELECT column_name, data_type FROM information_schema.columns WHERE "
                "table_schema = current_schema() AND table_name = %s AND is_nullable = 'NO' "
                "AND column_default IS NULL AND NOT column_name = ANY(%s)",
                [table.table, list(table.columns)],
            )
            for column, data_type in cursor.fetchall():
                empty = _EMPTY.get(data_type)
                if empty is None:
                    raise InvalidInput(
                        f"{table.table}.{column} ({data_type}) is not sent, and a row must "
                        "have it: send it (casino.ops.sites.SENT) or give it a default"
                    )
                cursor.execute(
                    f'ALTER TABLE "{table.table}" ALTER COLUMN "{column}" SET DEFAULT {empty}'
                )
                done.append(f"{table.table}.{column}: default {empty}")
    return done


def subscription_name(site: str) -> str:
    """The group's subscription to site ``site`` (a short name: letters, digits, _)."""
    if not _NAME.match(site):
        raise InvalidInput(
            f"a site's name is lower-case letters, digits and _ (at most 41), got {site!r}",
            field="site",
        )
    return f"casino_site_{site}"


def subscribe(site: str, conninfo: str, *, using: str = "default") -> str:
    """The group's subscription to ``site`` at ``conninfo`` (libpq's ``host=... port=...
    dbname=... user=...``): made, copying the site's rows, then following its changes; if
    it exists, its tables refreshed (after the site's publication changed)."""
    return _subscription(subscription_name(site), PUBLICATION, conninfo, using=using)


def _subscription(name: str, publication: str, conninfo: str, *, using: str) -> str:
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_subscription WHERE subname = %s", [name])
        if cursor.fetchone():
            cursor.execute(f"ALTER SUBSCRIPTION {name} REFRESH PUBLICATION")
            return f"subscription {name}: refreshed"
        cursor.execute("SELECT quote_literal(%s)", [conninfo])
        (literal,) = cursor.fetchone()
        cursor.execute(
            f"CREATE SUBSCRIPTION {name} CONNECTION {literal} PUBLICATION {publication} "
            "WITH (copy_data = true)"
        )
        return f"subscription {name}: made"


def subscribe_barrings(site: int, conninfo: str, *, using: str = "default") -> str:
    """Site ``site``'s subscription to the group's barrings (the group's database at
    ``conninfo``), named for the site (its slot at the group is: one a site): made, or
    refreshed if it exists."""
    return _subscription(f"{BARRINGS}_{site}", BARRINGS, conninfo, using=using)


def replication_status(*, using: str = "default") -> list[dict[str, object]]:
    """What to watch: on a site, each replication slot (whether the group is connected and
    how much WAL the site keeps for it: what a long outage fills the disk with); on the
    group, each subscription (when it last heard from its site, and its lag)."""
    rows: list[dict[str, object]] = []
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT slot_name, active, pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn) "
            "FROM pg_replication_slots WHERE slot_type = 'logical' ORDER BY slot_name"
        )
        for slot, active, kept in cursor.fetchall():
            rows.append({"slot": slot, "connected": active, "wal_kept_bytes": int(kept or 0)})
        cursor.execute(
            "SELECT subname, pid IS NOT NULL, "
            "EXTRACT(EPOCH FROM now() - last_msg_receipt_time), "
            "EXTRACT(EPOCH FROM last_msg_receipt_time - last_msg_send_time) "
            "FROM pg_stat_subscription WHERE relid IS NULL ORDER BY subname"
        )
        for name, running, silent, lag in cursor.fetchall():
            rows.append(
                {
                    "subscription": name,
                    "running": running,
                    "last_heard_s": None if silent is None else round(float(silent), 3),
                    "lag_s": None if lag is None else round(float(lag), 3),
                }
            )
    return rows

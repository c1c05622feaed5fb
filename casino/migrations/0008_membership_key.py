"""Membership numbers in one stored form, enforced by the database.

Before the CHECK constraint goes on, every existing number is put in the stored form
(``casino.players.membership.membership_number``). Where two players of a venue come out with the same
number, the oldest keeps it and each other one gets ``<number>-DUP-<player id>``; a number
that cannot be put in the form becomes ``FIX-<player id>``. Every change is printed while
migrating and recorded as a ``player.renumber`` audit event (before and after), so a manager
can find the players and give them their right numbers. Unchanged numbers are left alone.
"""

import secrets
from itertools import groupby
from operator import attrgetter

from django.db import migrations, models

import casino.players.membership
from casino.players.membership import MAX_LENGTH, membership_key

ACTION = "player.renumber"


def _distinct(base, suffix, taken):
    """``base`` cut to fit with ``suffix`` after it, and not yet taken in the venue."""
    extra = 1
    while True:
        tail = suffix if extra == 1 else f"{suffix}-{extra}"
        candidate = (base[: MAX_LENGTH - len(tail)] + tail).lstrip("-")
        if candidate not in taken:
            return candidate
        extra += 1


def plan_numbers(players):
    """The new number of each player whose number changes, oldest first: ``{pk: (number,
    reason)}``. ``players`` are one venue's ``(pk, number)`` pairs, oldest first."""
    keys = {pk: membership_key(number) for pk, number in players}
    owner = {}
    for pk, _number in players:
        if keys[pk] is not None:
            owner.setdefault(keys[pk], pk)
    taken = set(owner)
    plan = {}
    for pk, number in players:
        key = keys[pk]
        if key is None:
            new = _distinct("", f"-FIX-{pk}", taken)
            reason = "cannot be put in the stored form"
        elif owner[key] != pk:
            new = _distinct(key, f"-DUP-{pk}", taken)
            reason = f"same number as player {owner[key]}, who is older and keeps it"
        else:
            new, reason = key, "put in the stored form"
        taken.add(new)
        if new != number:
            plan[pk] = (new, reason)
    return plan


def renumber_players(apps, schema_editor=None, report=print):
    """Put every membership number in the stored form; returns the audit events written."""
    Player = apps.get_model("casino", "Player")
    AuditEvent = apps.get_model("casino", "AuditEvent")
    players = (
        Player.objects.select_related("venue")
        .only("pk", "venue_id", "venue__code", "membership_number", "created_at")
        .order_by("venue_id", "created_at", "pk")
    )
    events, lines = [], []
    for _venue_id, group in groupby(players, key=attrgetter("venue_id")):
        group = list(group)
        plan = plan_numbers([(p.pk, p.membership_number) for p in group])
        if not plan:
            continue
        changing = [p for p in group if p.pk in plan]
        # Two steps, so that a number is free before another player takes it.
        token = secrets.token_hex(4)
        for player in changing:
            Player.objects.filter(pk=player.pk).update(membership_number=f"~{player.pk}~{token}")
        for player in changing:
            new, reason = plan[player.pk]
            Player.objects.filter(pk=player.pk).update(membership_number=new)
            lines.append(
                f"  venue {player.venue.code}: player {player.pk} "
                f"{player.membership_number!r} -> {new!r} ({reason})"
            )
            events.append(
                AuditEvent(
                    user=None,
                    venue_id=player.venue_id,
                    action=ACTION,
                    object_type="casino.player",
                    object_id=str(player.pk),
                    summary=(
                        f"renumbered player {player.membership_number!r} to {new}: {reason}"
                    )[:255],
                    before={"membership_number": player.membership_number},
                    after={"membership_number": new},
                )
            )
    if events:
        report(
            f"\nMembership numbers put in the stored form: {len(events)} player(s) renumbered, "
            f"each with a {ACTION} audit event:"
        )
        for line in lines:
            report(line)
    AuditEvent.objects.bulk_create(events)
    if schema_editor is not None and schema_editor.connection.vendor == "postgresql":
        # Check the deferred foreign keys now: the table is altered next in this transaction
        # (PostgreSQL refuses to alter a table with trigger events pending; SQLite has none).
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return events


class Migration(migrations.Migration):
    dependencies = [("casino", "0007_table_changes")]

    operations = [
        migrations.RunPython(renumber_players, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="player",
            name="membership_number",
            field=casino.players.membership.MembershipNumberField(
                help_text=(
                    "1 to 32 letters A to Z, digits 0 to 9 and - . /, kept in capitals: lower "
                    "case and full-width characters are converted, anything else is refused. "
                    "One number, one member per venue."
                ),
                max_length=32,
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("membership_number__regex", "\\A[A-Z0-9./-]{1,32}\\Z")),
                name="player_number_stored_form",
                violation_error_message=(
                    "A membership number is stored as 1 to 32 capital letters A to Z, digits "
                    "0 to 9 and - . /."
                ),
            ),
        ),
    ]

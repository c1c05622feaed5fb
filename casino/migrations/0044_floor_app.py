"""The floor's models (sessions, rounds, boxes, bets and the tallies settlement keeps) move to
their own app (``casino.floor``): every app's references now point there, this app's state
forgets them, and their content types (so their permissions) move with them. State only,
apart from the content types' app label: the tables keep their names (``Meta.db_table``)."""

from django.db import migrations

MOVED = ["tablesession", "round", "box", "bet", "bettally", "seattally"]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="floor")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="floor", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):
    dependencies = [
        ("baccarat", "0005_floor_app"),
        ("cage", "0003_floor_app"),
        ("casino", "0043_rulesets_app"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("count", "0003_floor_app"),
        ("floor", "0001_initial"),
        ("integrity", "0008_floor_app"),
        ("ledger", "0003_floor_app"),
        ("reports", "0003_floor_app"),
        ("tablegames", "0005_floor_app"),
        ("venues", "0003_floor_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="bet",
                    name="box",
                ),
                migrations.RemoveField(
                    model_name="bettally",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="bettally",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="bettally",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="bettally",
                    name="shift",
                ),
                migrations.RemoveField(
                    model_name="bettally",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="bettally",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="box",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="box",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="created_by",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="ruleset",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="settled_by",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="void_requested_by",
                ),
                migrations.RemoveField(
                    model_name="round",
                    name="voided_by",
                ),
                migrations.RemoveField(
                    model_name="seattally",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="seattally",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="seattally",
                    name="shift",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="closed_by",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="closing_counted_by",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="opened_by",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="opening_confirmed_by",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="shift",
                ),
                migrations.RemoveField(
                    model_name="tablesession",
                    name="table",
                ),
                migrations.DeleteModel(
                    name="Bet",
                ),
                migrations.DeleteModel(
                    name="BetTally",
                ),
                migrations.DeleteModel(
                    name="Box",
                ),
                migrations.DeleteModel(
                    name="Round",
                ),
                migrations.DeleteModel(
                    name="SeatTally",
                ),
                migrations.DeleteModel(
                    name="TableSession",
                ),
            ]
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

"""Players' models (players, barrings, comp policies, comps) move to their own app
(``casino.players``): the floor's models now refer to ``players.Player``, the floor's state
forgets them, and their content types (so their permissions) move with them. State only,
apart from the content types' app label: the tables keep their names (``Meta.db_table``)."""

import django.db.models.deletion
from django.db import migrations, models


MOVED = ["player", "playerbarring", "comppolicy", "comp"]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="players")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="players", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("baccarat", "0003_player_in_players_app"),
        ("casino", "0036_field_and_model_names_translated"),
        ("integrity", "0002_player_in_players_app"),
        ("players", "0001_initial"),
        ("tablegames", "0003_player_in_players_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="comp",
                    name="authorised_by",
                ),
                migrations.RemoveField(
                    model_name="comp",
                    name="issued_by",
                ),
                migrations.RemoveField(
                    model_name="comp",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="comp",
                    name="policy",
                ),
                migrations.RemoveField(
                    model_name="comp",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="comppolicy",
                    name="approved_by",
                ),
                migrations.RemoveField(
                    model_name="comppolicy",
                    name="proposed_by",
                ),
                migrations.RemoveField(
                    model_name="comppolicy",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="player",
                    name="venue",
                ),
                migrations.AlterField(
                    model_name="cashtransaction",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        help_text="Empty: a player nobody knows (counted for the table only).",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="players.player",
                        verbose_name="player",
                    ),
                ),
                migrations.AlterField(
                    model_name="box",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="boxes",
                        to="players.player",
                        verbose_name="player",
                    ),
                ),
                migrations.AlterField(
                    model_name="ledgerentry",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger",
                        to="players.player",
                        verbose_name="player",
                    ),
                ),
                migrations.AlterField(
                    model_name="cashalert",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_alerts",
                        to="players.player",
                        verbose_name="player",
                    ),
                ),
                migrations.AlterField(
                    model_name="seattally",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="bettally",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.RemoveField(
                    model_name="playerbarring",
                    name="player",
                ),
                migrations.AlterField(
                    model_name="shiftreportcell",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.RemoveField(
                    model_name="playerbarring",
                    name="barred_by",
                ),
                migrations.RemoveField(
                    model_name="playerbarring",
                    name="lifted_by",
                ),
                migrations.DeleteModel(
                    name="Comp",
                ),
                migrations.DeleteModel(
                    name="CompPolicy",
                ),
                migrations.DeleteModel(
                    name="Player",
                ),
                migrations.DeleteModel(
                    name="PlayerBarring",
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

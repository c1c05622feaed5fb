"""Venues' models (venues, tables, limits, pits, limit changes, shifts, gaming days, ruleset
changes, dealer spells) move to their own app (``casino.venues``), first their fields that
refer to other models. State only: no table, column or row changes (the tables keep their
names, ``Meta.db_table``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0040_ledger_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="dealerspell",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="dealerspell",
                    name="recorded_by",
                ),
                migrations.RemoveField(
                    model_name="dealerspell",
                    name="relieved_by",
                ),
                migrations.RemoveField(
                    model_name="dealerspell",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="gamingday",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="pit",
                    name="supervisors",
                ),
                migrations.RemoveField(
                    model_name="pit",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="table",
                    name="pit",
                ),
                migrations.RemoveField(
                    model_name="shift",
                    name="venue",
                ),
            ],
        ),
    ]

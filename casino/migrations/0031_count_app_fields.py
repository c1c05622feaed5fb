"""The count's models move to their own app (``casino.count``), first their fields that
refer to other models. State only: no table, column or row changes (the tables keep their
names, ``Meta.db_table``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0030_cash_threshold_at_the_table"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="boxcount",
                    name="box",
                ),
                migrations.RemoveField(
                    model_name="boxcount",
                    name="counted_by",
                ),
                migrations.RemoveField(
                    model_name="countday",
                    name="closed_by",
                ),
                migrations.RemoveField(
                    model_name="countday",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="dropbox",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="dropbox",
                    name="venue",
                ),
            ],
        ),
    ]

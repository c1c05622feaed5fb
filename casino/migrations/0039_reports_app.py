"""Shift reports (the report, its files, its cells) move to their own app (``casino.reports``):
the floor's state forgets them and their content types (so their permissions) move with
them. State only, apart from the content types' app label: the tables keep their names
(``Meta.db_table``)."""

from django.db import migrations


MOVED = ["shiftreport", "shiftreportfile", "shiftreportcell"]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="reports")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="reports", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("casino", "0038_cage_app"),
        ("reports", "0001_initial"),
        ("integrity", "0003_report_in_reports_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="shiftreport",
                    name="requested_by",
                ),
                migrations.RemoveField(
                    model_name="shiftreport",
                    name="shift",
                ),
                migrations.RemoveField(
                    model_name="shiftreport",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="shiftreportcell",
                    name="report",
                ),
                migrations.RemoveField(
                    model_name="shiftreportcell",
                    name="dealer",
                ),
                migrations.RemoveField(
                    model_name="shiftreportcell",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="shiftreportcell",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="shiftreportcell",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="shiftreportcell",
                    name="venue",
                ),
                migrations.DeleteModel(
                    name="ShiftReportFile",
                ),
                migrations.DeleteModel(
                    name="ShiftReport",
                ),
                migrations.DeleteModel(
                    name="ShiftReportCell",
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

"""The models as a migration saw them, for tests that run a data migration's function.

A model may have moved to another app since (keeping its table, ``Meta.db_table``), so the
migration's ``apps.get_model("casino", ...)`` finds it only in the state of its own time;
those models read the same tables as today's.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.db.migrations.loader import MigrationLoader


def models_as_of(app_label: str, migration: str) -> Apps:
    """The app registry of the project's state right after ``app_label``'s ``migration``."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return loader.project_state((app_label, migration)).apps

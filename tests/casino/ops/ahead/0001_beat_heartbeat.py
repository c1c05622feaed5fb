"""The applied migration, as it is (``test_health``: a migration of the code not applied)."""

from importlib import import_module

Migration = import_module("casino.ops.migrations.0001_beat_heartbeat").Migration

"""The admin's shared parts (``base``: venue scoping, read-only admins, amounts; ``writes``:
saves through the services) and the floor's records, read-only. Each app registers its own
models' admin (``casino.venues.admin``, ``casino.rulesets.admin`` and the others)."""

from casino.admin import records  # noqa: F401
from casino.admin.base import ReadOnlyAdmin, VenueScopedAdmin

__all__ = ["ReadOnlyAdmin", "VenueScopedAdmin"]

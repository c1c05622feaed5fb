"""The admin's shared parts (``base``: venue scoping, read-only admins, amounts; ``writes``:
saves through the services). Each app registers its own models' admin
(``casino.venues.admin``, ``casino.floor.admin`` and the others)."""

from casino.admin.base import ReadOnlyAdmin, VenueScopedAdmin

__all__ = ["ReadOnlyAdmin", "VenueScopedAdmin"]

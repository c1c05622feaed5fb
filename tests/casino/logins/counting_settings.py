"""``casino.settings`` with a password hasher that counts its checks (``hashers.py``);
for the gunicorn of the lockout's concurrency test only."""

from casino.settings import *  # noqa: F403

# Alone: of two hashers with one algorithm name, Django would use the last.
PASSWORD_HASHERS = ["tests.casino.logins.hashers.CountingMD5PasswordHasher"]

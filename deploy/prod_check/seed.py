"""The people and the table of ``make prod-check``'s smoke journey, in its fresh database.

Run with the services' environment (the app's role): prints, as JSON, the ids the client
needs and, for each person who needs a second factor, the hex key of a confirmed TOTP
device, as an authenticator app would hold it after enrolment; the client computes the
codes from it.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django  # noqa: E402 (after the path)

django.setup()

from django_otp.plugins.otp_totp.models import TOTPDevice  # noqa: E402

from casino.staff.policy import needs_second_factor  # noqa: E402
from casino.staff.roles import AUDITOR, CAGE, DEALER, MANAGER, SUPERVISOR  # noqa: E402
from casino.venues.models import Venue  # noqa: E402
from tests.factories import niuniu_table, staff  # noqa: E402

#: The password of every person the factories make.
PASSWORD = "pw-for-tests"  # noqa: S105 (tests/factories.py; a throwaway database)


def main() -> None:
    venue = Venue.objects.create(
        code="pc",
        name="Production check",
        currency="VND",
        rounding_unit=Decimal("1000"),
        timezone="Asia/Ho_Chi_Minh",
        language="vi",
    )
    table = niuniu_table(venue, code="NN1")
    people = {
        "dealer": staff("pc-dealer", DEALER, venue),
        "supervisor": staff("pc-supervisor", SUPERVISOR, venue),
        "supervisor2": staff("pc-supervisor2", SUPERVISOR, venue),
        "cashier": staff("pc-cashier", CAGE, venue),
        "manager": staff("pc-manager", MANAGER, venue),
        "auditor": staff("pc-auditor", AUDITOR, venue),
    }
    keys = {}
    for name, user in people.items():
        if needs_second_factor(user):
            key = secrets.token_hex(20)
            TOTPDevice.objects.create(user=user, name="phone", key=key, confirmed=True)
            keys[name] = key
    print(
        json.dumps(
            {
                "venue": venue.pk,
                "table": table.pk,
                "password": PASSWORD,
                "usernames": {name: user.username for name, user in people.items()},
                "totp_keys": keys,
            }
        )
    )


if __name__ == "__main__":
    main()

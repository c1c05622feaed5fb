"""Set a member of staff's console PIN for them (a superuser, or a manager of one of their
venues), through ``casino.staff.pins.pin_set``: the same checks and the same audit
event (``pin.set``) as the member setting their own on the console.

    manage.py pin_set dealer --by admin          # asks the PIN twice, never echoed
    echo 2580 | manage.py pin_set dealer --by admin --stdin
"""

from __future__ import annotations

import getpass
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from casino.kernel.errors import ServiceError
from casino.staff.pins import pin_set


class Command(BaseCommand):
    help = "Set a member of staff's console PIN (as a superuser or a manager of their venue)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("member", help="username of the member whose PIN is set")
        parser.add_argument("--by", required=True, help="username of who sets it (audited)")
        parser.add_argument("--stdin", action="store_true", help="read the PIN from stdin")

    def handle(self, *args, member: str, by: str, stdin: bool = False, **options) -> None:
        users = get_user_model()._default_manager
        target = users.filter(username=member).first()
        setter = users.filter(username=by, is_active=True).first()
        if target is None or setter is None:
            missing = member if target is None else by
            raise CommandError(f"no active account named {missing!r}")
        if stdin:
            pin = sys.stdin.readline().strip()
        else:
            pin = getpass.getpass("PIN: ")
            if getpass.getpass("The same PIN again: ") != pin:
                raise CommandError("the two PINs differ: type the same PIN twice")
        try:
            pin_set(user=setter, member=target, pin=pin)
        except ServiceError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"console PIN of {target.get_username()} set by {setter.get_username()}")

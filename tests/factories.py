from __future__ import annotations

from decimal import Decimal

import factory
from django.contrib.auth.models import User

from casino.models import Venue


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Venue
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"venue{n}")
    name = factory.LazyAttribute(lambda o: f"Venue {o.code}")
    currency = "VND"
    rounding_unit = Decimal("1000")
    timezone = "Asia/Ho_Chi_Minh"
    language = "vi"

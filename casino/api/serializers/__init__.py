"""The API's shared serializer parts: ``fields`` (the fields and references every app's
serializers use). Each app holds its own serializers beside its views (``casino.floor.api``,
``casino.rulesets.api``, ``casino.ledger.api`` and the others).

Input serializers only check shapes and bounds (types, lengths, sizes that fit the
database); the services check the rules and name the field they refuse. Output
serializers render money as Decimal strings with two places (``"95000.00"``) and rates as
their shortest exact text (``"0.05"``).
"""

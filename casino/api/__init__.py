"""The REST API at ``/api/v1/``: thin views over the floor's services and selectors.

Each operation has an explicit input serializer (what it parses) and output serializer
(what it answers); a view parses, calls one service or selector, and renders. Every error
is ``{"error": code, "detail": message, "field": name}`` (see ``casino.api.errors``).
"""

"""The count: drop boxes, the two counters' counts of each box, and a gaming day's count.

A Django app of its own inside the project package (``docs/ARCHITECTURE.md`` "Apps"): it owns
its models, services, selectors, console screens, API and templates.
"""

"""Game integrity: statistical tests that the cards, hands and results recorded at settlement
are what fair play under the round's rules gives (docs/INTEGRITY.md).

A Django app of its own inside the project package (``docs/ARCHITECTURE.md`` "Apps"): its
models (the tallies, runs, results and investigations), the tallies settlement writes
(``tallies``), the tests (``statistics``, ``exact``, ``power``, ``cards``, ``runs``), the
investigations' service, its pages and admin."""

"""The kernel: plain Python every app of the casino builds on, with no model and no app of
its own: cards, money and amounts, time zones, the errors services raise, logs, progress
reports and the replica router. It imports nothing else of the project (an import contract
in ``pyproject.toml`` holds it so)."""

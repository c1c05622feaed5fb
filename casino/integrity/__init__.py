"""Game integrity: statistical tests that the cards, hands and results recorded at settlement
are what fair play under the round's rules gives (docs/INTEGRITY.md)."""

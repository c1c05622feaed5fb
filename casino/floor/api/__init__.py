"""The floor's API: sessions (close, reconcile, drops), slips' session side and rounds (deal,
settle, void, their ledger)."""

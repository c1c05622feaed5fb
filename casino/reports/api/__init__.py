"""The reports' API: the day's figures, cash, ratings, reconciliation and periods, and the
shift reports requested and read."""

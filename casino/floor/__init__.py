"""The floor: a table's sessions, its rounds with their boxes and bets, the tallies settlement
keeps, and the services that open, deal, settle, void and close them."""

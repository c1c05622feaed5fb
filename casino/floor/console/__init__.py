"""The dealer's console: server-rendered pages with htmx partials
(docs/ARCHITECTURE.md "The console").

The shell: my tables (``tables``), a session's history and voids (``history``), closing
(``closing``), and what they share (``access``); fills and credits and the cash at a table
are the cage's screens (``casino.cage.views``), mounted beside these by
``casino.console_urls``. The round
screen is the table's game's (``casino.games.GameConsole``): the shell renders it and runs
its preview and Confirm (``round``); ``forms`` holds the readers every screen shares (cards,
stakes, players, chips), ``selectors`` reads the floor for the console.
"""

"""The dealer's console: server-rendered pages with htmx partials (DESIGN.md "Interfaces").

``views`` parse the request, call one service or selector and render a page, or the page's
named partial when the request comes from htmx. ``forms`` reads what the dealer typed,
``selectors`` reads the floor for the console.
"""

"""``{% file_links url label venue.language %}``: a file's download links, one in the
venue's language and, when the reader reads another, one in theirs (``casino.exports``'s
``file_language`` reads the ``lang`` the link carries)."""

from __future__ import annotations

from typing import Any

from django import template

from casino.export_views import file_languages

register = template.Library()


def with_language(url: str, lang: str) -> str:
    """``url`` asking its file in ``lang`` (``venue`` or ``reader``).

    >>> with_language("/r/f.csv", "venue"), with_language("/r/x?venue=HN", "reader")
    ('/r/f.csv?lang=venue', '/r/x?venue=HN&lang=reader')
    """
    return f"{url}{'&' if '?' in url else '?'}lang={lang}"


@register.inclusion_tag("includes/file_links.html", takes_context=True)
def file_links(context: Any, url: str, label: str, venue_language: str) -> dict[str, Any]:
    request = context["request"]
    links = [
        {"href": with_language(url, lang), "lang": code, "name": name, "label": label}
        for lang, code, name in file_languages(request, venue_language)
    ]
    return {"links": links}

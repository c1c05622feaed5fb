"""What a page's chart must be for a person who cannot see it: an image named by its title
and described (what it draws, and where its numbers are), drawn from the page's figures."""

from __future__ import annotations

import re


def chart_of(page: str, ident: str) -> str:
    """The page's chart ``ident``, checked to be an image with a name and a description."""
    found = re.search(rf'<svg role="img" aria-labelledby="{ident}-title".*?</svg>', page, re.S)
    assert found, f"no chart {ident}"
    svg = found.group(0)
    assert f'aria-describedby="{ident}-desc"' in svg
    assert re.search(rf'<title id="{ident}-title">[^<]+</title>', svg)
    assert re.search(rf'<desc id="{ident}-desc">[^<]+the table below', svg) or re.search(
        rf'<desc id="{ident}-desc">[^<]+card below', svg
    )
    return svg


def bars_in(svg: str) -> int:
    """The bars matplotlib drew (each a path of the ``patch`` group named ``patch_<n>``)."""
    return len(re.findall(r'<g id="patch_\d+"', svg))

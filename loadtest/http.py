"""A lean HTTP/1.1 client for the load generator's API dealers.

The load generator shares the server's two cores: every millisecond of CPU it spends on a
round is a millisecond the server does not get. httpx spends about 3 ms of CPU a request
(its models, its connection pool, its header and cookie handling); this client writes the
request's bytes, reads the status, the headers it needs and the body, about a tenth of
that. Enough for JSON POSTs to gunicorn, which closes each connection after its answer
(sync workers keep nothing alive): a connection per request, no pool, no redirects, no
cookies. ``--http-client httpx`` measures with httpx instead. ``request`` sends any method
with a body and headers as given (the floor model's console users: form posts, their
session cookie), and reads a chunked answer too (a streamed export).

``run`` runs the generator's coroutine on uvloop: its sockets cost half the CPU of
asyncio's own loop a request (0.79 against 0.40 ms a connection and its answer, measured
against gunicorn on this machine), CPU the server's two cores keep.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any, TypeVar
from urllib.parse import urlsplit

import uvloop

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop's event loop."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


class Answer:
    """What the dealers read of an answer: ``status_code``, ``text`` and ``json()``."""

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code = status_code
        self.content = content

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)


class LeanClient:
    """``await client.post(path, json=..., headers=...)`` -> ``Answer``; ``async with``."""

    def __init__(self, base_url: str, *, timeout: float = 30) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout

    async def __aenter__(self) -> LeanClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def post(
        self, path: str, *, json: Any = None, headers: dict[str, str] | None = None
    ) -> Answer:
        body = b"" if json is None else _dumps(json)
        lines = [
            f"POST {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Connection: close",
            f"Content-Length: {len(body)}",
        ]
        if json is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        return await asyncio.wait_for(self._exchange(request), self.timeout)

    async def request(
        self, method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> Answer:
        """``method`` on ``path`` (with its query) with ``body`` and ``headers`` as given."""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Connection: close",
            f"Content-Length: {len(body)}",
        ]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        return await asyncio.wait_for(self._exchange(request, chunked_ok=True), self.timeout)

    async def _exchange(self, request: bytes, *, chunked_ok: bool = False) -> Answer:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            status = int(status_line.split(" ", 2)[1])
            length, chunked = None, False
            for line in header_lines:
                name, _, value = line.partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
                    if not chunked_ok:
                        raise ValueError("a chunked answer: this client reads Content-Length only")
                    chunked = True
            if chunked:
                return Answer(status, _unchunk(await reader.read()))
            content = await (reader.readexactly(length) if length is not None else reader.read())
            return Answer(status, content)
        finally:
            writer.close()


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _unchunk(raw: bytes) -> bytes:
    """The body of a chunked answer read to its end."""
    body, rest = bytearray(), raw
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        body += rest[:size]
        rest = rest[size + 2 :]
    return bytes(body)

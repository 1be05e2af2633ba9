"""The HTTP gate: what every request passes before the room's routes see it.

- Who the client is: the peer, or what a trusted proxy says (``X-Forwarded-For``,
  ``X-Forwarded-Proto``; limits.Proxies). uvicorn's own proxy handling is off: it
  believed any local peer, so each guessed password could claim a new address.
- A declared body over the limit is answered 413 at once and the connection closed,
  before a byte of it is read (a body sent without a length is counted as it is read:
  app.py's ``read_body``).
- Every answer carries the browser client's protection: a Content-Security-Policy that
  allows the room's own scripts, styles and connections only (the client loads nothing
  from elsewhere and has no inline script), and no framing by other sites.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pokerroom.gateway.limits import Limits

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
DOCS = ("/api/docs", "/api/docs/oauth2-redirect")  # FastAPI's page loads its script from a CDN


class Gate:
    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k: v for k, v in scope["headers"] if k in (b"x-forwarded-for", b"x-forwarded-proto",
                                                                b"content-length")}
        peer = scope["client"][0] if scope.get("client") else None
        proxies = self.limits.proxies
        if proxies.trusts(peer):
            port = scope["client"][1] if scope.get("client") else 0
            forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1")
            scope["client"] = (proxies.client(peer, forwarded), port)
            proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1")
            scope["scheme"] = proxies.scheme(peer, proto, scope["scheme"])
        if self.limits.https:
            scope["scheme"] = "https"
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or len(length) > 18 or int(length) > self.limits.max_body:
            await too_big(send, self.limits.max_body)
            return
        policy = scope["path"] not in DOCS

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [*SECURITY_HEADERS, *([(b"content-security-policy", CSP.encode())] if policy else [])]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, guarded)


async def too_big(send: Send, limit: int) -> None:
    """413, and the connection closed: the rest of the body is never read."""
    body = json.dumps({"error": {"code": "too_big", "message": f"a request body is at most {limit} bytes"}})
    await send({
        "type": "http.response.start",
        "status": 413,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"), *SECURITY_HEADERS],
    })
    await send({"type": "http.response.body", "body": body.encode()})

"""What one client may take from the room: bounds on requests and connections, which
proxies may say who the client is, and the sliding-window counters behind the rate
limits (issue 16, items 4-6 and 9).

A client's address is the peer's, unless the peer is a proxy the operator named
(``pokerroom serve --trusted-proxy``): then it is the last address in ``X-Forwarded-For``
that is not itself a trusted proxy. Nobody else may say where a request comes from, or
every guess at a password could claim a new address.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Limits:
    """The room's bounds on HTTP and WebSocket clients (``pokerroom serve`` flags)."""

    max_head: int = 16 * 1024  # request line and headers, bytes (431 past it)
    max_body: int = 4096  # request body, bytes (413 past it, without reading the rest)
    request_timeout: float = 10.0  # seconds to send a request's head and body
    keep_alive: float = 5.0  # seconds an idle keep-alive connection stays open
    max_connections: int = 10_000  # open connections in all (uvicorn's limit_concurrency)
    http_per_address: int = 64  # open HTTP connections per peer (a trusted proxy: no cap)
    sockets_per_address: int = 64  # open WebSockets per client address
    anonymous_per_address: int = 8  # of those, not logged in
    trusted_proxies: tuple[str, ...] = ()  # addresses or networks whose X-Forwarded-* count
    https: bool = False  # served over HTTPS (a TLS proxy): cookies are Secure
    proxies: Proxies = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "proxies", Proxies(self.trusted_proxies))


def address_key(address: str) -> str:
    """What a limit per address counts ``address`` as: an IPv4 address itself, an IPv6
    address as its /64 (one customer's allocation holds 2**64 of them)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:1.2.3.4 is 1.2.3.4
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def network(text: str) -> Network:
    """An address or network (``10.0.0.0/8``); ValueError when it is neither."""
    return ipaddress.ip_network(text.strip(), strict=False)


class Proxies:
    """The proxies whose forwarded headers are believed (none by default)."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self.networks = tuple(network(t) for t in trusted)

    def trusts(self, host: str | None) -> bool:
        if not self.networks or not host:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in n for n in self.networks)

    def client(self, peer: str | None, forwarded_for: str | None) -> str:
        """The client's address: from ``X-Forwarded-For`` only when ``peer`` is trusted,
        the rightmost entry that is not a trusted proxy (entries to its left are what
        the client itself claimed)."""
        host = peer or "?"
        if not forwarded_for or not self.trusts(peer):
            return host
        # from the right: the proxies' own entries; what the client wrote is at the left,
        # however long (the 16 KiB head bounds the header; at most 32 hops are looked at)
        for entry in reversed(forwarded_for.rsplit(",", 32)[-32:]):
            entry = entry.strip()
            try:
                ipaddress.ip_address(entry)
            except ValueError:
                return host  # a malformed chain: believe nothing beyond the proxy
            if not self.trusts(entry):
                return entry
            host = entry
        return host

    def scheme(self, peer: str | None, forwarded_proto: str | None, default: str) -> str:
        """``https`` when a trusted proxy says the client came over HTTPS."""
        if forwarded_proto and self.trusts(peer):
            proto = forwarded_proto.split(",")[0].strip().lower()
            if proto in ("http", "https"):
                return proto
        return default


class AddressCount:
    """Open connections per address, each kind counted against its own cap."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def add(self, address: str, cap: int) -> bool:
        """Count one more connection from ``address`` (its /64 for IPv6); False (nothing
        counted) at the cap."""
        address = address_key(address)
        n = self._open.get(address, 0)
        if n >= cap:
            return False
        self._open[address] = n + 1
        return True

    def remove(self, address: str) -> None:
        address = address_key(address)
        n = self._open.get(address, 0) - 1
        if n > 0:
            self._open[address] = n
        else:
            self._open.pop(address, None)

    def __len__(self) -> int:
        return len(self._open)

    def count(self, address: str) -> int:
        return self._open.get(address_key(address), 0)


class RateLimit:
    """At most ``limit`` events per ``window`` seconds per key.

    Keys whose last event left the window are dropped as new events come (at most
    ``max_keys`` kept: past that the least recently hit go first), so a flood of new keys
    (one per guessed name) cannot grow the table without bound."""

    def __init__(self, limit: int, window: float, max_keys: int = 100_000) -> None:
        self.limit, self.window, self.max_keys = limit, window, max_keys
        self._hits: dict[str, deque[float]] = {}  # least recently hit first

    def blocked(self, key: str, now: float | None = None) -> bool:
        hits = self._hits.get(key)
        if hits is None:
            return False
        self._expire(hits, time.monotonic() if now is None else now)
        if not hits:
            del self._hits[key]
            return False
        return len(hits) >= self.limit

    def hit(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        # room past the limit: a refund (``refund``) must find its event still there
        hits = self._hits.pop(key, None) or deque(maxlen=4 * self.limit + 16)
        self._hits[key] = hits  # now the most recently hit
        hits.append(now)
        self._prune(now)

    def refund(self, key: str) -> None:
        """Take back the latest event of ``key`` (an attempt counted before its outcome was
        known, which turned out not to count)."""
        hits = self._hits.get(key)
        if hits:
            hits.pop()

    def clear(self, key: str) -> None:
        self._hits.pop(key, None)

    def __len__(self) -> int:
        return len(self._hits)

    def _expire(self, hits: deque[float], now: float) -> None:
        while hits and hits[0] <= now - self.window:
            hits.popleft()

    def _prune(self, now: float) -> None:
        """Drop the least recently hit keys while they are stale or too many (the oldest
        come first, so this stops at the first live key under the cap)."""
        while self._hits:
            key = next(iter(self._hits))
            hits = self._hits[key]
            if len(self._hits) <= self.max_keys and hits and hits[-1] > now - self.window:
                return
            del self._hits[key]

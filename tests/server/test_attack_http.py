"""The HTTP layer and the gateway side of /ws under attack (issue 16, items 4-9): each
test attacks a real `pokerroom serve` on a loopback port, SQLite and PostgreSQL as the
other server tests, and each failed before its fix (the figures are in the docstrings).

Every flood is bounded in count and in time; only loopback addresses are used (a trusted
proxy's ``X-Forwarded-For`` stands for other clients)."""

from __future__ import annotations

import asyncio
import select
import socket
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, update
from sqlalchemy import select as sql_select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pokerroom.gateway.auth import token_hash
from pokerroom.gateway.connection import TokenBucket
from pokerroom.gateway.limits import AddressCount, Proxies, RateLimit, address_key
from pokerroom.store import Store
from pokerroom.store.schema import sessions
from tests.server.helpers import PASSWORD, Client, Room, serving

MiB = 1 << 20


@pytest.fixture
def room(tmp_path: Path, database: tuple[str, str | None]) -> Iterator[Room]:
    yield from serving(Room(tmp_path, database))


@pytest.fixture
def proxied(tmp_path: Path, database: tuple[str, str | None]) -> Iterator[Room]:
    """A room behind a proxy on 127.0.0.1 that it trusts (its X-Forwarded-For counts)."""
    yield from serving(Room(tmp_path, database, "--trusted-proxy", "127.0.0.1"))


def raw(port: int, timeout: float = 10.0) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def answer_of(s: socket.socket, timeout: float = 5.0) -> bytes:
    """What the server sent until it closed (or ``timeout`` passed)."""
    s.settimeout(timeout)
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return got


def status_of(data: bytes) -> int | None:
    if not data.startswith(b"HTTP/1.1 "):
        return None
    return int(data[9:12])


def push(s: socket.socket, head: bytes, total: int, chunk: bytes) -> tuple[int, bytes]:
    """Send ``head`` then ``chunk`` until ``total`` bytes went or the server answered or
    closed; how many bytes went, and what came back."""
    sent = 0
    try:
        s.sendall(head)
        sent = len(head)
        while sent < total:
            s.sendall(chunk)
            sent += len(chunk)
            if select.select([s], [], [], 0)[0]:
                break
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sent, answer_of(s)


# ---------------------------------------------------------------------- item 5: the HTTP layer


def test_huge_headers_are_refused_early(room: Room) -> None:
    """16 MiB of request headers: before, all of them taken and no refusal (RSS +15.8
    MiB; the issue's run, with the head ended, answered 200); now 431 after 16 KiB and a
    read, the connection closed (RSS +0)."""
    before = room.rss()
    s = raw(room.port, timeout=20.0)
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
    line = b"X-Pad: " + b"a" * 8183 + b"\r\n"  # 8 KiB header lines, 2,048 of them
    sent, answer = push(s, head, 16 * MiB, line)
    s.close()
    grown = room.rss() - before
    print(f"huge headers: sent {sent:,} bytes, answered {status_of(answer)}, RSS +{grown / MiB:.1f} MiB")
    assert status_of(answer) in (431, None), answer[:200]  # None: reset before the answer was read
    assert status_of(answer) != 200
    assert sent < 16 * MiB  # the server stopped taking them
    assert grown < 16 * MiB
    assert httpx.get(f"{room.http}/healthz").status_code == 200


def test_a_body_over_the_limit_is_refused_unread(room: Room) -> None:
    """48 MiB bodies: before, read whole before the 4 KiB check and 8 MiB chunked read
    whole with no answer (the issue's run: RSS +95 MB at peak); now 413 as soon as the head
    says its length, or at 4 KiB of a body sent without one, and the connection closed."""
    before = room.rss()
    s = raw(room.port, timeout=20.0)
    head = (b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (48 * MiB))
    sent, answer = push(s, head, 48 * MiB, b"x" * 65536)
    s.close()
    first = status_of(answer)
    # chunked, no length declared: counted as it comes
    s = raw(room.port, timeout=20.0)
    head = b"POST /api/register HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunk = b"10000\r\n" + b"[" * 65536 + b"\r\n"
    sent_chunked, answer = push(s, head, 8 * MiB, chunk)
    s.close()
    grown = room.rss() - before
    print(f"48 MiB body: {sent:,} bytes sent before the answer ({first}); chunked: {sent_chunked:,} "
          f"({status_of(answer)}); RSS +{grown / MiB:.1f} MiB")
    assert first == 413 and status_of(answer) == 413, answer[:200]
    assert sent < 48 * MiB and sent_chunked < 8 * MiB
    assert grown < 16 * MiB


def test_slow_and_silent_requests_are_cut_off(room: Room) -> None:
    """Headers dribbled a byte a second, and a connection that sends nothing: before,
    both still open after 14 s (the issue's run: 24 s and more); now closed at the 10 s
    request timeout (408)."""
    dribble, silent = raw(room.port, 30.0), raw(room.port, 30.0)
    dribble.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    start = time.monotonic()
    closed: dict[str, float] = {}
    answers: dict[str, bytes] = {}
    while time.monotonic() - start < 14.0 and len(closed) < 2:
        for name, s in (("dribble", dribble), ("silent", silent)):
            if name in closed:
                continue
            try:
                if name == "dribble":
                    s.sendall(b"a")
                if select.select([s], [], [], 0)[0]:
                    answers[name] = answer_of(s, 1.0)
                    closed[name] = time.monotonic() - start
            except (BrokenPipeError, ConnectionResetError):
                closed[name] = time.monotonic() - start
        time.sleep(0.5)
    for s in (dribble, silent):
        s.close()
    print(f"slow requests: closed after {closed} s (of 14 s watched)")
    assert set(closed) == {"dribble", "silent"}, closed
    assert all(8.0 < t < 13.0 for t in closed.values()), closed
    assert status_of(answers.get("dribble", b"")) in (408, None)


def test_connections_per_address_are_capped(room: Room) -> None:
    """400 WebSockets from one address: before, all 400 welcomed and kept; now 8
    anonymous ones (more must log in), and logged-in ones up to 64."""

    async def body() -> tuple[int, int]:
        player = Client(room.http, room.ws, "Crowd")
        assert (await player.register()).status_code == 200
        await player.http.aclose()

        async def one(token: str | None) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            try:
                ws = await connect(room.ws, additional_headers=headers, open_timeout=10)
            except (InvalidStatus, OSError, TimeoutError):
                return None
            try:
                await asyncio.wait_for(ws.recv(), 5.0)  # the welcome, or the close
                await asyncio.sleep(1.0)  # closed past the cap just after the welcome
                await asyncio.wait_for(ws.ping(), 2.0)
            except (ConnectionClosed, TimeoutError):
                await ws.close()
                return None
            return ws

        async def crowd(n: int, token: str | None) -> int:
            alive = []
            for start in range(0, n, 50):  # in batches: the HTTP cap is not what is measured
                batch = await asyncio.gather(*(one(token) for _ in range(start, min(n, start + 50))))
                alive += [ws for ws in batch if ws is not None]
            count = len(alive)
            await asyncio.gather(*(ws.close() for ws in alive))
            return count

        anonymous = await crowd(400, None)
        await asyncio.sleep(0.5)
        logged_in = await crowd(100, player.token)
        return anonymous, logged_in

    anonymous, logged_in = asyncio.run(asyncio.wait_for(body(), 120.0))
    print(f"WebSockets from one address: {anonymous} of 400 anonymous kept, {logged_in} of 100 logged in")
    assert anonymous == 8
    assert logged_in == 64


# ---------------------------------------------------------------------- item 6: logins


def login(http: httpx.Client, name: str, password: str, forwarded: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return http.post("/api/login", json={"name": name, "password": password}, headers=headers)


def test_forwarded_for_from_an_untrusted_peer_does_not_reset_the_limit(room: Room) -> None:
    """30 wrong guesses, each claiming a new X-Forwarded-For: before, all 30 answered
    401 (never limited); now the sixth is 429, as without the header."""
    with httpx.Client(base_url=room.http) as http:
        assert http.post("/api/register", json={"name": "victim", "password": PASSWORD}).status_code == 200
        codes = [login(http, "victim", f"guess-{i:04d}", f"10.1.{i}.1").status_code for i in range(30)]
    print(f"X-Forwarded-For guesses: {codes.count(401)} answered 401, {codes.count(429)} 429")
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes


def test_guesses_through_a_trusted_proxy_lock_the_account_not_its_owner(proxied: Room) -> None:
    """Behind a trusted proxy each client is its forwarded address: guesses at one
    account from 30 addresses are limited per account (10 in 10 minutes), while its owner,
    from the address he logged in from before, still logs in; a correct password from an
    unknown address waits like the guesses."""
    owner = "192.0.2.7"
    with httpx.Client(base_url=proxied.http) as http:
        r = http.post("/api/register", json={"name": "target", "password": PASSWORD},
                      headers={"X-Forwarded-For": owner})
        assert r.status_code == 200
        codes = [
            login(http, "target", f"guess-{i:04d}", f"198.51.100.{i + 1}").status_code for i in range(30)
        ]
        stranger = login(http, "target", PASSWORD, "198.51.100.200").status_code
        r = login(http, "target", PASSWORD, owner)
        print(f"guesses from 30 addresses: {codes.count(401)} answered 401, {codes.count(429)} 429; "
              f"the right password from a stranger {stranger}, from the owner {r.status_code}")
        assert codes[:10] == [401] * 10 and set(codes[10:]) == {429}, codes
        assert stranger == 429
        assert r.status_code == 200, r.text  # the owner is not locked out
        # a client cannot claim the owner's address past the proxy: the proxy appends the
        # address it saw, the rightmost untrusted one counts
        assert login(http, "target", PASSWORD, f"{owner}, 198.51.100.201").status_code == 429


def test_guesses_at_once_are_counted_before_they_are_checked(room: Room) -> None:
    """60 wrong logins at once from one address: each was checked against the limit
    before any had failed, so before the fix all 60 reached the password hash (none got
    429); now an attempt counts as it begins, and only the first 5 are tried."""

    async def main() -> list[int]:
        async with httpx.AsyncClient(base_url=room.http, timeout=60,
                                     limits=httpx.Limits(max_connections=60)) as http:
            r = await http.post("/api/register", json={"name": "rushed", "password": PASSWORD})
            assert r.status_code == 200
            body = {"name": "rushed", "password": "wrong-password"}
            answers = await asyncio.gather(*(http.post("/api/login", json=body) for _ in range(60)))
            return [a.status_code for a in answers]

    codes = asyncio.run(main())
    print(f"60 guesses at once: {codes.count(401)} answered 401, {codes.count(429)} 429")
    assert codes.count(401) == 5 and codes.count(429) == 55, codes


def test_registrations_at_once_are_counted_before_they_are_made(tmp_path: Path,
                                                                 database: tuple[str, str | None]) -> None:
    """40 registrations at once from one address: before the fix, 40 accounts (the limit
    is 10 an hour); now 10."""
    for room in serving(Room(tmp_path, database, registrations=10)):
        async def main(url: str) -> list[int]:
            async with httpx.AsyncClient(base_url=url, timeout=60,
                                         limits=httpx.Limits(max_connections=40)) as http:
                answers = await asyncio.gather(*(
                    http.post("/api/register", json={"name": f"rush{i}", "password": PASSWORD})
                    for i in range(40)
                ))
                return [a.status_code for a in answers]

        codes = asyncio.run(main(room.http))
        print(f"40 registrations at once: {codes.count(200)} accepted")
        assert codes.count(200) == 10 and codes.count(429) == 30, codes


def test_a_client_cannot_pad_forwarded_for_to_choose_its_address() -> None:
    """Behind a trusted proxy the rightmost address not a proxy's is the client: before,
    only the header's first 1,024 characters were read, so a client that padded its own
    entries pushed the proxy's out and picked the address it was limited as."""
    proxies = Proxies(["10.0.0.1"])
    for k in range(3):  # the 1,024th character ends an address of the client's choosing
        padded = "1.1.1.1, " * 113 + f"5.6.7.{k}"
        assert len(padded) == 1024
        assert proxies.client("10.0.0.1", f"{padded}, 203.0.113.9") == "203.0.113.9"
    assert proxies.client("10.0.0.1", "203.0.113.9, 10.0.0.1") == "203.0.113.9"  # a chain of proxies
    assert proxies.client("198.51.100.1", "203.0.113.9") == "198.51.100.1"  # not a proxy: not believed
    # IPv6 clients are limited by their /64, the allocation one customer gets
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::7") == "2001:db8:1:2::/64"
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1" and address_key("192.0.2.1") == "192.0.2.1"
    count = AddressCount()
    assert count.add("2001:db8::1", 1) and not count.add("2001:db8::2", 1)


def test_unknown_names_take_as_long_as_known_ones(proxied: Room) -> None:
    """A wrong password for a name that exists and for one that does not: before, the
    unknown name was answered without a hash (medians 4.3 ms against 32.6 ms, a ratio of
    7.5); now both verify a hash, medians within 1.5 of each other."""
    known, unknown = [], []
    with httpx.Client(base_url=proxied.http) as http:
        for i in range(12):
            r = http.post("/api/register", json={"name": f"known{i}", "password": PASSWORD},
                          headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})
            assert r.status_code == 200, r.text
        login(http, "warm-up", "wrong-password", "203.0.113.99")
        for i in range(12):
            for name, times in ((f"known{i}", known), (f"nobody{i}", unknown)):
                start = time.perf_counter()
                r = login(http, name, "wrong-password", f"198.18.{i}.{len(times) + 1}")
                times.append(time.perf_counter() - start)
                assert r.status_code == 401, r.text
    a, b = statistics.median(known), statistics.median(unknown)
    ratio = max(a, b) / min(a, b)
    print(f"login timing: known {a * 1000:.1f} ms, unknown {b * 1000:.1f} ms, ratio {ratio:.2f}")
    assert max(a, b) / min(a, b) < 1.5


def test_common_passwords_are_refused(room: Room) -> None:
    """Before: ``password123`` and ``qwertyuiop`` registered."""
    with httpx.Client(base_url=room.http) as http:
        for password in ("password123", "QwertyUiop", "12345678", "iloveyou1"):
            r = http.post("/api/register", json={"name": "weak", "password": password})
            assert r.status_code == 400 and r.json()["error"]["code"] == "common_password", (password, r.text)
        r = http.post("/api/register", json={"name": "weak", "password": "weak-but-mine"})
        assert r.status_code == 200


def test_the_limiter_tables_are_bounded() -> None:
    """A failed login per new name (or address) adds a key: stale keys go, and at most
    ``max_keys`` are kept however many come."""
    limit = RateLimit(5, 60.0, max_keys=1000)
    for i in range(20_000):
        limit.hit(f"name{i}", now=float(i) / 100)
    assert len(limit) <= 1000
    limit.hit("late", now=10_000.0)  # everything else is past the window now
    assert len(limit) == 1
    for _ in range(5):
        limit.hit("late", now=10_000.0)
    assert limit.blocked("late", now=10_001.0) and not limit.blocked("late", now=10_061.0)


# ---------------------------------------------------------------------- item 7: registrations


def test_registrations_per_address_are_limited(tmp_path: Path, database: tuple[str, str | None]) -> None:
    """20 accounts from one address in a second: before, all 20 got their 10,000 chips;
    now the room's default of 10 an hour holds."""
    for room in serving(Room(tmp_path, database, registrations=10)):
        with httpx.Client(base_url=room.http) as http:
            codes = [
                http.post("/api/register", json={"name": f"farm{i}", "password": PASSWORD}).status_code
                for i in range(20)
            ]
        print(f"registrations: {codes.count(200)} of 20 accepted")
        assert codes == [200] * 10 + [429] * 10, codes


# ---------------------------------------------------------------------- item 8: sessions


def test_logout_closes_the_sessions_connections(room: Room) -> None:
    """Before: after ``POST /api/logout`` the open WebSocket still sat at a table with
    that token. Now it is closed (1008) at the logout; ``?all=1`` ends every session of
    the account and closes their connections."""

    async def body() -> None:
        first = Client(room.http, room.ws, "Leaver")
        assert (await first.register()).status_code == 200
        await first.connect()
        r = await first.http.post("/api/logout", headers={"Authorization": f"Bearer {first.token}"}, json={})
        assert r.status_code == 200
        deadline = time.monotonic() + 5.0
        while first.connected and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not first.connected, "the connection outlived its session"
        await first.aclose()

        one, two = Client(room.http, room.ws, "Leaver"), Client(room.http, room.ws, "Leaver")
        for c in (one, two):
            assert (await c.login()).status_code == 200
            await c.connect()
        bearer = {"Authorization": f"Bearer {one.token}"}
        r = await one.http.post("/api/logout?all=1", headers=bearer, json={})
        assert r.status_code == 200
        deadline = time.monotonic() + 5.0
        while (one.connected or two.connected) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not one.connected and not two.connected
        me = await two.http.get("/api/me", headers={"Authorization": f"Bearer {two.token}"})
        assert me.status_code == 401
        for c in (one, two):
            await c.aclose()

    asyncio.run(asyncio.wait_for(body(), 60.0))


def test_sessions_expire_when_idle_and_are_purged(room: Room) -> None:
    """Before: a token unused for eight days still worked (only the 30-day expiry), and
    expired rows stayed for ever. Now a week unused ends it, and expired rows go at
    start."""
    with httpx.Client(base_url=room.http) as http:
        r = http.post("/api/register", json={"name": "Idler", "password": PASSWORD})
        token = r.json()["token"]
        http.cookies.clear()
        assert http.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200

    async def age(seconds: float, dead: int) -> None:
        store = Store(*room.database)
        try:
            now = time.time()
            async with store.engine.begin() as conn:
                await conn.execute(update(sessions).values(last_seen=now - seconds))
                account = await conn.scalar(sql_select(sessions.c.account_id).limit(1))
                await conn.execute(insert(sessions), [
                    {"token_hash": token_hash(f"dead-{i}"), "account_id": account,
                     "created_at": now - 40 * 86400, "expires_at": now - 10 * 86400,
                     "last_seen": now - 10 * 86400} for i in range(dead)
                ])
        finally:
            await store.close()

    async def count() -> int:
        store = Store(*room.database)
        try:
            async with store.engine.connect() as conn:
                return len((await conn.execute(sql_select(sessions.c.token_hash))).all())
        finally:
            await store.close()

    asyncio.run(age(8 * 86400, 50))
    with httpx.Client(base_url=room.http) as http:
        assert http.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert asyncio.run(count()) == 51
    room.stop()
    room.start()
    assert asyncio.run(count()) == 0  # the idle one and the 50 expired, purged at start


# ---------------------------------------------------------------------- item 9: the smaller holes


def test_deeply_nested_json_is_a_bad_request(room: Room) -> None:
    """Before: 500, two tracebacks in the log and the keep-alive connection dropped. Now
    400 ``bad_json`` on the same connection, and nothing logged."""
    with httpx.Client(base_url=room.http) as http:
        for body in (b"[" * 4000, b'{"":' * 1000 + b"1"):  # past the parser's depth, unclosed
            r = http.post("/api/login", content=body, headers={"Content-Type": "application/json"})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json", r.text
            assert r.headers.get("connection") != "close"
        assert http.get("/healthz").status_code == 200
    assert not room.errors()


def test_cookie_posts_must_be_same_site_json(room: Room) -> None:
    """Before: a cookie-authenticated ``POST /api/topup`` was taken with any content type
    and no Origin (a form on any site could send it). Now: JSON from this room's pages
    only; a bot's bearer token needs neither."""
    with httpx.Client(base_url=room.http) as http:
        r = http.post("/api/register", json={"name": "Browser", "password": PASSWORD})
        token = r.json()["token"]
        assert http.cookies.get("pokerroom_session") == token
        host = room.http.removeprefix("http://")
        cases = [
            ({"Content-Type": "text/plain"}, 415, "bad_content_type"),
            ({"Content-Type": "application/x-www-form-urlencoded", "Origin": room.http}, 415,
             "bad_content_type"),
            ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "cross_site"),
            ({"Content-Type": "application/json"}, 403, "cross_site"),
            ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "cross_site"),
            ({"Content-Type": "application/json", "Origin": f"http://{host}"}, 409, "not_broke"),
            ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}, 409, "not_broke"),
        ]
        for headers, status, code in cases:
            r = http.post("/api/topup", content=b"{}", headers=headers)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), (headers, r.text)
        http.cookies.clear()
        r = http.post("/api/topup", headers={"Authorization": f"Bearer {token}"})  # a bot: no body at all
        assert (r.status_code, r.json()["error"]["code"]) == (409, "not_broke")


def test_pages_forbid_framing_and_foreign_scripts(room: Room) -> None:
    """Before: no Content-Security-Policy and no anti-framing header on the client's
    pages."""
    with httpx.Client(base_url=room.http) as http:
        for path in ("/", "/js/main.js", "/api/tables"):
            r = http.get(path)
            assert r.status_code == 200
            assert r.headers["x-frame-options"] == "DENY"
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
            assert "unsafe-inline" not in csp


def test_the_cookie_is_secure_over_https(tmp_path: Path, database: tuple[str, str | None]) -> None:
    """Before: no ``Secure`` on the session cookie whatever the scheme. Now with
    ``--https``, or when a trusted proxy says ``X-Forwarded-Proto: https``; not over
    plain HTTP (a browser would drop it), and an untrusted peer cannot claim HTTPS."""
    for room in serving(Room(tmp_path, database, "--trusted-proxy", "127.0.0.1")):
        with httpx.Client(base_url=room.http) as http:
            plain = http.post("/api/register", json={"name": "plain", "password": PASSWORD})
            tls = http.post("/api/register", json={"name": "tls", "password": PASSWORD},
                            headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in plain.headers["set-cookie"].lower()
        assert "; secure" in tls.headers["set-cookie"].lower()
    other = tmp_path / "https"
    other.mkdir()
    for room in serving(Room(other, database, "--https")):
        with httpx.Client(base_url=room.http) as http:
            r = http.post("/api/register", json={"name": "https", "password": PASSWORD})
        assert "; secure" in r.headers["set-cookie"].lower()
    third = tmp_path / "untrusted"
    third.mkdir()
    for room in serving(Room(third, database)):
        with httpx.Client(base_url=room.http) as http:
            r = http.post("/api/register", json={"name": "claims", "password": PASSWORD},
                          headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in r.headers["set-cookie"].lower()


# ---------------------------------------------------------------------- item 4: the gateway's side


def test_a_replay_is_charged_to_the_connections_message_budget() -> None:
    """What ws.py hands the runner as ``Connection.charge``: a replay's cost comes off the
    bucket, below zero, so the next messages are refused until it has refilled (at most a
    minute of debt)."""
    bucket = TokenBucket(rate=20.0, burst=40.0)
    assert bucket.take()
    bucket.charge(1500 / 50)  # a full log of 1,500 events replayed
    bucket.charge(1500 / 50)
    assert bucket.tokens < 0 and not bucket.take()
    bucket.charge(10**9)
    assert bucket.tokens >= -60.0 * 20.0

"""The seam with uvicorn's private classes (gateway/ws.py subclasses its httptools HTTP
protocol and is instantiated as its ``ws`` protocol class): the versions are pinned in
pyproject.toml, and what the subclass relies on is checked here, so an upgrade that moves any
of it fails this file first, not a player's connection. The behaviour through the seam (the
upgrade handed over, bytes after the handshake kept, bounds on heads and slow requests) is
tested against a real server in test_ws_endpoint.py and test_attack_http.py."""

from __future__ import annotations

import inspect
import re
import tomllib
from importlib import metadata
from pathlib import Path

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from pokerroom.gateway.ws import RoomSocketBase, http_protocol

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _pins() -> dict[str, str]:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    pins = {}
    for dep in deps:
        m = re.fullmatch(r"([A-Za-z0-9_-]+)(?:\[[^\]]*\])?==([0-9.]+)", dep.split(";")[0].strip())
        if m:
            pins[m.group(1).lower()] = m.group(2)
    return pins


def test_uvicorn_and_httptools_are_pinned_and_installed_at_the_pins() -> None:
    pins = _pins()
    assert {"uvicorn", "httptools"} <= set(pins), f"pyproject must pin uvicorn and httptools exactly: {pins}"
    for name in ("uvicorn", "httptools"):
        installed = metadata.version(name)
        assert installed == pins[name], f"{name} {installed} is not the pinned {pins[name]}"


def test_the_methods_the_subclass_overrides_exist_with_the_same_signatures() -> None:
    subclass = http_protocol()
    assert issubclass(subclass, HttpToolsProtocol)
    overridden = {name for name, value in vars(subclass).items()
                  if callable(value) and not name.startswith("_")}
    # uvicorn's hooks the room changes; any new override must be added here on purpose
    assert overridden == {"connection_made", "connection_lost", "data_received", "on_message_begin",
                          "on_headers_complete", "on_message_complete", "handle_websocket_upgrade"}
    for name in overridden:
        theirs = inspect.signature(getattr(HttpToolsProtocol, name))
        ours = inspect.signature(getattr(subclass, name))
        assert list(theirs.parameters) == list(ours.parameters), f"{name}: uvicorn {theirs}, ours {ours}"


def test_what_the_subclass_reads_of_uvicorn_is_still_there() -> None:
    """The attributes the subclass and the upgrade read: uvicorn sets them in __init__ or
    connection_made, and the upgrade builds the ws protocol with these keyword arguments."""
    source = inspect.getsource(HttpToolsProtocol)
    for attribute in ("self.parser", "self.transport", "self.client", "self.cycle", "self.loop",
                      "self.ws_protocol_class"):
        assert attribute in source, f"uvicorn's HttpToolsProtocol no longer has {attribute}"
    upgrade = inspect.getsource(HttpToolsProtocol.handle_websocket_upgrade)
    assert "self.transport.set_protocol(protocol)" in upgrade
    for keyword in ("config=", "server_state=", "app_state="):
        assert keyword in upgrade, f"uvicorn builds the ws protocol without {keyword}"
    ours = inspect.signature(RoomSocketBase.__init__)
    assert {"config", "server_state", "app_state"} <= set(ours.parameters)
    # the cycle's flags _refuse sets to stop a response in flight
    cycle = inspect.getsource(RequestResponseCycle.__init__)
    assert "self.disconnected" in cycle and "self.keep_alive" in cycle

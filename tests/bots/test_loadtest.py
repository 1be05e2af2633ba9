"""A short load test through a real room server: the report's figures are sane."""

from __future__ import annotations

from pokerroom.bots.loadtest import _percentile, room_toml, run
from pokerroom.server.rooms import load_room


def test_room_toml_is_a_valid_room(tmp_path):
    path = tmp_path / "load.toml"
    path.write_text(room_toml(3, 4))
    room = load_room(str(path))
    assert len(room.tables) == 3 and room.pause == 0


def test_percentile():
    values = [float(v) for v in range(1, 101)]
    assert _percentile(values, 0.5) in (50.0, 51.0)
    assert _percentile(values, 0.99) == 99.0
    assert _percentile([], 0.99) == 0.0


def test_short_load_test_reports_sane_numbers():
    report = run(3, 4, think=0.05, duration=5, warmup=1, progress=False, seed=1)
    assert report.connections == 12 and report.seated == 12
    assert report.hands > 0 and report.actions > 0
    assert report.hands_per_s > 0 and report.actions_per_s > 0
    assert report.latency_samples > 0
    assert 0 < report.p50_ms <= report.p99_ms <= report.max_ms
    assert report.rss_before_kib and report.rss_after_kib
    assert report.kib_per_connection is not None and report.kib_per_connection > 0
    assert report.failed_bots == 0
    assert set(report.errors) <= {"seat_taken"}
    assert report.to_json()["actions"] == report.actions

"""The cluster tests' room: three workers and two gateways (tests/cluster/helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.helpers import Cluster


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(tmp_path)
    try:
        c.start(workers=3, gateways=2)
        yield c
    finally:
        c.stop()
    assert not c.errors(), c.errors()

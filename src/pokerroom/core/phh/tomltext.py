"""The TOML of PHH files, read fast.

``loads`` returns what ``tomllib.loads`` returns, or raises its ``TOMLDecodeError``.
"""

from __future__ import annotations

import tomllib
from typing import Any

TOMLDecodeError = tomllib.TOMLDecodeError


def loads(text: str) -> dict[str, Any]:
    return tomllib.loads(text)

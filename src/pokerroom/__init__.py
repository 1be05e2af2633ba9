"""pokerroom: an online poker room with an exact, fast rules engine.

The public evaluator API:

>>> import pokerroom
>>> pokerroom.evaluate(['As', 'Ks', 'Qs', 'Js', 'Ts', '2c', '3d'])
7462
>>> pokerroom.describe(pokerroom.evaluate('9h8d7c6s5h2c2d'))
'Straight, nine high'
>>> pokerroom.best_five('AsAd7c7h2s9d3c')
(Card('As'), Card('Ad'), Card('7h'), Card('7c'), Card('9d'))

``evaluate_batch`` (numpy arrays of card indices) and ``equity`` are imported on first use.
"""

from __future__ import annotations

from typing import Any

from pokerroom.core.cards import Card, CardError, format_cards, parse_cards
from pokerroom.core.evaluator import (
    CATEGORY_NAMES,
    EvaluatorError,
    best_five,
    category,
    describe,
    evaluate,
)

__all__ = [
    "CATEGORY_NAMES",
    "Card",
    "CardError",
    "EvaluatorError",
    "best_five",
    "category",
    "describe",
    "equity",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "parse_cards",
]


def __getattr__(name: str) -> Any:
    """numpy-backed parts load on first use."""
    if name == "evaluate_batch":
        from pokerroom.core.batch import evaluate_batch

        return evaluate_batch
    if name == "equity":
        from pokerroom.core.equity import equity

        return equity
    raise AttributeError(f"module 'pokerroom' has no attribute {name!r}")

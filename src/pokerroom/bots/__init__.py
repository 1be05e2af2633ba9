"""Bots: strategies (random, calling station, solid) and a WebSocket client that plays
through the same protocol as people."""

from pokerroom.bots.client import Bot, Tally, crowd
from pokerroom.bots.strategies import STRATEGIES, Strategy, Turn, strategy

__all__ = ["STRATEGIES", "Bot", "Strategy", "Tally", "Turn", "crowd", "strategy"]

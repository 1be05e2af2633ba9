"""pokerroom: an online poker room with an exact, fast rules engine."""

from pokerroom.core.cards import Card, CardError, format_cards, parse_cards

__all__ = ["Card", "CardError", "format_cards", "parse_cards"]

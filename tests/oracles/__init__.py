"""What the tests measure the room against: PokerKit as an oracle, and where the real hands are."""

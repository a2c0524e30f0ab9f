"""Private messages (one conversation per pair of people)."""

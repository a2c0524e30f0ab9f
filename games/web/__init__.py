"""The presentation layer of games: pages, forms, presenters, the board, the
screen regions and the pushes' rendering (docs/architecture.md)."""

"""The printed board: 40 squares as flat tuples indexed by square number.

Everything here is immutable data read on the hot path, so it is stored as
tuples rather than objects (see ``docs/engine.md``).
"""

from __future__ import annotations

from typing import Final

# Square kinds.
GO: Final = 0
SITE: Final = 1
RAILROAD: Final = 2
UTILITY: Final = 3
CHANCE: Final = 4
CHEST: Final = 5
INCOME_TAX: Final = 6
LUXURY_TAX: Final = 7
GO_TO_JAIL: Final = 8
JAIL: Final = 9
FREE_PARKING: Final = 10

JAIL_SQUARE: Final = 10
GO_TO_JAIL_SQUARE: Final = 30
NUM_SQUARES: Final = 40

# (kind, group, price, house_cost, rents, us_name, uk_name)
# rents for sites: (base, 1 house, 2, 3, 4, hotel); group -1 for non-property.
_SQUARES: Final[tuple[tuple[int, int, int, int, tuple[int, ...], str, str], ...]] = (
    (GO, -1, 0, 0, (), "GO", "GO"),
    (SITE, 0, 60, 50, (2, 10, 30, 90, 160, 250), "Mediterranean Avenue", "Old Kent Road"),
    (CHEST, -1, 0, 0, (), "Community Chest", "Community Chest"),
    (SITE, 0, 60, 50, (4, 20, 60, 180, 320, 450), "Baltic Avenue", "Whitechapel Road"),
    (INCOME_TAX, -1, 0, 0, (), "Income Tax", "Income Tax"),
    (RAILROAD, 8, 200, 0, (), "Reading Railroad", "Kings Cross Station"),
    (SITE, 1, 100, 50, (6, 30, 90, 270, 400, 550), "Oriental Avenue", "The Angel, Islington"),
    (CHANCE, -1, 0, 0, (), "Chance", "Chance"),
    (SITE, 1, 100, 50, (6, 30, 90, 270, 400, 550), "Vermont Avenue", "Euston Road"),
    (SITE, 1, 120, 50, (8, 40, 100, 300, 450, 600), "Connecticut Avenue", "Pentonville Road"),
    (JAIL, -1, 0, 0, (), "Jail / Just Visiting", "Jail / Just Visiting"),
    (SITE, 2, 140, 100, (10, 50, 150, 450, 625, 750), "St. Charles Place", "Pall Mall"),
    (UTILITY, 9, 150, 0, (), "Electric Company", "Electric Company"),
    (SITE, 2, 140, 100, (10, 50, 150, 450, 625, 750), "States Avenue", "Whitehall"),
    (SITE, 2, 160, 100, (12, 60, 180, 500, 700, 900), "Virginia Avenue", "Northumberland Avenue"),
    (RAILROAD, 8, 200, 0, (), "Pennsylvania Railroad", "Marylebone Station"),
    (SITE, 3, 180, 100, (14, 70, 200, 550, 750, 950), "St. James Place", "Bow Street"),
    (CHEST, -1, 0, 0, (), "Community Chest", "Community Chest"),
    (SITE, 3, 180, 100, (14, 70, 200, 550, 750, 950), "Tennessee Avenue", "Marlborough Street"),
    (SITE, 3, 200, 100, (16, 80, 220, 600, 800, 1000), "New York Avenue", "Vine Street"),
    (FREE_PARKING, -1, 0, 0, (), "Free Parking", "Free Parking"),
    (SITE, 4, 220, 150, (18, 90, 250, 700, 875, 1050), "Kentucky Avenue", "The Strand"),
    (CHANCE, -1, 0, 0, (), "Chance", "Chance"),
    (SITE, 4, 220, 150, (18, 90, 250, 700, 875, 1050), "Indiana Avenue", "Fleet Street"),
    (SITE, 4, 240, 150, (20, 100, 300, 750, 925, 1100), "Illinois Avenue", "Trafalgar Square"),
    (RAILROAD, 8, 200, 0, (), "B. & O. Railroad", "Fenchurch St. Station"),
    (SITE, 5, 260, 150, (22, 110, 330, 800, 975, 1150), "Atlantic Avenue", "Leicester Square"),
    (SITE, 5, 260, 150, (22, 110, 330, 800, 975, 1150), "Ventnor Avenue", "Coventry Street"),
    (UTILITY, 9, 150, 0, (), "Water Works", "Water Works"),
    (SITE, 5, 280, 150, (24, 120, 360, 850, 1025, 1200), "Marvin Gardens", "Piccadilly"),
    (GO_TO_JAIL, -1, 0, 0, (), "Go To Jail", "Go To Jail"),
    (SITE, 6, 300, 200, (26, 130, 390, 900, 1100, 1275), "Pacific Avenue", "Regent Street"),
    (SITE, 6, 300, 200, (26, 130, 390, 900, 1100, 1275), "North Carolina Avenue", "Oxford Street"),
    (CHEST, -1, 0, 0, (), "Community Chest", "Community Chest"),
    (SITE, 6, 320, 200, (28, 150, 450, 1000, 1200, 1400), "Pennsylvania Avenue", "Bond Street"),
    (RAILROAD, 8, 200, 0, (), "Short Line", "Liverpool Street Station"),
    (CHANCE, -1, 0, 0, (), "Chance", "Chance"),
    (SITE, 7, 350, 200, (35, 175, 500, 1100, 1300, 1500), "Park Place", "Park Lane"),
    (LUXURY_TAX, -1, 0, 0, (), "Luxury Tax", "Super Tax"),
    (SITE, 7, 400, 200, (50, 200, 600, 1400, 1700, 2000), "Boardwalk", "Mayfair"),
)

KIND: Final[tuple[int, ...]] = tuple(s[0] for s in _SQUARES)
GROUP: Final[tuple[int, ...]] = tuple(s[1] for s in _SQUARES)
PRICE: Final[tuple[int, ...]] = tuple(s[2] for s in _SQUARES)
HOUSE_COST: Final[tuple[int, ...]] = tuple(s[3] for s in _SQUARES)
RENT: Final[tuple[tuple[int, ...], ...]] = tuple(s[4] for s in _SQUARES)
US_NAMES: Final[tuple[str, ...]] = tuple(s[5] for s in _SQUARES)
UK_NAMES: Final[tuple[str, ...]] = tuple(s[6] for s in _SQUARES)
MORTGAGE: Final[tuple[int, ...]] = tuple(p // 2 for p in PRICE)

IS_PROPERTY: Final[tuple[bool, ...]] = tuple(k in (SITE, RAILROAD, UTILITY) for k in KIND)
PROPERTIES: Final[tuple[int, ...]] = tuple(i for i in range(NUM_SQUARES) if IS_PROPERTY[i])
SITES: Final[tuple[int, ...]] = tuple(i for i in range(NUM_SQUARES) if KIND[i] == SITE)

US_GROUP_NAMES: Final = (
    "brown", "light blue", "pink", "orange", "red", "yellow", "green", "dark blue",
    "railroads", "utilities",
)  # fmt: skip
UK_GROUP_NAMES: Final = (*US_GROUP_NAMES[:8], "stations", "utilities")
NUM_GROUPS: Final = 10
BUILDABLE_GROUPS: Final = range(8)
GROUP_MEMBERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i in range(NUM_SQUARES) if GROUP[i] == g) for g in range(NUM_GROUPS)
)
RAILROADS: Final[tuple[int, ...]] = GROUP_MEMBERS[8]
UTILITIES: Final[tuple[int, ...]] = GROUP_MEMBERS[9]


def _nearest(targets: tuple[int, ...]) -> tuple[int, ...]:
    """For each square, the next target square going forward (wrapping past GO)."""
    out = []
    for sq in range(NUM_SQUARES):
        out.append(min(targets, key=lambda t: (t - sq - 1) % NUM_SQUARES))
    return tuple(out)


NEAREST_RAILROAD: Final[tuple[int, ...]] = _nearest(RAILROADS)
NEAREST_UTILITY: Final[tuple[int, ...]] = _nearest(UTILITIES)

# Railroad rent by how many the owner has (1-4), and the utilities' dice
# multipliers by how many (1-2): printed on the deeds, not in the table above.
RAILROAD_RENTS: Final[tuple[int, ...]] = (25, 50, 100, 200)
UTILITY_MULTIPLIERS: Final[tuple[int, ...]] = (4, 10)

TOTAL_HOUSES: Final = 32
TOTAL_HOTELS: Final = 12
HOTEL: Final = 5  # value of ``State.bld[sq]`` meaning "a hotel stands here"


def ten_percent(amount: int) -> int:
    """10% interest on a mortgage: THE rounding rule of the engine.

    The books print "plus 10%"; Utility mortgages (75) give 7.5, so we round
    up to a whole unit of money, the usual house practice. Every 10% in the
    engine (lifting, transfers of mortgaged property, the Income Tax 10%
    option) goes through this one function.
    """
    return (amount + 9) // 10


def square_name(sq: int, uk: bool) -> str:
    return (UK_NAMES if uk else US_NAMES)[sq]

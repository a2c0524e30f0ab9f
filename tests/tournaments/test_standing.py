"""Standings and tie-breaks (tournaments.standing) on hand-made results."""

from __future__ import annotations

from tournaments.standing import Outcome, rank


def table(round_no: int, seats: list[tuple[int, float, int, int]]) -> list[Outcome]:
    """One table: (player, points, place, net worth) for each seat."""
    who = [s[0] for s in seats]
    return [
        Outcome(
            player=p,
            round_no=round_no,
            points=pts,
            place=place,
            net_worth=worth,
            opponents=tuple(x for x in who if x != p),
        )
        for p, pts, place, worth in seats
    ]


def order(players: list[int], outcomes: list[Outcome]) -> list[int]:
    return [r.player for r in rank(players, outcomes)]


def test_points_come_first() -> None:
    res = table(1, [(1, 6, 1, 100), (2, 5, 2, 90), (3, 3, 3, 80), (4, 1, 4, 0)])
    rows = rank([4, 3, 2, 1], res)
    assert [r.player for r in rows] == [1, 2, 3, 4]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].points == 6 and rows[0].games == 1 and rows[0].byes == 0
    assert rows[0].places == (1, 0, 0, 0) and rows[3].places == (0, 0, 0, 1)


def test_equal_points_go_by_the_sum_of_opponents_points() -> None:
    # Round 1: 1 beats 2 and 5 beats 6 (tables of two). Round 2: 1 loses
    # to 3, 5 to 6 again. 1 and 5 have 6 points each; 5 met 6 (7 points)
    # twice, a meeting counting each time.
    res = (
        table(1, [(1, 6, 1, 0), (2, 1, 2, 0)])
        + table(1, [(5, 6, 1, 0), (6, 1, 2, 0)])
        + table(2, [(3, 6, 1, 0), (1, 0, 2, 0)])
        + table(2, [(6, 6, 1, 0), (5, 0, 2, 0)])
    )
    rows = {r.player: r for r in rank([1, 2, 3, 5, 6], res)}
    assert rows[1].points == rows[5].points == 6
    assert rows[1].opponents_points == 1 + 6
    assert rows[5].opponents_points == 7 + 7
    assert order([1, 5], res) == [5, 1]


def test_equal_points_and_opponents_go_by_more_firsts_then_more_seconds() -> None:
    # Two separate two-round events with one field each, mirrored so that
    # points and opponents' points tie: 1 has a first and a last, 2 two seconds.
    points = {1: 6.0, 2: 3.0, 3: 0.0}
    res = [
        Outcome(1, 1, points[1], 1, 0, (10,)),
        Outcome(1, 2, points[3], 3, 0, (11,)),
        Outcome(2, 1, points[2], 2, 0, (10,)),
        Outcome(2, 2, points[2], 2, 0, (11,)),
        Outcome(10, 1, 1, 1, 0, (1, 2)),
        Outcome(11, 1, 1, 1, 0, (1, 2)),
    ]
    rows = {r.player: r for r in rank([1, 2], res)}
    assert rows[1].points == rows[2].points
    assert rows[1].opponents_points == rows[2].opponents_points
    assert order([2, 1], res) == [1, 2]
    assert rows[1].places == (1, 0, 1) and rows[2].places == (0, 2, 0)


def test_then_net_worth_then_the_player_id() -> None:
    res = [
        Outcome(1, 1, 4, 2, 500, (9,)),
        Outcome(2, 1, 4, 2, 900, (9,)),
        Outcome(3, 1, 4, 2, 500, (9,)),
        Outcome(9, 1, 6, 1, 0, (1, 2, 3)),
    ]
    assert order([3, 1, 2], res) == [2, 1, 3]


def test_a_bye_counts_its_points_but_no_game_and_no_opponents() -> None:
    res = [*table(1, [(1, 6, 1, 10), (2, 1, 2, 5)]), Outcome(3, 1, 3.5)]
    rows = {r.player: r for r in rank([1, 2, 3], res)}
    assert rows[3].points == 3.5 and rows[3].byes == 1 and rows[3].games == 0
    assert rows[3].opponents_points == 0
    assert order([1, 2, 3], res) == [1, 3, 2]


def test_players_without_results_rank_last_by_id_and_outsiders_still_count() -> None:
    # 7 has withdrawn (not listed) but their points count for 1's opponents.
    res = table(1, [(7, 6, 1, 0), (1, 1, 2, 0)])
    rows = rank([5, 1, 4], res)
    assert [r.player for r in rows] == [1, 4, 5]
    assert rows[0].opponents_points == 6
    assert rows[1].places == (0, 0)

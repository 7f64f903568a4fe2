"""bench.joker_dual: a Lagrangian root bound for joker positions (issue 12's worst case).

Its figures in docs/performance.md §3 rest on two properties: it never falls below the best
play (weak duality, whatever the prices), and on the slowest carousel hand of seed 2718's
games it proves the best play where the kernel's own root bound is two cards above it.
"""

from bench.joker_dual import STEPS, main, root_bounds, tuned_at_root
from solver import Position, solve

# seed 2718's slowest carousel position (bench.joker_games): best 19, the kernel's bound 21
SEED_2718_CAROUSEL = (
    "10S 10H 10D | 2S 2D 2C | 4S 4D 4C | 9S 9H 9D | 3H 4H 5H 6H 7H | AS AH AC | 2S 2H 2D | "
    "3S 3H 3D | 4S 4H 4C | 6H 6D 6C | 8S 8D 8C | 5S 6S 7S | 7H 8H 9H 10H JH QH KH | "
    "3D 4D 5D 6D 7D | 7D 8D 9D 10D JD QD / 8C 3S 9C 5C 10S QH 9C 5C AD KS JC * 7S JD 3C 5H "
    "AS 2H 5D KS QS / carousel")
SMALL = (
    "5H 6H 7H | 9S 9D 9C / 8H * 9H 4C / carousel",
    "QS QH QD | 2C 3C 4C / KS * 5C AD 7D / carousel",
    "3S 4S 5S | 8D 8C 8H | JS JH JD / 6S 7S * 10D 10H 2H / carousel",
)


def test_the_bound_closes_the_gap_the_kernel_leaves():
    position = Position.parse(SEED_2718_CAROUSEL)
    best = solve(position).score
    assert best == 19
    assert root_bounds(position, best) == [(21, 19)]


def test_prices_tuned_once_for_the_whole_root_prove_it_too():
    steps, bound, _ = tuned_at_root(Position.parse(SEED_2718_CAROUSEL), 19)
    assert 19 <= bound < 20
    assert 1 < steps <= STEPS


def test_the_bound_is_never_below_the_best_play():
    for text in SMALL:
        position = Position.parse(text)
        best = solve(position).score
        for own, dual in root_bounds(position, best):
            assert best <= dual <= own, text


def test_the_script_bounds_the_positions_with_the_most_nodes(capsys):
    assert main(["--seed", "2718", "--games", "1", "--slowest", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all("nodes  best" in line and "Lagrangian" in line for line in lines[:2])
    nodes = [int(line.split()[0]) for line in lines[:2]]
    assert nodes == sorted(nodes, reverse=True)
    assert lines[2].endswith("with the most nodes have a gap at the root; "
                             "the Lagrangian bound closes " + lines[2].split()[-1])

"""Tournaments: seat rotation, reproducible results, intervals and ratings, the CLI."""

import json
import subprocess
import sys

import pytest

from bots.arena.tournament import lineup, run_tournament, wilson


def test_lineup_rotates_every_seat():
    seats = [lineup(["a", "b"], 2, g) for g in range(4)]
    assert seats == [["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]
    assert lineup(["a", "b", "c", "d"], 2, 1) == ["b", "c"]
    assert lineup(["a", "b"], 4, 0) == ["a", "b", "a", "b"]


def test_wilson_interval():
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
    assert wilson(0, 0) == (0.0, 1.0)


def test_results_are_reproducible_and_independent_of_workers():
    one = run_tournament("guadalupe", ["random", "greedy"], 12, 2, seed=3, workers=1)
    two = run_tournament("guadalupe", ["random", "greedy"], 12, 2, seed=3, workers=2)
    strip = [{k: v for k, v in row.items() if not k.startswith("move_ms")} for row in one["bots"]]
    assert strip == [{k: v for k, v in row.items() if not k.startswith("move_ms")}
                     for row in two["bots"]]
    assert one["games"] == 12 and sum(row["games"] for row in one["bots"]) == 24
    greedy = next(row for row in one["bots"] if row["name"] == "greedy")
    assert greedy["ci95"][0] <= greedy["win_rate"] <= greedy["ci95"][1]


def test_greedy_beats_random_and_rates_higher():
    summary = run_tournament("machiavelli", ["random", "greedy"], 30, 2, seed=5)
    rows = {row["name"]: row for row in summary["bots"]}
    assert rows["greedy"]["win_rate"] > rows["random"]["win_rate"]
    assert rows["greedy"]["rating"] > rows["random"]["rating"]


def test_tournament_cli_json_schema():
    done = subprocess.run([sys.executable, "-m", "bots.app.cli", "tournament", "--variant", "bga",
                           "--bots", "beginner,greedy", "--games", "4", "--seed", "2", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) >= {"games", "seed", "bots"} and data["games"] == 4 and data["seed"] == 2
    for row in data["bots"]:
        assert set(row) == {"name", "games", "wins", "win_rate", "ci95", "mean_score", "rating",
                            "move_ms_median", "move_ms_max", "move_work_median",
                            "move_work_max"}
    assert len(data["records_sha256"]) == 64


@pytest.mark.parametrize("args, token", [
    (["tournament", "--bots", "greedy,oracle"], "'oracle'"),
    (["tournament", "--bots", "greedy", "--players", "9"], "players"),
    (["tournament", "--bots", "greedy", "--budget", "-1"], "--budget"),
])
def test_tournament_cli_errors(args, token):
    done = subprocess.run([sys.executable, "-m", "bots.app.cli", *args], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and token in done.stderr


def test_tournament_on_a_local_ray_instance():
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    local = run_tournament("guadalupe", ["random", "greedy"], 6, 2, seed=3, workers=1)
    remote = run_tournament("guadalupe", ["random", "greedy"], 6, 2, seed=3,
                            ray_address="local")
    assert [r["wins"] for r in remote["bots"]] == [r["wins"] for r in local["bots"]]


def test_a_tournament_worker_freezes_what_its_warm_up_loaded():
    """After its first game a worker's loaded code and tables sit in the permanent generation
    (``bots.arena.heap``), so no later move pays a full collection over them."""
    script = ("import gc\n"
              "from bots.arena.tournament import play_one\n"
              "assert gc.get_freeze_count() == 0\n"
              "play_one('machiavelli', ['greedy', 'beginner'], 2, 5, 0)\n"
              "print(gc.get_freeze_count())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=600)
    assert int(done.stdout.strip()) > 10_000

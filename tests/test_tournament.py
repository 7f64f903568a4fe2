"""Tournaments: seat rotation, reproducible results, intervals and ratings, the CLI."""

import importlib.util
import json
import socket
import subprocess
import sys

import pytest

from bots.app.cli import main
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


def test_an_unreachable_ray_address_fails_at_once():
    """Ray would retry for minutes, printing warnings; the command refuses it after a TCP
    connect (no Ray needed for the check)."""
    with socket.socket() as closed:  # bound, never listening: a connection is refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "bots.app.cli", "tournament", "--bots",
                               "random,greedy", "--games", "2", "--ray", f"127.0.0.1:{port}"],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    assert done.stderr == (f"machiavelli: error: cannot reach the Ray cluster at "
                           f"127.0.0.1:{port}: Connection refused\n")


@pytest.mark.parametrize("address", ["", "nonsense", "host:port", "host:0", "ray://:10001"])
def test_an_empty_or_malformed_ray_address_is_refused(capsys, address):
    assert main(["tournament", "--bots", "greedy", "--games", "1", "--ray", address]) == 2
    err = capsys.readouterr().err
    assert err == (f"machiavelli: error: bad --ray address {address!r}: "
                   "give HOST:PORT, ray://HOST:PORT, auto or local\n")


@pytest.mark.parametrize(("missing", "scheme", "message"), [
    ("ray", "", "--ray needs Ray: pip install 'machiavelli-engine[ray]'"),
    ("grpc", "ray://", "a ray:// address needs the Ray Client: pip install 'ray[client]'"),
])
def test_a_reachable_ray_address_without_the_package_it_needs_asks_for_it(
        capsys, monkeypatch, missing, scheme, message):
    if missing == "grpc":  # the Ray Client's own test: Ray itself must be there
        pytest.importorskip("ray", reason="the [ray] extra is not installed")
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest:
                        None if name == missing else real_find_spec(name, *rest))
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        address = f"{scheme}127.0.0.1:{listening.getsockname()[1]}"
        assert main(["tournament", "--bots", "greedy", "--games", "1", "--ray", address]) == 2
    assert capsys.readouterr().err == f"machiavelli: error: {message}\n"


def test_the_cli_still_starts_a_local_ray_instance():
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    done = subprocess.run([sys.executable, "-m", "bots.app.cli", "tournament", "--bots",
                           "random,greedy", "--games", "2", "--ray", "local", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["games"] == 2

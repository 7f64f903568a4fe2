"""The command line: output, JSON contract, and one-line errors with status 2."""

import json
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from importlib import metadata
from pathlib import Path

import pytest

import bots
from bots.app.cli import build_parser, main


def run(*args):
    return subprocess.run([sys.executable, "-m", "bots.app.cli", *args], capture_output=True,
                          text=True, timeout=120)


def test_solve_json_is_one_object():
    done = run("solve", "--table", "5C 6C 7C 8C", "--hand", "8D 8H", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"played", "table", "score", "optimal", "backend", "elapsed_ms"}
    assert data["score"] == 2 and data["optimal"] is True
    assert sorted(map(sorted, data["table"])) == [["5C", "6C", "7C"], ["8C", "8D", "8H"]]


def test_solve_text_output(capsys):
    assert main(["solve", "--table", "5C 6C 7C 8C", "--hand", "8D 8H 2S",
                 "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "Play 2 cards: 8H 8D" in out and "* 8H 8D 8C" in out


def test_solve_cpsat_points_and_nothing_to_play(capsys):
    assert main(["solve", "--table", "6C 7C 8C", "--hand", "8D 8H", "--backend", "cpsat",
                 "--objective", "points", "--color", "never"]) == 0
    assert "No card can be played" in capsys.readouterr().out


def test_solve_a_whole_position_text_or_json():
    text = run("solve", "--position", "5C 6C 7C 8C / 8D 8H / machiavelli", "--json")
    data = json.dumps({"table": [["5C", "6C", "7C", "8C"]], "hand": ["8D", "8H"]})
    as_json = run("solve", "--position", data, "--json")
    assert text.returncode == as_json.returncode == 0
    assert json.loads(text.stdout)["score"] == json.loads(as_json.stdout)["score"] == 2


def test_demo_runs(capsys):
    assert main(["demo", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert out.count("==") >= 6 and "Play 6 cards" in out


@pytest.mark.parametrize("args, token", [
    (["solve", "--table", "5C 6C 7C", "--hand", "8X"], "'8X'"),
    (["solve", "--table", "5C 6C 7C", "--hand", "8D 8D 8D"], "8D"),
    (["solve", "--table", "5C 6C", "--hand", "8D"], "'5C 6C'"),
    (["solve", "--variant", "rummy", "--table", "5C 6C 7C", "--hand", "8D"], "'rummy'"),
    (["solve", "--variant", "machiavelli:jokers=2", "--table", "-", "--hand", "8D"], "'jokers'"),
    (["solve", "--variant", "machiavelli:deal=1", "--table", "-", "--hand", "8D"], "deal"),
    (["solve", "--table", "5H 6H 7H", "--hand", "* * * *", "--variant", "tahiti", "--backend",
      "kernel"], "kernel"),
    (["solve", "--table", "5C 6C 7C"], "--hand"),
    (["solve", "--table", "-", "--hand", "8D", "--unopened"], "unopened"),
    (["solve", "--position", "5C 6C 7C 8C"], "table / hand"),
    (["solve", "--position", '{"table": [["5C"]], "hand": ["8D"]'], "broken JSON"),
    (["solve", "--table", "-", "--hand", "8D", "--objective", "fun"], "fun"),
    (["fly"], "fly"),
])
def test_bad_input_is_one_line_on_stderr_with_status_2(args, token):
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and token in lines[0] and "Traceback" not in done.stderr


def test_selfplay_writes_records_that_replay(tmp_path):
    path = tmp_path / "games.jsonl"
    done = run("selfplay", "--variant", "guadalupe", "--players", "3", "--bots", "random,greedy",
               "--games", "3", "--seed", "4", "--record", str(path), "--check")
    assert done.returncode == 0, done.stderr
    assert "3 games of guadalupe" in done.stdout
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["variant"] == "guadalupe" for line in lines)
    ok = run("replay", str(path))
    assert ok.returncode == 0 and "all consistent" in ok.stdout
    record = json.loads(lines[1])
    record["actions"][0]["player"] = (record["actions"][0]["player"] + 1) % 3
    lines[1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    bad = run("replay", str(path))
    assert bad.returncode == 1 and bad.stdout.startswith("record 2: hand 1, action 1")


@pytest.mark.parametrize("args, token", [
    (["selfplay", "--bots", "wizard"], "'wizard'"),
    (["selfplay", "--variant", "tahiti", "--players", "7"], "2-5 players"),
    (["selfplay", "--games", "0"], "--games"),
    (["replay", "/nonexistent/games.jsonl"], "cannot read"),
])
def test_selfplay_and_replay_errors(args, token):
    done = run(*args)
    assert done.returncode == 2 and token in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_replay_broken_json(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"variant": "machiavelli"\n')
    done = run("replay", str(path))
    assert done.returncode == 2 and "broken JSON" in done.stderr


@pytest.mark.parametrize("variant, words", [
    ("machiavelli:helpers=4,deal=15", "helpers=4 and deal=15 contradict"),
    ("machiavelli:name=x", "unknown option 'name'"),
    ("machiavelli:deal=99,deal=13", "option 'deal' given twice"),
    ("machiavelli:deal=" + "9" * 10_000, "deal="),
])
@pytest.mark.parametrize("command", [["solve", "--table", "-", "--hand", "8D"],
                                     ["selfplay", "--games", "1"]])
def test_conflicting_unknown_and_repeated_options_exit_2_with_one_short_line(
        capsys, variant, words, command):
    assert main([*command, "--variant", variant]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and len(lines[0]) < 300, lines
    assert captured.out == ""


# -- fuzzing pass: files, ports, Ray addresses, options a position or saved game overrides --


def _error_line(done) -> str:
    """The one error line of a finished command (status 2, nothing on stdout)."""
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("target, reason", [
    ("missing/dir/x.jsonl", "No such file or directory"),
    (".", "Is a directory"),
    ("/dev/full", "No space left on device"),  # opens, but the records cannot be written
])
def test_selfplay_record_that_cannot_be_written_is_one_line_with_status_2(
        capsys, tmp_path, target, reason):
    if target == "/dev/full" and not Path(target).exists():
        pytest.skip("no /dev/full here")
    path = target if target.startswith("/") else str(tmp_path / target)
    assert main(["selfplay", "--games", "2", "--bots", "random", "--record", path]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"machiavelli: error: cannot write {path}: {reason}\n"
    assert captured.out == ""


def test_an_empty_file_name_is_refused(capsys):
    assert main(["selfplay", "--games", "1", "--bots", "random", "--record", ""]) == 2
    assert capsys.readouterr().err == "machiavelli: error: --record needs a file name, not ''\n"
    done = subprocess.run([sys.executable, "-m", "bots.app.cli", "play", "--resume", ""],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert _error_line(done) == "machiavelli: error: --resume needs a file name, not ''"


def _serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bots.app.cli", "serve", *args],
                          capture_output=True, text=True, timeout=120)


def test_serve_on_a_port_in_use_says_so_without_serving():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = _serve("--port", str(port))
    assert "serving on" not in done.stdout
    assert _error_line(done) == \
        f"machiavelli: error: cannot listen on 127.0.0.1:{port}: Address already in use"


@pytest.mark.parametrize("host, reason", [
    ("192.0.2.1", "Cannot assign requested address"),  # TEST-NET-1: no machine's own address
    ("a" * 64, "label too long"),  # no name has a 64-letter label
])
def test_serve_on_an_address_it_cannot_listen_on(host, reason):
    done = _serve("--host", host, "--port", "8765")
    assert "serving on" not in done.stdout
    line = _error_line(done)
    assert line.startswith(f"machiavelli: error: cannot listen on {host}:8765: ") and reason in line


def test_serve_still_serves_on_the_sockets_it_bound():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "bots.app.cli", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "serving on http://127.0.0.1:" in server.stdout.readline()
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, server.stderr.read()
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)


POSITION = "- / QC KC AC / machiavelli"


@pytest.mark.parametrize("command", ["solve", "hint", "analyze"])
@pytest.mark.parametrize("extra, named", [
    (["--variant", "machiavelli:ace=low"], "--variant"),
    (["--variant", "bogus"], "--variant"),
    (["--variant", "machiavelli"], "--variant"),  # given, even as the default
    (["--unopened"], "--unopened"),
    (["--table", "-", "--unopened"], "--table and --unopened"),
])
def test_options_a_position_gives_are_refused_beside_it(capsys, command, extra, named):
    assert main([command, "--position", POSITION, *extra]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"machiavelli: error: give either --position or {named}, "
                                   "not both (")
    assert captured.err.count("\n") == 1 and captured.out == ""


def test_the_variant_still_applies_to_table_and_hand(capsys):
    """Without --position, --variant keeps its meaning and its default (ace high)."""
    for variant, played in (("machiavelli", "Play 3 cards"), ("machiavelli:ace=low", "No card")):
        assert main(["solve", "--variant", variant, "--table", "-", "--hand", "QC KC AC",
                     "--color", "never"]) == 0
        assert capsys.readouterr().out.startswith(played)
    assert main(["solve", "--table", "-", "--hand", "QC KC AC", "--color", "never"]) == 0
    assert capsys.readouterr().out.startswith("Play 3 cards")
    assert main(["solve", "--position", "- / QC KC AC / machiavelli:ace=low", "--color",
                 "never"]) == 0
    assert capsys.readouterr().out.startswith("No card")


@pytest.mark.parametrize("extra", [["--seed", "3"], ["--variant", "carousel"],
                                   ["--bots", "greedy"], ["--humans", "2"], ["--budget", "1"]])
def test_options_a_saved_game_sets_are_refused_beside_resume(capsys, tmp_path, extra):
    from bots.app.session import PERSON, Session

    saved = tmp_path / "game.json"
    Session("machiavelli", [PERSON, "greedy"], 11, None).save(saved)
    assert main(["play", "--resume", str(saved), *extra]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"machiavelli: error: give either --resume or {extra[0]}, "
                                   "not both (a saved game has its own ")
    assert captured.err.count("\n") == 1 and captured.out == ""


def test_version_is_the_installed_package_version(capsys, monkeypatch):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"machiavelli {metadata.version('machiavelli-engine')}\n"

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    monkeypatch.setattr(bots, "__version__", "9.8.7", raising=False)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == "machiavelli 9.8.7\n"


def test_help_examples_read_as_typed_and_parse():
    """Each example of ``machiavelli --help`` is a command line as typed: a long one goes on
    with a backslash, and none keeps the blanks of the source's indentation."""
    parser = build_parser()
    assert parser.epilog in parser.format_help()  # printed as written
    lines = [line.strip() for line in parser.epilog.splitlines() if line.strip()]
    assert lines and all("  " not in line for line in lines), lines
    commands = "\n".join(lines).replace("\\\n", "").splitlines()
    assert len(commands) >= 8 and all(command.startswith("machiavelli ") for command in commands)
    for command in commands:
        parser.parse_args(shlex.split(command)[1:])

#!/usr/bin/env bash
# CI: the package as users get it. Builds the sdist and, from it, the wheel; installs the wheel
# (not editable) into a fresh venv outside the checkout, its dependencies from the package
# registry; then, from a directory outside the checkout, runs every command once: solve, hint,
# selfplay (+ replay), tournament with every level, engine, learn. Prints one line per check
# and a closing count; exits non-zero if any check fails.
#
#   bash .ci/wheel_smoke.sh            (PYTHON=python3.12 to build and install with another)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
unset PYTHONPATH
started=$SECONDS
passed=0
failed=0

# check NAME COMMAND...: run COMMAND (output to $work/NAME.log); count it, show the log on
# failure. (errexit is off in a command followed by ||: the check functions chain with &&.)
check() {
    local name="$1"
    shift
    local status=0
    "$@" >"$work/$name.log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok    $name"
    else
        failed=$((failed + 1))
        echo "FAIL  $name (exit $status): $*"
        sed 's/^/      | /' "$work/$name.log" | tail -n 40
    fi
}

# no_traceback LOG: the command's output holds no Python traceback.
no_traceback() { ! grep -q "Traceback (most recent call last)" "$1"; }

echo "wheel smoke: building from $repo"
"$python" -m build --version >/dev/null 2>&1 || "$python" -m pip install -q build
"$python" -m build --outdir "$work/dist" "$repo" >"$work/build.log" 2>&1 \
    || { tail -n 40 "$work/build.log"; echo "wheel smoke: the build failed"; exit 1; }
wheel=("$work"/dist/*.whl)
echo "wheel smoke: installing ${wheel[0]##*/} into a fresh venv"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "${wheel[0]}" >"$work/install.log" 2>&1 \
    || { tail -n 40 "$work/install.log"; echo "wheel smoke: installing the wheel failed"; exit 1; }
export PATH="$work/venv/bin:$PATH"
py="$work/venv/bin/python"
mkdir "$work/outside"
cd "$work/outside"

installed() {  # every package imports from the venv, not the checkout, with its py.typed and data
    "$py" - "$work/venv" <<'EOF'
import importlib, pathlib, sys
venv = pathlib.Path(sys.argv[1]).resolve()
for name in ("solver", "bots", "bots.players"):
    module = importlib.import_module(name)
    path = pathlib.Path(module.__file__).resolve()
    assert venv in path.parents, f"{name} imported from {path}, not from the wheel"
for name in ("solver", "bots"):
    marker = pathlib.Path(importlib.import_module(name).__file__).with_name("py.typed")
    assert marker.exists(), f"{name} has no py.typed"
from solver import automaton_flagged  # tahiti's prebuilt automaton tables ship too
assert "5_3_delta" in automaton_flagged._shipped(), "solver/data/flagged_runs.npz missing"
print("imports from", venv)
EOF
}

solve_json() {
    machiavelli solve --table "5C 6C 7C 8C | QH QD QS" --hand "8D 8H KS" --json >solve.json &&
    "$py" -c '
import json
data = json.load(open("solve.json"))
assert data["score"] == 2 and data["optimal"] is True, data
assert sorted(data["played"]) == ["8D", "8H"], data'
}

hint_text() {
    machiavelli hint --table "5C 6C 7C 8C | 9H 9D 9S" --hand "8D 8H KS" --color never >hint.txt &&
    grep -q "play 8H 8D" hint.txt && grep -q "take 8C from group 1" hint.txt
}

selfplay_and_replay() {
    machiavelli selfplay --bots random,greedy --games 2 --seed 1 --record games.jsonl &&
    machiavelli replay games.jsonl | tee replay.txt &&
    grep -q "all consistent" replay.txt
}

tournament_every_level() {
    machiavelli tournament --bots random,beginner,greedy,planner,expert --games 5 --seed 1 \
        --budget 0.05 --workers 2 --json >tournament.json &&
    "$py" -c '
import json
data = json.load(open("tournament.json"))
played = {bot["name"]: bot["games"] for bot in data["bots"]}
assert data["games"] == 5, data
assert all(played.get(level, 0) > 0 for level in
           ("random", "beginner", "greedy", "planner", "expert")), played'
}

engine_session() {
    printf '%s\n' \
        '{"cmd": "hello", "id": 1}' \
        '{"cmd": "new_game", "seats": ["client", "greedy"], "seed": 3}' \
        '{"cmd": "go", "level": "expert", "budget": 0.1}' \
        '{"cmd": "move", "action": {"type": "draw"}}' \
        '{"cmd": "hint"}' \
        '{"cmd": "quit"}' | machiavelli engine >engine.jsonl &&
    "$py" -c '
import json
answers = [json.loads(line) for line in open("engine.jsonl")]
assert len(answers) == 6, answers
for answer in answers:
    assert isinstance(answer, dict) and "error" not in answer and answer["ok"] is True, answer
assert answers[0]["name"] == "machiavelli-engine" and answers[0]["id"] == 1
assert answers[3]["events"][0]["action"]["type"] == "draw", answers[3]'
}

learn_starts() {
    { printf 'quit\n' | machiavelli learn --color never &&
        machiavelli learn --color never </dev/null; } 2>&1 | tee learn.txt &&
    grep -q "^Learn machiavelli" learn.txt && no_traceback learn.txt
}

check installed installed
check solve solve_json
check hint hint_text
check selfplay selfplay_and_replay
check tournament tournament_every_level
check engine engine_session
check learn learn_starts
echo "wheel smoke: $passed passed, $failed failed ($((SECONDS - started)) s)"
[ "$failed" -eq 0 ]

"""The project's own fuzzing campaign: seeded, generated bad input against every surface.

    python -m bench.fuzz --inputs 100000 --seed 1

Four targets, each fed mutations of valid inputs (card texts, tables, variants and options,
numbers, JSON nesting, random bytes, tampered game records), all drawn from one seeded
``random.Random``, so the same seed gives the same inputs:

- ``cli``: ``bots.app.cli.main(argv)`` in process, stdout and stderr captured. A traceback, an
  exit status other than 0 or 2, or an error of more than one line is a fault.
- ``engine``: a live ``machiavelli engine`` child process. Every line must get exactly one
  JSON answer (an "internal error" answer is a fault), and the process must survive.
- ``replay``: ``bots.referee.record.replay`` on records tampered with in ways that must be refused
  (a seed, a card of a deal, an action, a result, a type); an accepted one is counted.
- ``api``: the public Python functions with arguments of every type; only the documented
  ``ValueError`` subclasses of ``solver.errors`` may escape.

The summary line counts inputs, tracebacks (every fault above but engine deaths), engine
deaths, accepted tamperings (all must be 0) and the time taken. The first faults are printed
with their input (clipped) so they can be replayed.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import select
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import PositionError, clip

SHARES = {"cli": 0.56, "api": 0.26, "replay": 0.12, "engine": 0.06}
RECORD_VARIANTS = ("machiavelli", "guadalupe", "carousel", "bga", "vatican", "tahiti",
                   "machiavelli:rounds=2")
ANSWER_TIMEOUT = 60.0  # seconds an engine answer may take before the engine counts as hung
SHOWN_FAULTS = 20


# -- generated values ---------------------------------------------------------------------
JUNK_NUMBERS = ["0", "-1", "-0", "1e400", "-1e400", "inf", "-inf", "nan", "NaN", "", " ",
                "x", "1.5", "9" * 40, "-" + "9" * 40, str(2**63), str(2**64), "0x10", "0_1",
                "٣", "1e-400", "2**63", "None"]
JUNK_TOKENS = ["10X", "1H", "ZZ", "*", "**", "*7H", "*Z", "AS♠", "♠", "A♠", "10♥️", "|", "-",
               "", " ", "\t", "\n", "11H", "0S", "KK", "A", "S", "\x00", "é", "𝟙H", "*\u200b",
               "x" * 300, "AS,2S", "10h", "th", "qc", "*ts"]
VARIANT_NAMES = ("machiavelli", "bga", "manipulation", "shanghai", "guadalupe", "carousel",
                 "vatican", "tahiti")
OPTION_KEYS = ("ace", "deal", "helpers", "opening", "rounds", "incomplete", "draw_first",
               "target", "forced_check", "name", "options", "cls", "text", "x", "", "ACE",
               "draw-first")
OPTION_VALUES = ("low", "high", "both", "0", "1", "3", "6", "12", "13", "15", "36", "none",
                 "penalty", "reset", "true", "false", "yes", "hint", "trust", "99", "-1", "",
                 "1e400", "nan", "x" * 200)


@dataclass
class Pools:
    """Valid material the mutations start from: positions (texts) and finished records."""

    positions: list[tuple[str, str, str, bool]]
    records: list[dict]


def build_pools(seed: int, variants: tuple[str, ...] = RECORD_VARIANTS) -> Pools:
    """Play one seeded game per variant (greedy against random) and keep its record and the
    positions met on the way."""
    from bots.arena.selfplay import play_game
    from bots.referee.observation import observe
    from solver.variants import Variant

    positions: list[tuple[str, str, str, bool]] = []
    records = []
    for number, name in enumerate(variants):
        seen: list = []

        def grab(game, seen=seen) -> None:
            if not game.over:
                seen.append(observe(game, game.current_player, None).position())

        game = play_game(Variant.parse(name), ["greedy", "random"], 2, seed + number,
                         on_action=grab)
        records.append(json.loads(json.dumps(game.record())))
        for position in seen[::4]:
            table = " | ".join(" ".join(map(str, group)) for group in position.table) or "-"
            hand = " ".join(map(str, position.hand)) or "-"
            positions.append((table, hand, str(position.variant), position.opened))
    return Pools(positions, records)


class Generator:
    """Seeded mutations of valid inputs."""

    def __init__(self, rng: random.Random, pools: Pools) -> None:
        self.rng = rng
        self.pools = pools

    def number(self, valid: list[str]) -> str:
        return self.rng.choice(valid) if self.rng.random() < 0.4 else self.rng.choice(
            JUNK_NUMBERS)

    def cards(self, text: str) -> str:
        """A card text, mutated: junk tokens, duplicates, separators, truncation."""
        rng = self.rng
        tokens = text.split()
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            kind = rng.randrange(6)
            at = rng.randrange(len(tokens) + 1)
            if kind == 0:
                tokens.insert(at, rng.choice(JUNK_TOKENS))
            elif kind == 1 and tokens:
                tokens.insert(at, rng.choice(tokens))
            elif kind == 2 and tokens:
                del tokens[rng.randrange(len(tokens))]
            elif kind == 3:
                tokens.insert(at, rng.choice(("|", "/", ",", "||", "-")))
            elif kind == 4 and tokens:
                i = rng.randrange(len(tokens))
                tokens[i] = tokens[i][:-1] or "*"
            else:
                tokens = tokens * rng.choice((1, 2, 3))
        if rng.random() < 0.01:
            tokens = ["5C"] * rng.choice((1000, 20_000))
        return " ".join(tokens)

    def variant(self, base: str) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return base
        name = rng.choice(VARIANT_NAMES + ("", "chess", "MACHIAVELLI", " tahiti ", "x" * 500))
        options = [f"{rng.choice(OPTION_KEYS)}={rng.choice(OPTION_VALUES)}"
                   for _ in range(rng.choice((0, 1, 2, 3)))]
        if rng.random() < 0.1:
            options.append(rng.choice(("=", "ace", ",,", "ace==low", "deal=3,deal=99")))
        return name + (":" + ",".join(options) if options else "")

    def position(self) -> tuple[str, str, str, bool]:
        table, hand, variant, opened = self.rng.choice(self.pools.positions)
        if self.rng.random() < 0.6:
            table = self.cards(table)
        if self.rng.random() < 0.6:
            hand = self.cards(hand)
        if self.rng.random() < 0.2:
            table, hand = self._tahiti_jokers(table, hand)
            variant = "tahiti"
        return table, hand, self.variant(variant), opened

    def _tahiti_jokers(self, table: str, hand: str) -> tuple[str, str]:
        """A group holding two named jokers (tahiti allows one)."""
        rank = self.rng.choice(("3", "7", "10", "Q"))
        return f"*{rank}H {rank}C *{rank}D" + (f" | {table}" if table != "-" else ""), hand

    def nested(self) -> list:
        """A list nested a few hundred levels deep (a Python value)."""
        value: Any = "5C"
        for _ in range(self.rng.choice((10, 300, 900))):
            value = [value]
        return value

    def nested_text(self) -> str:
        """JSON text nested up to 100,000 levels deep."""
        depth = self.rng.choice((10, 1000, 5000, 100_000))
        return "[" * depth + '"5C"' + "]" * depth

    def junk_value(self) -> Any:
        """A JSON-able value of a random type."""
        return self.rng.choice([
            None, True, False, 0, -1, 1.5, 10**30, -(10**30), float("inf"), float("nan"), "",
            "x" * self.rng.choice((1, 100, 10_000)), [], [None], {}, {"a": [1]}, ["5C", ["6C"]],
            "5C 6C 7C", 1e308, 2**63, -2**63,
        ])


# -- the four targets ------------------------------------------------------------------------
@dataclass
class Tally:
    inputs: Counter = field(default_factory=Counter)
    tracebacks: int = 0
    engine_deaths: int = 0
    accepted_tamperings: int = 0
    faults: dict[str, str] = field(default_factory=dict)
    """The first input of each kind of fault, with what went wrong."""
    kinds: Counter = field(default_factory=Counter)
    """Faults by their last line (an exception and its message), to see the distinct ones."""
    slowest: float = 0.0
    elapsed: float = 0.0

    def fault(self, kind: str, target: str, what: Any, detail: str) -> None:
        if kind == "death":
            self.engine_deaths += 1
        elif kind == "tampering":
            self.accepted_tamperings += 1
        else:
            self.tracebacks += 1
        last = detail.strip().splitlines()[-1] if detail.strip() else kind
        signature = clip(f"[{target}] {kind}: {last}", 160)
        self.kinds[signature] += 1
        if signature not in self.faults and len(self.faults) < SHOWN_FAULTS:
            self.faults[signature] = f"{clip(repr(what), 600)} -> {clip(detail, 600)}"


def cli_argv(gen: Generator) -> list[str]:
    """A command line: a solver command on a mutated position, or a bad number anywhere."""
    rng = gen.rng
    table, hand, variant, opened = gen.position()
    command = rng.choices(["solve", "hint", "analyze", "numbers", "position", "misc"],
                          [40, 20, 2, 20, 10, 5])[0]
    if command in ("solve", "hint", "analyze"):
        argv = [command, "--table", table, "--hand", hand, "--variant", variant]
        argv += [] if opened else ["--unopened"]
        if command == "solve" and rng.random() < 0.5:
            argv += ["--time-limit", gen.number(["0.01", "0.05", "1"])]
            argv += ["--backend", rng.choice(("auto", "kernel", "cpsat", "gpu"))]
        if command == "analyze":
            argv += ["--unseen", rng.choice(("4C 2S", "*", "ZZ", "9C")),
                     "--max-plays", gen.number(["1", "3"])]
        return argv + rng.choice(([], ["--json"], ["--objective", "points"], ["--short"]))
    if command == "position":
        text = rng.choice((f"{table} / {hand} / {variant}",
                           json.dumps({"table": table, "hand": hand}),
                           '{"table": ' + gen.nested_text() + ', "hand": "8C"}',
                           gen.nested_text(),
                           f"{table} / {hand} / {variant} / {rng.choice(('no', 'unopened'))}"))
        return ["solve", "--position", text]
    if command == "numbers":
        return bad_number_argv(gen)
    return rng.choice((["demo", "--color", "x"], ["nope"], [], ["solve"], ["--help", "x"],
                       ["solve", "--table", table], ["replay", "/nonexistent/x.jsonl"]))


def bad_number_argv(gen: Generator) -> list[str]:
    """A numeric option of some command given a mutated number (kept cheap when valid: one
    game, one worker, a short budget)."""
    rng = gen.rng
    junk = rng.choice(JUNK_NUMBERS)
    choices = [
        ["solve", "--table", "5C 6C 7C", "--hand", "8C", "--time-limit", junk],
        ["analyze", "--table", "5C 6C 7C", "--hand", "8C", "--rollouts", junk],
        ["analyze", "--table", "5C 6C 7C", "--hand", "8C", "--max-plays", junk],
        ["analyze", "--table", "5C 6C 7C", "--hand", "8C", "--rollouts", "1", "--seed", junk],
        ["analyze", "--table", "5C 6C 7C", "--hand", "8C", "--rollouts", "1", "--opponents",
         rng.choice((junk, "0", "-3", "1," * 50, "200", "9,12"))],
        ["selfplay", "--games", junk, "--bots", "random"],
        ["selfplay", "--games", "1", "--seed", junk, "--bots", "random"],
        ["selfplay", "--games", "1", "--players", junk, "--bots", "random"],
        ["tournament", "--bots", "random", "--games", junk],
        ["tournament", "--bots", "random", "--games", "1", "--workers", junk],
        ["tournament", "--bots", "random", "--games", "1", "--seed", junk],
        ["tournament", "--bots", "random", "--games", "1", "--players", junk],
        ["tournament", "--bots", "random,expert", "--games", "1", "--budget", junk],
        ["play", "--seed", junk], ["play", "--budget", junk], ["play", "--humans", junk],
        ["learn", "--seed", junk],
    ]
    return rng.choice(choices)


def run_cli(argv: list[str], tally: Tally) -> None:
    from bots.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _stdin(io.StringIO("")):
            status = main(argv)
    except SystemExit as stop:  # --help exits 0 through argparse
        status = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - the fault being looked for
        tally.fault("traceback", "cli", argv, traceback.format_exc(limit=-3))
        return
    text = err.getvalue()
    if status not in (0, 2) or "Traceback" in text or (status == 2 and (
            text.count("\n") != 1 or len(text) > 400)):
        tally.fault("traceback", "cli", argv, f"status {status}: {text}")


@contextlib.contextmanager
def _stdin(replacement):
    saved = sys.stdin
    sys.stdin = replacement
    try:
        yield
    finally:
        sys.stdin = saved


def api_call(gen: Generator) -> tuple[str, Callable[[], Any]]:
    """A public function with generated arguments (a description and the call)."""
    from bots.players import make_bot
    from solver import Position, Variant, analyze, hint, solve
    from solver.hint import hint_position

    rng = gen.rng
    table, hand, variant, opened = gen.position()
    odd = gen.junk_value
    pick = rng.randrange(9)  # 6: analyze (the slowest); 7 and 8: hint
    args: tuple = ()
    if pick == 0:
        args = (rng.choice((table, odd(), gen.nested())), rng.choice((hand, odd())), variant)
        kwargs = {"opened": rng.choice((opened, "no", 1, None)),
                  "time_limit": rng.choice((None, 0.05, odd())),
                  "workers": rng.choice((1, odd())), "objective": rng.choice(("cards", odd()))}
        return f"solve{args}{kwargs}", lambda: solve(*args, **kwargs)
    if pick == 1:
        args = (table, hand, rng.choice((variant, odd())))
        return f"hint{args}", lambda: hint(*args, opened=rng.choice((opened, odd())))
    if pick == 2:
        return f"Position.parse({table}/{hand}/{variant})", lambda: Position.parse(
            rng.choice((f"{table} / {hand} / {variant}", odd())))
    if pick == 3:
        data = {"table": rng.choice((table, odd())), "hand": hand, "variant": variant,
                "opened": rng.choice((opened, odd())), "options": rng.choice(({}, odd()))}
        return f"Position.from_json({data})", lambda: Position.from_json(data)
    if pick == 4:
        return f"Variant.parse({variant!r})", lambda: Variant.parse(rng.choice((variant, odd())))
    if pick == 5:
        level = rng.choice(("random", "greedy", "beginner", "planner", "expert", odd()))
        seed, budget = rng.choice((0, 7, odd())), rng.choice((None, 0.05, odd()))
        return f"make_bot{level, seed, budget}", lambda: make_bot(level, seed, budget)
    position = _valid_position(table, hand, variant, opened)
    if position is None:
        return f"solve{table, hand}", lambda: solve(table, hand, variant, opened=opened)
    if pick == 6:
        plays = rng.choice((1, 3, 0, odd()))
        unseen = rng.choices((None, ["4C", "9S"], odd()), (1, 10, 10))[0]
        return f"analyze({position}, {unseen}, {plays})", lambda: analyze(
            position, unseen=unseen, max_plays=plays)
    objective, limit = rng.choice(("cards", "points", odd())), rng.choice((None, 0.05, odd()))
    return f"hint_position({position}, {objective}, {limit})", lambda: hint_position(
        position, objective, limit)


def _valid_position(table, hand, variant, opened):
    from solver import Position

    try:
        return Position.make(table, hand, variant, opened)
    except Exception:  # noqa: BLE001 - only picks inputs; the faults are counted elsewhere
        return None


def run_api(gen: Generator, tally: Tally) -> None:
    described, call = api_call(gen)
    try:
        call()
    except PositionError:
        pass
    except BaseException:  # noqa: BLE001 - the fault being looked for
        tally.fault("traceback", "api", described, traceback.format_exc(limit=-3))


# -- tampered records ------------------------------------------------------------------------
def tamper(gen: Generator, record: dict) -> tuple[str, dict]:
    """A copy of ``record`` changed so that it must be refused (what changed, the copy)."""
    rng = gen.rng
    bad = copy.deepcopy(record)
    hands = bad.get("hands") or [{"deal": bad["deal"], "actions": bad["actions"]}]
    number = rng.randrange(len(hands))
    hand = hands[number]
    kind = rng.randrange(9)
    if kind == 0:
        bad["seed"] = rng.choice((bad["seed"] + rng.randint(1, 10**6), gen.junk_value(),
                                  str(bad["seed"]), float(bad["seed"]) + 0.5))
        if bad["seed"] == record["seed"]:
            bad["seed"] = None
    elif kind == 1:
        _swap_deal_cards(rng, hand["deal"])
    elif kind == 2 and hand["actions"]:
        _change_action(gen, hand["actions"])
    elif kind == 3:
        del hand["actions"][rng.randrange(len(hand["actions"])):]  # the game cannot end
        if "hands" in bad and number + 1 < len(hands):
            del bad["hands"][number + 1:]
    elif kind == 4:
        _change_result(gen, bad)
    elif kind == 5:
        victim = rng.randrange(len(bad["players"]))
        bad["players"][victim] += rng.choice(("x", " ", "-1"))
    elif kind == 6:
        bad["variant"] = rng.choice([v for v in VARIANT_NAMES if v != record["variant"]]
                                    + [None, 3, "x"])
    elif kind == 7:
        key = rng.choice(("seed", "players", "variant", "actions", "deal"))
        bad[key] = rng.choice((None, 3, "x", [], {}, [[1]], gen.nested()[:1]))
        if "hands" in bad and key in ("actions", "deal"):
            bad["hands"][0][key] = bad[key]
    else:
        bad.pop(rng.choice(("seed", "result", "players", "variant")))
    if bad == record:  # the change happened to restore a value: not a tampering, try again
        return tamper(gen, record)
    return f"kind {kind}, hand {number + 1}: {_difference(record, bad)}", bad


def _difference(record: dict, bad: dict) -> str:
    """The top-level fields that differ (for the fault report)."""
    keys = sorted(set(record) | set(bad))
    return ", ".join(f"{key}: {clip(repr(bad.get(key, '<missing>')), 60)}" for key in keys
                     if record.get(key, "<missing>") != bad.get(key, "<missing>"))


def _swap_deal_cards(rng: random.Random, deal: dict) -> None:
    """Swap two different cards between (or within) the hands, the table and the stock."""
    places = [pile for pile in deal["hands"] + deal["table"] + [deal["stock"]] if pile]
    while True:
        first, second = rng.choice(places), rng.choice(places)
        i, j = rng.randrange(len(first)), rng.randrange(len(second))
        if first[i] != second[j]:
            first[i], second[j] = second[j], first[i]
            return


def _change_action(gen: Generator, actions: list[dict]) -> None:
    """Change one field of one action so that the game it tells cannot be legal: another
    player, a type that is no action, a card fewer in ``played``, ``drawn`` or ``table``
    (the cards then do not balance), or a value of the wrong type. (Reordering cards or
    groups, or a bga give-up written as a draw, tells the same game: not a tampering.)"""
    rng = gen.rng
    entry = actions[rng.randrange(len(actions))]
    key = rng.choice(sorted(entry))
    old = entry[key]
    choices = [None, 3, "x", {}, [[None]], float("nan")]
    if key == "player":
        choices += [old + 1, old - 1, old + 10]
    elif key == "type":
        choices += ["Draw", "play ", "knock!"]
    elif isinstance(old, list) and old:
        choices += [old[:-1], old + [old[-1]]]
    entry[key] = rng.choice([choice for choice in choices if choice != old])


def _change_result(gen: Generator, record: dict) -> None:
    rng = gen.rng
    if record.get("hands") and rng.random() < 0.5:
        rows = rng.choice(record["hands"])["result"]["players"]
    else:
        rows = record["result"]
    if rng.random() < 0.3:
        record["result"] = rng.choice((None, [], gen.junk_value()))
        if record["result"] is None or rng.random() < 0.5:
            record.pop("result")
        return
    row = rng.choice(rows)
    field_name = rng.choice(("score", "winner"))
    row[field_name] = (not row[field_name]) if field_name == "winner" else (
        row[field_name] + rng.choice((-1, 1, 100)))


def run_replay(gen: Generator, tally: Tally) -> None:
    from bots.referee.record import replay

    record = gen.rng.choice(gen.pools.records)
    described, bad = tamper(gen, record)
    try:
        problem = replay(bad)
    except BaseException:  # noqa: BLE001 - the fault being looked for
        tally.fault("traceback", "replay", described, traceback.format_exc(limit=-3))
        return
    if problem is None:
        tally.fault("tampering", "replay", described, "accepted")


# -- the engine child process ----------------------------------------------------------------
class EngineProcess:
    """A live ``machiavelli engine``, restarted if it dies (each death is counted)."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "bots.app.cli", "engine"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)

    def ask(self, line: bytes) -> bytes | None:
        """The answer line, or None if the engine died or hung (it is then restarted)."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        process = self.process
        try:
            process.stdin.write(line)
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], ANSWER_TIMEOUT)
            answer = process.stdout.readline() if ready else b""
        except (BrokenPipeError, OSError):
            answer = b""
        if not answer.endswith(b"\n"):
            self.stop()
            return None
        return answer

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.process = None


def engine_line(gen: Generator) -> bytes:
    """One request line: a valid request, a mutated one, or random bytes."""
    rng = gen.rng
    table, hand, variant, opened = gen.position()
    requests = [
        {"cmd": "position", "table": table, "hand": hand, "variant": variant,
         "opened": rng.choice((opened, "no", 1))},
        {"cmd": "solve", "objective": rng.choice(("cards", "points", 3))},
        {"cmd": "hint"},
        {"cmd": "go", "level": rng.choice(("random", "greedy", "planner", "expert", 7)),
         "budget": rng.choice((0.02, 0.05, gen.junk_value()))},
        {"cmd": "new_game", "seats": ["client", rng.choice(("random", "greedy", "x"))],
         "seed": rng.choice((rng.randrange(1000), gen.junk_value())),
         "variant": rng.choice(("machiavelli", "carousel", "guadalupe", "bga"))},
        {"cmd": "move", "action": rng.choice(({"type": "draw"}, {"type": "pass"},
                                              {"type": "play", "played": hand.split()[:2],
                                               "table": [table]}, gen.junk_value()))},
        {"cmd": "load", "record": tamper(gen, rng.choice(gen.pools.records))[1]},
        {"cmd": "state"}, {"cmd": "save"}, {"cmd": "hello", "id": gen.junk_value()},
        {"cmd": rng.choice(("quit ", "x", None, 3))},
    ]
    request: Any = rng.choice(requests)
    shape = rng.randrange(10)
    if shape == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).replace(
            b"\n", b"") + b"\n"
    if shape == 1:
        key = rng.choice(("table", "hand", "seed", "record", "id"))
        return (json.dumps(request)[:-1] + f', "{key}": {gen.nested_text()}}}\n').encode()
    if shape == 2:
        return json.dumps(request)[: rng.randrange(1, 40)].encode() + b"\n"
    text = json.dumps(request)
    if "\n" in text:
        text = text.replace("\n", " ")
    return text.encode() + b"\n"


def run_engine(gen: Generator, engine: EngineProcess, tally: Tally) -> None:
    line = engine_line(gen)
    if not line.strip():
        return
    answer = engine.ask(line)
    if answer is None:
        tally.fault("death", "engine", line, "no answer: the engine died or hung")
        return
    try:
        data = json.loads(answer)
        ok = isinstance(data, dict) and isinstance(data.get("ok"), bool)
        internal = not data.get("ok") and str(data.get("error", "")).startswith("internal")
    except ValueError:
        ok, internal = False, True
    if not ok or internal or answer.count(b"\n") != 1:
        tally.fault("traceback", "engine", line, answer.decode("utf-8", "replace"))


# -- the campaign -----------------------------------------------------------------------------
def campaign(inputs: int, seed: int, progress: bool = True,
             shares: dict[str, float] = SHARES, pools: Pools | None = None) -> Tally:
    """Run ``inputs`` generated inputs split over the targets by ``shares``."""
    from solver.api import warm_up

    started = time.perf_counter()
    warm_up("kernel")
    rng = random.Random(seed)
    gen = Generator(rng, pools or build_pools(seed))
    tally = Tally()
    engine = EngineProcess()
    names, weights = list(shares), list(shares.values())
    try:
        for done in range(1, inputs + 1):
            target = rng.choices(names, weights)[0]
            begun = time.perf_counter()
            if target == "cli":
                run_cli(cli_argv(gen), tally)
            elif target == "api":
                run_api(gen, tally)
            elif target == "replay":
                run_replay(gen, tally)
            else:
                run_engine(gen, engine, tally)
            tally.inputs[target] += 1
            tally.slowest = max(tally.slowest, time.perf_counter() - begun)
            if progress and (done % 500 == 0 or done == inputs):
                print(f"\r{done}/{inputs} inputs, {tally.tracebacks} tracebacks, "
                      f"{tally.engine_deaths} engine deaths, {tally.accepted_tamperings} "
                      f"accepted tamperings, {time.perf_counter() - started:.0f} s",
                      end="\n" if done == inputs else "", file=sys.stderr, flush=True)
    finally:
        engine.stop()
    tally.elapsed = time.perf_counter() - started
    return tally


def summary(tally: Tally) -> str:
    parts = ", ".join(f"{name} {tally.inputs[name]}" for name in SHARES)
    return (f"fuzz: inputs {sum(tally.inputs.values())} ({parts}), tracebacks "
            f"{tally.tracebacks}, engine deaths {tally.engine_deaths}, accepted tamperings "
            f"{tally.accepted_tamperings}, time {tally.elapsed:.1f} s "
            f"(slowest input {tally.slowest:.2f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args(argv)
    tally = campaign(args.inputs, args.seed, progress=not args.quiet)
    for kind, count in tally.kinds.most_common(SHOWN_FAULTS):
        print(f"{count:6d}  {kind}\n        first: {tally.faults.get(kind, '')}")
    print(summary(tally))
    return 0 if not (tally.tracebacks or tally.engine_deaths or tally.accepted_tamperings) \
        else 1


if __name__ == "__main__":
    sys.exit(main())

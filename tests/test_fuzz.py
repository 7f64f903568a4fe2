"""The fuzzing campaign of bench/fuzz.py, a few thousand inputs of it (issue 9): no traceback,
no engine death, no accepted tampering; and the campaign itself can see each kind of fault."""

from __future__ import annotations

import random

import pytest

from bench import fuzz

INPUTS = 1500


@pytest.fixture(scope="module")
def pools() -> fuzz.Pools:
    return fuzz.build_pools(11, ("machiavelli", "carousel", "machiavelli:rounds=2"))


def test_campaign_finds_no_fault(pools):
    tally = fuzz.campaign(INPUTS, seed=5, progress=False, pools=pools)
    assert sum(tally.inputs.values()) == INPUTS
    assert min(tally.inputs.values()) > 50  # every target was fed
    assert (tally.tracebacks, tally.engine_deaths, tally.accepted_tamperings) == (0, 0, 0), \
        tally.faults


def test_campaign_without_the_option_collisions_finds_no_fault(pools, monkeypatch):
    """The same campaign minus option names that collide with Python parameters."""
    monkeypatch.setattr(fuzz, "OPTION_KEYS", tuple(
        key for key in fuzz.OPTION_KEYS if key not in ("name", "cls", "options", "text")))
    tally = fuzz.campaign(INPUTS, seed=6, progress=False, pools=pools,
                          shares={"cli": 0.5, "api": 0.3, "replay": 0.2})
    assert (tally.tracebacks, tally.engine_deaths, tally.accepted_tamperings) == (0, 0, 0), \
        tally.faults


def test_same_seed_same_inputs(pools):
    first = fuzz.Generator(random.Random(3), pools)
    second = fuzz.Generator(random.Random(3), pools)
    assert [fuzz.cli_argv(first) for _ in range(50)] == \
        [fuzz.cli_argv(second) for _ in range(50)]


def test_every_tampering_changes_the_record(pools):
    gen = fuzz.Generator(random.Random(4), pools)
    for _ in range(300):
        record = gen.rng.choice(pools.records)
        _, bad = fuzz.tamper(gen, record)
        assert bad != record


def test_the_campaign_counts_faults_it_is_shown(pools, monkeypatch):
    tally = fuzz.Tally()
    monkeypatch.setattr("bots.app.cli.main", lambda argv: 1 / 0)
    fuzz.run_cli(["solve"], tally)
    monkeypatch.setattr("bots.app.cli.main", lambda argv: 1)
    fuzz.run_cli(["solve"], tally)
    monkeypatch.setattr("bots.referee.record.replay", lambda record: None)
    fuzz.run_replay(fuzz.Generator(random.Random(1), pools), tally)
    assert (tally.tracebacks, tally.accepted_tamperings) == (2, 1)
    assert any("ZeroDivisionError" in kind for kind in tally.kinds)


def test_an_ended_or_killed_engine_is_restarted(pools):
    tally = fuzz.Tally()
    engine = fuzz.EngineProcess()
    gen = fuzz.Generator(random.Random(2), pools)
    try:
        assert engine.ask(b'{"cmd": "quit"}\n') is not None  # answers, then ends
        engine.process.wait(timeout=30)
        fuzz.run_engine(gen, engine, tally)  # restarted: answers again
        assert tally.engine_deaths == 0
        engine.process.kill()
        engine.process.wait()
        assert engine.ask(b'{"cmd": "hello"}\n') is not None  # restarted
    finally:
        engine.stop()

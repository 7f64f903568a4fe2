"""The observation tensor: one player's view (``bots.referee.observation``) as fixed-size numbers.

Layout (docs/environments.md, "Observation"), all float32, seats counted from the observer
(0 is the observer, 1 the next player in turn order, ...; seats past the game's players are 0):

| part | size | what |
| --- | --- | --- |
| hand | 53 | copies of each card in the observer's hand (``Card.index`` order, jokers last) |
| table | 53 | copies of each card on the table (a joker counts as a joker, whatever it names) |
| hand sizes | 5 | every seat's hand size |
| stock | 1 | cards left in the stock |
| to move | 5 | one-hot: the seat to move |
| opened | 5 | 1 for each seat that made its opening play (docs/rules.md §6) |
| variant | 8 | one-hot: the variant (``solver.variants.VARIANT_NAMES`` order) |
| options | 6 | ace low, high or both (one-hot); opening rule; draw first; incomplete cost |
| turn | 3 | draws this turn, last turn (carousel), knock open |
| plays | 2 x 16 | cards and points each candidate play slot adds (0 where masked) |
| history | 8 x 64 | the last 8 public events, newest first (below) |

Each event: the seat one-hot (5), the kind one-hot (play, draw, pass, knock, penalty), how many
cards it took or played (1) and the cards played (53).

The information-state tensor is the same with a longer window (``INFO_HISTORY`` events), so
it tells apart almost all information states of a hand (docs/environments.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from bots.envs.actions import PLAY_SLOTS, Candidates, play_sizes
from bots.referee.observation import Observation
from solver.cards import Card
from solver.variants import ACE_MODES, VARIANT_NAMES, Variant

MAX_PLAYERS = 5
CARD_SLOTS = 53
JOKER_SLOT = 52
EVENT_KINDS = ("play", "draw", "pass", "knock", "penalty")
EVENT_SIZE = MAX_PLAYERS + len(EVENT_KINDS) + 1 + CARD_SLOTS
HISTORY = 8
INFO_HISTORY = 64
OPTION_SIZE = len(ACE_MODES) + 3
FIXED_SIZE = 2 * CARD_SLOTS + MAX_PLAYERS + 1 + 2 * MAX_PLAYERS + len(VARIANT_NAMES) \
    + OPTION_SIZE + 3 + 2 * PLAY_SLOTS


def tensor_size(history: int = HISTORY) -> int:
    """Length of the tensor with ``history`` events."""
    return FIXED_SIZE + history * EVENT_SIZE


def card_counts(cards: Iterable[Card]) -> np.ndarray:
    """Copies of each card (jokers in the last slot, named or not)."""
    counts = np.zeros(CARD_SLOTS, dtype=np.float32)
    for card in cards:
        counts[JOKER_SLOT if card.joker else card.index] += 1
    return counts


def encode(observation: Observation, to_move: int, found: Candidates | None,
           history: int = HISTORY) -> np.ndarray:
    """The tensor of ``observation``; ``to_move`` is the seat to move (-1: nobody, the game
    is over); ``found`` (the observer's candidates, when it is to move) fills the play
    features."""
    n = len(observation.players)
    me = observation.player
    parts = [
        card_counts(observation.hand),
        card_counts(c for group in observation.table for c in group),
        _seats([observation.hand_sizes[(me + k) % n] for k in range(n)]),
        np.array([observation.stock_size], dtype=np.float32),
        _seats([float(k == (to_move - me) % n) for k in range(n)] if to_move >= 0 else []),
        _seats([float(observation.opened[(me + k) % n]) for k in range(n)]),
        _one_hot(VARIANT_NAMES.index(observation.variant.name), len(VARIANT_NAMES)),
        _options(observation.variant),
        np.array([observation.draws_this_turn, float(observation.last_turn),
                  float(observation.can_knock_value >= 0)], dtype=np.float32),
        (play_sizes(found) if found is not None
         else np.zeros((PLAY_SLOTS, 2), dtype=np.float32)).ravel(),
        _history(observation.history, me, n, history).ravel(),
    ]
    return np.concatenate(parts)


def _options(variant: Variant) -> np.ndarray:
    """The options that change play within a variant (docs/rules.md §4.1)."""
    return np.concatenate([
        _one_hot(ACE_MODES.index(variant.ace), len(ACE_MODES)),
        np.array([float(bool(variant.opening_points or variant.opening_run)),
                  float(variant.draw_first), float(variant.incomplete != "reset")],
                 dtype=np.float32)])


def _seats(values: Sequence[float]) -> np.ndarray:
    out = np.zeros(MAX_PLAYERS, dtype=np.float32)
    out[:len(values)] = values
    return out


def _one_hot(index: int, size: int) -> np.ndarray:
    out = np.zeros(size, dtype=np.float32)
    out[index] = 1
    return out


def _history(events: Sequence[dict[str, Any]], me: int, n: int, window: int) -> np.ndarray:
    out = np.zeros((window, EVENT_SIZE), dtype=np.float32)
    for row, event in enumerate(reversed(events[-window:] if window else ())):
        out[row, (event["player"] - me) % n] = 1
        out[row, MAX_PLAYERS + EVENT_KINDS.index(event["type"])] = 1
        played = [Card.parse(c) for c in event.get("played", ())]
        out[row, MAX_PLAYERS + len(EVENT_KINDS)] = event.get("count", len(played))
        out[row, MAX_PLAYERS + len(EVENT_KINDS) + 1:] = card_counts(played)
    return out


def describe(observation: Observation, to_move: int, full_history: bool = False) -> str:
    """The view as text: hand, table, sizes, stock, turn state and the public history (the
    last ``HISTORY`` events, or all of them for an information state)."""
    events = observation.history if full_history else observation.history[-HISTORY:]
    lines = [
        f"variant {observation.variant} seat {observation.player} of "
        f"{len(observation.players)} to move {to_move}",
        "hand " + " ".join(sorted(str(c) for c in observation.hand)),
        "table " + " | ".join(" ".join(str(c) for c in g) for g in observation.table),
        "hand sizes " + " ".join(map(str, observation.hand_sizes))
        + f" stock {observation.stock_size}",
        "opened " + " ".join(str(int(o)) for o in observation.opened)
        + f" draws {observation.draws_this_turn} last {int(observation.last_turn)}"
        + f" drawn {' '.join(str(c) for c in observation.drawn_this_turn)}",
        "legal " + " ".join(sorted(observation.legal)),
    ]
    lines += [_event_text(event) for event in events]
    return "\n".join(lines)


def _event_text(event: dict[str, Any]) -> str:
    text = f"p{event['player']} {event['type']}"
    if "played" in event:
        text += " " + " ".join(event["played"]) + " -> " + " | ".join(
            " ".join(g) for g in event["table"])
    if "count" in event:
        text += f" {event['count']}"
    if "drawn" in event:
        text += " " + " ".join(event["drawn"])
    return text

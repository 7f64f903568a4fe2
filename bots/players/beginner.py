"""``beginner``: lays groups from its hand and extends table groups, never rearranges.

It repeatedly lays the longest run or biggest set its hand holds, then adds single hand cards
to the ends of table runs and to three-card sets, until nothing more fits; a hand joker may
complete a pair from the hand or lengthen a table run. Its opening play (where a variant asks
for one) comes from the solver, since the opening rules leave no room for rearranging anyway.
"""

from __future__ import annotations

from bots.players.base import best_play, fallback
from bots.players.random_bot import hand_melds
from bots.referee.actions import Action, Play
from bots.referee.observation import Observation
from solver import arguments
from solver.cards import Card
from solver.groups import arrange_group, is_valid_group
from solver.validate import JOKER, play_problems


class BeginnerBot:
    name = "beginner"

    def __init__(self, seed: int = 0) -> None:
        self.seed = arguments.seed("seed", seed)  # deterministic

    def choose(self, observation: Observation) -> Action:
        if "play" not in observation.legal:
            return fallback(observation)
        position = observation.position()
        if not position.opened:
            play = best_play(observation)
            return play if play is not None else fallback(observation)
        for jokers in (True, False):  # a joker move the rules refuse is dropped, not the play
            play = simple_play(position, jokers)
            if play is not None and not play_problems(position, play.played, play.table):
                return play
        return fallback(observation)


def simple_play(position, jokers: bool = True) -> Play | None:
    """The no-rearrangement play: new groups from the hand, then single cards added on."""
    ace = position.variant.ace
    hand = list(position.hand)
    table = [tuple(group) for group in position.table]
    played: list[Card] = []
    while True:
        melds = sorted(hand_melds(sorted({c for c in hand if not c.joker}), ace), key=len,
                       reverse=True)
        meld = next((m for m in melds if _take(hand, m)), None)
        if meld is None:
            break
        table.append(tuple(meld))
        played.extend(meld)
    grew = True
    while grew:
        grew = False
        for card in sorted({c for c in hand if not c.joker}):
            for i, group in enumerate(table):
                if len(group) < 3:
                    continue
                bigger = list(group) + [card]
                if is_valid_group(bigger, ace):
                    hand.remove(card)
                    played.append(card)
                    table[i] = tuple(arrange_group(bigger, ace))
                    grew = True
                    break
            if grew:
                break
    if jokers and JOKER in hand:
        _place_joker(hand, table, played, ace)
    if not played:
        return None
    return Play(tuple(played), tuple(table))


def _take(hand: list[Card], meld) -> bool:
    """Remove ``meld`` from ``hand`` if every card is there."""
    if all(hand.count(c) >= list(meld).count(c) for c in meld):
        for card in meld:
            hand.remove(card)
        return True
    return False


def _place_joker(hand: list[Card], table: list[tuple[Card, ...]], played: list[Card],
                 ace: str) -> None:
    """One hand joker: complete a pair from the hand, else lengthen a table run."""
    real = sorted({c for c in hand if not c.joker})
    for a in real:
        for b in real:
            if not a < b:  # each pair once
                continue
            for rank in range(1, 14):
                for suit in "SHDC":
                    named = Card(rank, suit, joker=True)
                    group = arrange_group([a, b, named], ace)
                    if is_valid_group(group, ace):
                        hand.remove(a)
                        hand.remove(b)
                        hand.remove(JOKER)
                        played.extend([a, b, JOKER])
                        table.append(tuple(group))
                        return
    for i, lying in enumerate(table):
        if len(lying) < 3 or any(c.joker for c in lying):
            continue
        for rank in range(1, 14):
            named = Card(rank, lying[0].suit, joker=True)
            bigger = list(lying) + [named]
            if is_valid_group(bigger, ace) and len({c.rank for c in lying}) > 1:
                hand.remove(JOKER)
                played.append(JOKER)
                table[i] = tuple(arrange_group(bigger, ace))
                return

"""The rules check every move passes: the referee's judge and the solver's last word.

It knows nothing of the backends: given a position (the table before the move, the hand, the
variant), the hand cards played and the proposed new table, it lists every rule of docs/rules.md
§2-§8 the move breaks. Jokers are physical cards like any other (one kind, ``*``); on the
table each names a card (``*7H``). Copies of a card are interchangeable, so "the same card"
means the same rank and suit.

Rulings where the book is terse, applied here and by the solver alike:

- A table joker named X may take a new name only while a real X lies on the new table, one
  real X per renamed joker (carousel, vatican); in tahiti the real X must be laid from the
  hand in this move.
- Vatican: a joker named X that is not freed keeps its name and must share its new group with
  a card of a kind that lay next to it before (a run neighbour one rank away, or any other card
  of its set).
- Tahiti: a group holding a joker is locked unless the move frees that joker: the new table
  must hold a group containing all its cards, grown only by cards played from the hand.
- Vatican's opening (docs/rules.md §6): the first play is legal when the hand cards it plays
  include three consecutive cards of one suit, no joker; where they end up does not matter,
  since the run may be laid and rearranged in the same turn (table ``7S 7D 7C | 8S 8D 8C``,
  hand ``6H 7H 8H 6S 6D``, unopened: all five go). Deliberate; do not tighten it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations, product

from solver.cards import Card, format_cards
from solver.groups import group_kind, held_runs, is_valid_group
from solver.position import Position

JOKER = Card(0, "", joker=True)


def physical(card: Card) -> Card:
    """What a card is in the hand or the stock: a real card, or a joker (whatever it names)."""
    return JOKER if card.joker else card


def play_problems(position: Position, played: Sequence[Card],
                  table: Sequence[Sequence[Card]]) -> list[str]:
    """Every reason the move ``played`` -> ``table`` is illegal in ``position`` (empty: legal).

    ``played`` lists the hand cards added (jokers as ``*``); ``table`` is the whole new table.
    An empty ``played`` is checked as "no play": the table must hold the same cards.
    """
    variant = position.variant
    problems = card_problems(position, played, table)
    singles = Counter(position.singles)
    for group in table:
        if any(card.joker and not card.is_named for card in group):
            continue  # reported by card_problems
        if len(group) == 1 and not group[0].joker and singles[group[0]] > 0:
            singles[group[0]] -= 1
        elif len(group) == 1:
            problems.append(f"lone card {group[0]} is not an original single")
        elif not is_valid_group(group, variant.ace):
            problems.append(f"group {format_cards(group)!r} is not a set or a run")
    if variant.joker_rule != "none" and not problems:
        problems += joker_problems(position, played, table)
    if not position.opened and played:
        problems += opening_problems(position, played, table)
    return problems


def rule_problems(position: Position, played: Sequence[Card],
                  table: Sequence[Sequence[Card]]) -> list[str]:
    """``play_problems`` for a move already known to balance, whose groups are valid sets,
    runs and original singles and whose table jokers are named: the rules left, the jokers'
    (§8, ``joker_problems``) and the opening's (§6). The solver's re-check
    (``solver.api.checked_solution``) asks this once ``solver.fastcheck.check_table`` has
    passed the table on arrays, which checks the rest: the card and group checks in Python
    were about half of an end-to-end joker solve (session 9, cProfile over 200 median
    positions of ``bench.joker_games``)."""
    problems = []
    if position.variant.joker_rule != "none":
        problems += joker_problems(position, played, table)
    if not position.opened and played:
        problems += opening_problems(position, played, table)
    return problems


def card_problems(position: Position, played: Sequence[Card],
                  table: Sequence[Sequence[Card]]) -> list[str]:
    """Why the move is not even a table the player could lay out: played cards not in the
    hand, table cards missing or from nowhere, a table joker without a name. (The rest of
    ``play_problems`` judges a table the player could lay out; the referee's ``penalty``
    rule tells the two kinds apart, docs/rules.md §3.)"""
    problems: list[str] = []
    spent = Counter(physical(card) for card in played)
    missing_from_hand = spent - Counter(physical(card) for card in position.hand)
    if missing_from_hand:
        problems.append("played cards not in the hand: "
                        + format_cards(sorted(missing_from_hand.elements())))
    before = Counter(physical(card) for group in position.table for card in group)
    after = Counter(physical(card) for group in table for card in group)
    if after != before + spent:
        missing = (before + spent) - after
        extra = after - (before + spent)
        if missing:
            problems.append("cards missing from the new table: "
                            + format_cards(sorted(missing.elements())))
        if extra:
            problems.append("cards on the new table from nowhere: "
                            + format_cards(sorted(extra.elements())))
    for group in table:
        if any(card.joker and not card.is_named for card in group):
            problems.append(f"a joker on the table must be named, in {format_cards(group)!r}")
    return problems


def opening_problems(position: Position, played: Sequence[Card],
                     table: Sequence[Sequence[Card]]) -> list[str]:
    """docs/rules.md §6: the 36-point opening from the hand alone, or vatican's 3-card run."""
    variant = position.variant
    problems = []
    if variant.opening_points:
        old = Counter(tuple(sorted(g)) for g in position.table)
        new = Counter(tuple(sorted(g)) for g in table)
        if old - new:
            problems.append("an opening play may not touch the table")
        named = [card for group in table for card in group if card.joker]
        points = sum(card.points for card in played if not card.joker)
        points += sum(card.points for card in (Counter(named) - Counter(
            card for group in position.table for card in group if card.joker)).elements())
        if points < variant.opening_points:
            problems.append(
                f"an opening play needs {variant.opening_points} points, this one has {points}")
    if variant.opening_run and not has_hand_run(played, variant.ace):
        problems.append("an opening play must include a 3-card run from the hand, no joker")
    return problems


def has_hand_run(cards: Sequence[Card], ace: str) -> bool:
    """True if three of ``cards`` (no joker) form a run: one of the 3-card runs of the ace
    mode held whole (``held_runs``), the same as trying every trio of the cards without the
    trios: 2,300 of them for 25 cards, 8 ms of a vatican opening's re-check (session 16)."""
    return bool(held_runs(ace, {card.index for card in cards if not card.joker}))


def joker_problems(position: Position, played: Sequence[Card],
                   table: Sequence[Sequence[Card]]) -> list[str]:
    """docs/rules.md §8 for a move whose cards already balance and whose groups are valid."""
    rule = position.variant.joker_rule
    problems = []
    old_names = Counter(card.real for group in position.table for card in group if card.joker)
    new_names = Counter(card.real for group in table for card in group if card.joker)
    # Real cards on the new table, counted for the old jokers' names only (all this reads):
    # a rank test first spares hashing every card (session 9: the re-check's cost).
    ranks = {name.rank for name in old_names}
    real_on_table = Counter(card for group in table for card in group
                            if not card.joker and card.rank in ranks) if ranks else Counter()
    real_played = Counter(card for card in played if not card.joker)
    renamed = {name: count - min(count, new_names[name]) for name, count in old_names.items()}
    for name, count in renamed.items():
        if count == 0:
            continue
        supply = real_played[name] if rule == "tahiti" else real_on_table[name]
        if count > supply:
            where = "laid from the hand" if rule == "tahiti" else "on the table"
            problems.append(f"a joker named {name} may take a new name only when a real {name} "
                            f"is {where}")
    if rule == "tahiti":
        for group in table:
            if sum(card.joker for card in group) > 1:
                problems.append(f"group {format_cards(group)!r} holds more than one joker")
        if not problems:
            problems += _locked_group_problems(position, played, table, renamed)
    if rule == "vatican" and not problems:
        problems += _vatican_problems(position, table, real_on_table)
    return problems


def _neighbours(group: Sequence[Card], joker: Card, ace: str) -> set[Card]:
    """Kinds of card next to ``joker`` in ``group``: run neighbours, or the rest of a set."""
    if group_kind(group, ace) == "set":
        return {card.real for card in group if card is not joker}
    from solver.groups import arrange_group

    ordered = arrange_group(group, ace)
    at = next(i for i, card in enumerate(ordered) if card is joker)
    return {ordered[i].real for i in (at - 1, at + 1) if 0 <= i < len(ordered)}


def _vatican_problems(position: Position, table: Sequence[Sequence[Card]],
                      real_on_table: Counter) -> list[str]:
    """Jokers not freed (no real card of their name on the table) stay with a neighbour."""
    ace = position.variant.ace
    stuck: dict[Card, list[set[Card]]] = {}
    for group in position.table:
        for card in group:
            if card.joker and real_on_table[card.real] == 0:
                stuck.setdefault(card.real, []).append(_neighbours(group, card, ace))
    problems = []
    for name, needs in stuck.items():
        homes = [{c.real for c in group if c is not joker} for group in table
                 for joker in group if joker.joker and joker.real == name]
        if not any(all(need & home for need, home in zip(needs, choice, strict=False))
                   for choice in permutations(homes, len(needs))):
            problems.append(f"the joker {Card.named_joker(name)} may not leave the cards next to "
                            f"it until a real {name} is on the table")
    return problems


def _locked_group_problems(position: Position, played: Sequence[Card],
                           table: Sequence[Sequence[Card]], renamed: dict) -> list[str]:
    """Tahiti: every locked group whose joker stays must survive, grown only from the hand.

    When fewer jokers of a name were freed than groups hold one, the player chose which
    groups to free: every choice is tried.
    """
    locked: dict[Card, list[Counter]] = {}
    for group in position.table:
        for card in group:
            if card.joker:
                locked.setdefault(card.real, []).append(Counter(group))
    # A locked group holds a joker, so only a new group with a joker can hold it: the others
    # are not counted (session 9: Counting every group was most of the re-check's time).
    new_groups = [Counter(group) if any(card.joker for card in group) else None
                  for group in table]

    def place(keep: list[Counter], i: int, used: frozenset, budget: Counter) -> bool:
        if i == len(keep):
            return True
        for g, new in enumerate(new_groups):
            if g in used or new is None or keep[i] - new:
                continue
            added = new - keep[i]
            if added - budget:
                continue
            if place(keep, i + 1, used | {g}, budget - added):
                return True
        return False

    choices = [combinations(range(len(groups)), renamed.get(name, 0))
               for name, groups in locked.items()]
    for picks in product(*choices):
        keep = [group for (name, groups), freed in zip(locked.items(), picks, strict=True)
                for i, group in enumerate(groups) if i not in freed]
        if place(keep, 0, frozenset(), Counter(played)):
            return []
    return ["a group holding a joker is locked: keep all its cards together and add only cards "
            "from the hand (or free the joker with the real card from the hand)"]

"""What the environments share: checking their arguments, seeds, bounds and text rendering."""

from __future__ import annotations

from collections.abc import Sequence

from bots.referee.game import Game
from solver import arguments
from solver.errors import InvalidArgumentError
from solver.variants import Variant

OBSERVATION_HIGH = 1000.0
"""Upper bound of every tensor entry (counts of cards, hand and stock sizes stay far below)."""
MAX_SEED = 2**63 - 1


def env_variant(variant: str | Variant, players: int) -> Variant:
    """The variant, checked with the number of players (docs/rules.md §4); a ``ValueError``
    subclass names what is wrong."""
    rules = Variant.parse(variant)
    arguments.integer("players", players, 2, 5)
    if not rules.min_players <= players <= rules.max_players:
        raise InvalidArgumentError(f"{rules.name} is for {rules.min_players}-"
                                   f"{rules.max_players} players, not {players}")
    return rules


def check_render_mode(mode: str | None, modes: Sequence[str]) -> str | None:
    if mode is not None and mode not in modes:
        raise InvalidArgumentError(f"render_mode {mode!r} is not one of {', '.join(modes)}")
    return mode


def seed_from(seed: int | None, last: int, started: bool) -> int:
    """The game to deal: ``seed`` when given, else the one after the last game (0 first)."""
    if seed is not None:
        return arguments.seed("seed", int(seed))
    return (last + 1) % MAX_SEED if started else 0


def render_text(game: Game) -> str:
    """The game as people read it: table groups, every hand, the stock and the last actions."""
    lines = [f"{game.variant}  stock {len(game.stock)}  "
             + ("over" if game.over else f"to move: {game.players[game.current_player]}")]
    lines += [f"  {i + 1:>2}  " + " ".join(str(c) for c in group)
              for i, group in enumerate(game.table)] or ["  (empty table)"]
    for seat, name in enumerate(game.players):
        cards = " ".join(str(c) for c in sorted(game.hands[seat], key=lambda c: c.sort_key()))
        lines.append(f"{name}: {cards}")
    for event in game.actions[-3:]:
        lines.append(f"  {game.players[event['player']]} {event['type']} "
                     + " ".join(event.get("played", event.get("drawn", []))))
    return "\n".join(lines)

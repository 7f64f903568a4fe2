"""The shared solver constants agree with the card model, the variants and the kernel's bounds."""

from solver.automaton import run_automaton
from solver.cards import CARDS, SUITS, Card
from solver.constants import (
    ACE_CODES,
    JOKER_CODE,
    MAX_COPIES,
    MAX_GROUPS,
    MAX_RUN,
    MAX_SUIT_OPTIONS,
    N_CARD_TYPES,
    N_RANKS,
    N_SUITS,
    ROW_WIDTH,
)
from solver.variants import ACE_MODES


def test_card_codes_match_the_cards():
    assert len(CARDS) == N_CARD_TYPES == N_RANKS * N_SUITS and len(SUITS) == N_SUITS
    for code, card in enumerate(CARDS):
        assert card.code == code
        assert code // N_RANKS == SUITS.index(card.suit) and code % N_RANKS == card.rank - 1
        joker = Card(card.rank, card.suit, joker=True)
        assert joker.code == JOKER_CODE + code and Card.from_code(JOKER_CODE + code) == joker
        assert joker.code % JOKER_CODE // N_RANKS == code // N_RANKS


def test_ace_codes_cover_every_ace_mode():
    assert sorted(ACE_CODES) == sorted(ACE_MODES)
    assert sorted(ACE_CODES.values()) == list(range(len(ACE_MODES)))


def test_rows_hold_the_longest_run():
    # 2..K then a high ace, or A..K: every rank once.
    assert MAX_RUN == N_RANKS and ROW_WIDTH > MAX_RUN


def test_kernel_bounds_hold_the_largest_automaton():
    # Every card in play MAX_COPIES times, all in groups of three or more.
    assert MAX_COPIES * N_CARD_TYPES // 3 <= MAX_GROUPS
    # Options of one suit at the ace: copies u, jokers z (u + z <= copies), high aces g.
    options = sum(1 for u in range(MAX_COPIES + 1) for z in range(MAX_COPIES + 1 - u)
                  for _ in range(u + z + 1))
    assert options <= MAX_SUIT_OPTIONS
    init, delta, _ = run_automaton(MAX_COPIES)
    assert init.shape == (MAX_COPIES + 1, MAX_COPIES + 1) and delta.shape[1] == MAX_COPIES + 1

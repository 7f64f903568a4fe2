"""The referee: one test per rule of docs/rules.md §3-§8 it enforces, on crafted deals."""

import copy

import pytest

from bots.referee.actions import Draw, GiveUp, Pass, Play
from bots.referee.game import ForcedPlayHint, Game, IllegalMoveError
from solver.cards import parse_cards

PENALTY = "machiavelli:incomplete=penalty"


def deal(hands, table="-", stock="", dealer=None):
    """A recorded deal where player 0 moves first (the dealer sits last)."""
    from solver.cards import parse_groups

    return {"dealer": len(hands) - 1 if dealer is None else dealer,
            "hands": [[str(c) for c in parse_cards(h)] for h in hands],
            "table": [[str(c) for c in g] for g in parse_groups(table)],
            "stock": [str(c) for c in parse_cards(stock)]}


def game(variant, hands, table="-", stock="", players=None):
    names = players or [f"p{i}" for i in range(len(hands))]
    return Game(variant, names, 0, deals=[deal(hands, table, stock)])


def snapshot(g):
    return copy.deepcopy((g.hands, g.table, g.stock, g.current, g.actions, g.turn, g.totals))


def rejects(g, action, words):
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as info:
        g.apply(action)
    assert words in info.value.reason, info.value.reason
    assert snapshot(g) == before  # the game is unchanged


# -- §3 a turn ---------------------------------------------------------------------------
def test_a_play_adds_at_least_one_hand_card():
    g = game("machiavelli", ["8D 8H", "2C"], "5C 6C 7C 8C", "KS")
    rejects(g, Play.make("", "5C 6C 7C 8C"), "at least one card")


def test_every_group_must_be_valid_at_the_end():
    g = game("machiavelli", ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS")
    rejects(g, Play.make("9D", "5C 6C 7C 8C 9D"), "not a set or a run")
    rejects(g, Play.make("8D 8H", "5C 6C | 7C 8C 8D 8H"), "not a set or a run")


def test_cards_on_the_table_never_go_back_to_a_hand():
    g = game("machiavelli", ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS")
    rejects(g, Play.make("8D 8H", "8C 8D 8H"), "missing from the new table")


def test_played_cards_must_come_from_the_hand():
    g = game("machiavelli", ["8D 8H", "2C"], "5C 6C 7C 8C", "KS")
    rejects(g, Play.make("8D 8S", "5C 6C 7C | 8C 8D 8S"), "not in the hand")


def test_a_legal_play_changes_hand_table_and_turn():
    g = game("machiavelli", ["8D 8H 2S", "2C"], "5C 6C 7C 8C", "KS")
    g.apply(Play.make("8D 8H", "5C 6C 7C | 8C 8D 8H"))
    assert [str(c) for c in g.hands[0]] == ["2S"] and g.current == 1
    assert g.actions[-1]["type"] == "play" and g.actions[-1]["played"] == ["8D", "8H"]


def test_reset_give_up_costs_nothing_and_the_turn_goes_on():
    g = game("machiavelli", ["8D 8H", "2C"], "5C 6C 7C", "KS QS")
    g.apply(GiveUp())
    assert g.current == 0 and len(g.hands[0]) == 2 and g.actions == []
    g.apply(Draw())  # they may still draw
    assert g.current == 1


def test_penalty_give_up_draws_three_instead_and_ends_the_turn():
    g = game("machiavelli:incomplete=penalty", ["8D 8H", "2C"], "5C 6C 7C", "KS QS JS 10S")
    g.apply(GiveUp())
    assert len(g.hands[0]) == 5 and g.current == 1
    assert g.actions[-1] == {"player": 0, "type": "penalty", "drawn": ["KS", "QS", "JS"]}


def test_incomplete_penalty_an_illegal_play_of_held_cards_touches_the_turn():
    g = game(PENALTY, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    assert g.legal_types() == {"play", "give_up", "draw"}
    with pytest.raises(IllegalMoveError, match="not a set or a run.*touched the table"):
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    assert g.turn.touched and g.legal_types() == {"play", "give_up"}
    assert g.table == [tuple(parse_cards("5C 6C 7C 8C"))] and len(g.hands[0]) == 3
    rejects(g, Draw(), "give up (draw 3 penalty cards")
    rejects(g, Pass(), "give up")
    g.apply(GiveUp())
    assert g.actions == [{"player": 0, "type": "penalty", "drawn": ["KS", "QS", "JS"]}]
    assert len(g.hands[0]) == 6 and g.current == 1 and not g.turn.touched


def test_incomplete_penalty_a_touched_turn_may_still_end_with_a_legal_play():
    g = game(PENALTY, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    with pytest.raises(IllegalMoveError):
        g.apply(Play.make("8D 8H", "5C 6C | 7C 8C 8D 8H"))
    assert g.turn.touched
    g.apply(Play.make("8D 8H", "5C 6C 7C | 8C 8D 8H"))
    assert g.current == 1 and g.legal_types() == {"play", "give_up", "draw"}


@pytest.mark.parametrize("played, table, words", [
    ("8S", "5C 6C 7C 8C 8S", "not in the hand"),  # a card not held
    ("8D 8H", "8C 8D 8H", "missing from the new table"),  # a table card taken back
    ("9D", "5C 6C 7C 8C 9D | 9D", "from nowhere"),
    ("", "5C 6C 7C 8C", "at least one card"),
])
def test_incomplete_penalty_malformed_proposals_cost_nothing(played, table, words):
    g = game(PENALTY, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    rejects(g, Play.make(played, table), words)
    assert not g.turn.touched and "draw" in g.legal_types()
    g.apply(Draw())  # the normal draw is still there
    assert g.actions == [{"player": 0, "type": "draw", "drawn": ["KS"]}]


def test_incomplete_penalty_a_refused_knock_alone_touches_nothing():
    g = game(PENALTY, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    rejects(g, Play.make("8D 8H", "5C 6C 7C | 8C 8D 8H", knock=True), "knock")
    assert not g.turn.touched


def test_incomplete_penalty_an_opening_breach_touches_the_turn():
    g = game("machiavelli:incomplete=penalty,opening=36", ["2D 3D 4D 9S", "2C"], "-",
             "KS QS JS 10S")
    with pytest.raises(IllegalMoveError, match="36 points"):
        g.apply(Play.make("2D 3D 4D", "2D 3D 4D"))
    assert g.legal_types() == {"play", "give_up"}


def test_incomplete_penalty_with_draw_first_the_drawn_card_counts_as_one_of_three():
    g = game("machiavelli:incomplete=penalty,draw_first=true", ["8D 8H 9D", "2C"],
             "5C 6C 7C 8C", "KS QS JS 10S")
    g.apply(Draw())
    with pytest.raises(IllegalMoveError, match="give up and draw 2 penalty cards"):
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    rejects(g, Pass(), "draw 2 penalty cards")
    g.apply(GiveUp())
    assert g.actions[-1] == {"player": 0, "type": "penalty", "drawn": ["QS", "JS"]}
    assert len(g.hands[0]) == 6 and g.current == 1  # three drawn this turn in all


def test_incomplete_penalty_give_up_draws_fewer_when_the_stock_is_short():
    g = game(PENALTY, ["8D 8H 9D", "2C", "3C"], "5C 6C 7C 8C", "KS QS")
    with pytest.raises(IllegalMoveError):
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    assert g.give_up_cost() == 2
    g.apply(GiveUp())
    assert g.actions[-1]["drawn"] == ["KS", "QS"] and g.current == 1 and not g.stock


@pytest.mark.parametrize("level", ["beginner", "greedy", "planner", "expert"])
def test_incomplete_penalty_bots_asked_in_a_touched_turn_give_up_when_nothing_plays(level):
    from bots.players import make_bot
    from bots.referee.observation import observe

    g = game(PENALTY, ["9D 2S", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    with pytest.raises(IllegalMoveError):
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    action = make_bot(level, 0, 0.2).choose(observe(g, 0))
    assert action == GiveUp()
    g.apply(action)
    assert g.current == 1


@pytest.mark.parametrize("variant", ["machiavelli", "machiavelli:incomplete=reset", "bga",
                                     "tahiti", "guadalupe"])
def test_incomplete_reset_variants_keep_an_illegal_play_free(variant):
    g = game(variant, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    with pytest.raises(IllegalMoveError) as info:
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    assert "touched" not in info.value.reason and not g.turn.touched
    assert "draw" in g.legal_types()
    g.apply(Draw())
    assert g.current == 1


@pytest.mark.parametrize("variant", ["guadalupe:incomplete=penalty",
                                     "tahiti:incomplete=penalty"])
def test_incomplete_penalty_in_guadalupe_and_tahiti(variant):
    g = game(variant, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "KS QS JS 10S")
    with pytest.raises(IllegalMoveError, match="touched"):
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    rejects(g, Draw(), "give up")
    g.apply(GiveUp())
    assert g.actions[-1]["drawn"] == ["KS", "QS", "JS"] and g.current == 1


def test_incomplete_penalty_touched_games_replay_and_resume():
    from bots.referee.record import resume

    g = game(PENALTY, ["8D 8H 9D", "8C"], "5C 6C 7C", "KS QS JS 10S")
    with pytest.raises(IllegalMoveError):
        g.apply(Play.make("9D", "5C 6C 7C 9D"))
    g.apply(GiveUp())
    g.apply(Play.make("8C", "5C 6C 7C 8C"))
    logged = [a["type"] for a in g.record()["actions"]]
    assert g.over and logged == ["penalty", "play"]  # the refused attempt is not logged
    seeded = Game(PENALTY, ["a", "b"], seed=5)
    card = seeded.hands[seeded.current][0]
    with pytest.raises(IllegalMoveError, match="touched"):
        seeded.apply(Play((card,), tuple(seeded.table) + ((card,),)))
    saved = seeded.record_so_far()
    assert saved["touched"] is True
    again = resume(saved)
    assert again.turn.touched and again.legal_types() == {"play", "give_up"}
    saved_untouched = Game(PENALTY, ["a", "b"], seed=5).record_so_far()
    assert "touched" not in saved_untouched and not resume(saved_untouched).turn.touched
    with pytest.raises(ValueError, match="touched"):
        resume({**Game("machiavelli", ["a", "b"], seed=5).record_so_far(), "touched": True})


def test_bga_reset_draws_one_and_ends_the_turn():
    g = game("bga", ["8D 8H", "2C"], "5C 6C 7C", "KS QS")
    g.apply(GiveUp())
    assert len(g.hands[0]) == 3 and g.current == 1 and g.actions[-1]["type"] == "penalty"


def test_empty_stock_draw_becomes_pass_and_a_round_of_passes_deadlocks():
    g = game("machiavelli", ["8D 2H", "2C", "3S 4S 9D"], "5C 6C 7C", "")
    assert g.apply(Draw()) == Pass()  # the book: a draw from an empty stock is a pass
    assert g.actions[-1] == {"player": 0, "type": "pass"} and g.current == 1
    g.apply(Pass())
    assert not g.over
    g.apply(Pass())
    assert g.over and g.hand_results[-1].ended == "deadlock"
    # fewest cards wins the deadlock: player 1 (one card)
    assert [r["winner"] for r in g.results()] == [False, True, False]
    assert [r["score"] for r in g.results()] == [2, 1, 3]


@pytest.mark.parametrize("variant", ["machiavelli", "machiavelli:draw_first=true", "vatican",
                                     "tahiti", "guadalupe", "manipulation:forced_check=trust",
                                     "shanghai", "machiavelli:incomplete=penalty"])
def test_empty_stock_draw_is_a_pass_in_every_variant(variant):
    g = game(variant, ["8D 2H", "2C 9S", "3S 4S 9D"], "5C 6C 7C", "")
    assert "pass" in g.legal_types() and "draw" not in g.legal_types()
    assert g.apply(Draw()) == Pass()
    assert g.actions == [{"player": 0, "type": "pass"}] and g.current == 1
    assert g.passes_in_row == 1


def test_empty_stock_draw_is_a_pass_after_draw_first_took_the_last_card():
    g = game("machiavelli:draw_first=true", ["8D 2H", "2C"], "5C 6C 7C", "KS")
    g.apply(Draw())
    assert g.apply(Draw()) == Pass()
    assert g.actions[-1] == {"player": 0, "type": "pass"} and g.current == 1
    assert g.passes_in_row == 0  # the player drew this turn: not a pass for the deadlock


def test_empty_stock_draw_is_a_pass_for_carousel_last_drawer_and_last_turns():
    g = game("carousel", ["2H 4D", "3S 7D", "9D KD"], "5C 6C 7C", "KS")
    g.apply(Draw())  # p0 takes the last card
    assert g.apply(Draw()) == Pass()  # ends p0's turn; the last turns begin
    assert g.current == 1 and g.turn.last_turn
    for _ in range(3):
        assert g.apply(Draw()) == Pass()
    assert g.over and g.hand_results[-1].ended == "last_turns"


def test_empty_stock_draw_is_a_pass_that_forced_play_may_refuse_once():
    g = game("manipulation", ["8C 2H", "2C"], "5C 6C 7C", "")
    with pytest.raises(ForcedPlayHint, match="may not draw"):
        g.apply(Draw())
    assert g.apply(Draw()) == Pass()  # asking again insists
    assert g.actions == [{"player": 0, "type": "pass"}] and g.current == 1


def test_empty_stock_draw_is_refused_in_a_touched_turn():
    g = game(PENALTY, ["8D 8H 9D", "2C"], "5C 6C 7C 8C", "")
    with pytest.raises(IllegalMoveError):
        g.apply(Play.make("9D", "5C 6C 7C 8C 9D"))
    rejects(g, Draw(), "give up (draw 0 penalty cards")
    g.apply(GiveUp())
    assert g.actions == [{"player": 0, "type": "penalty", "drawn": []}] and g.current == 1


def test_a_play_interrupts_the_passes():
    g = game("machiavelli", ["2H", "8C 2C", "3S"], "5C 6C 7C", "")
    g.apply(Pass())
    g.apply(Play.make("8C", "5C 6C 7C 8C"))
    g.apply(Pass())
    g.apply(Pass())
    assert not g.over  # only two passes since the play
    g.apply(Pass())
    assert g.over


def test_going_out_ends_the_hand_at_once():
    g = game("machiavelli", ["8C", "2C 3C"], "5C 6C 7C", "KS")
    g.apply(Play.make("8C", "5C 6C 7C 8C"))
    assert g.over and g.hand_results[-1].ended == "out"
    assert g.results()[0]["winner"] and g.results()[1]["score"] == 2


# -- §4 variants ------------------------------------------------------------------------
def test_machiavelli_draw_ends_the_turn():
    g = game("machiavelli", ["8D", "2C"], "5C 6C 7C", "KS QS")
    g.apply(Draw())
    assert g.current == 1 and [str(c) for c in g.hands[0]] == ["8D", "KS"]


def test_draw_first_card_cannot_be_played_that_turn():
    g = game("machiavelli:draw_first=true", ["2H", "2C"], "5C 6C 7C", "8C QS")
    rejects(g, Play.make("2H", "5C 6C 7C | 2H"), "you may not play now")
    g.apply(Draw())
    rejects(g, Play.make("8C", "5C 6C 7C 8C"), "drawn this turn")
    g.apply(Pass())
    assert g.current == 1


def test_manipulation_forced_play_refuses_a_draw_once_with_a_hint():
    g = game("manipulation", ["8C 2H", "2C"], "5C 6C 7C", "KS QS")
    with pytest.raises(ForcedPlayHint) as info:
        g.apply(Draw())
    assert "8C can be played" in info.value.hint and "no rearrangement" in info.value.hint
    g.apply(Draw())  # asking again goes through
    assert g.current == 0  # draw until able: the turn goes on
    g.apply(Play.make("8C", "5C 6C 7C 8C"))
    assert g.current == 1


def test_manipulation_trust_does_not_check():
    g = game("manipulation:forced_check=trust", ["8C 2H", "2C"], "5C 6C 7C", "KS QS")
    g.apply(Draw())
    assert g.current == 0 and len(g.hands[0]) == 3


@pytest.mark.parametrize("check, refused", [("hint", True), ("trust", False)])
def test_shanghai_forced_check_option_hint_or_trust(check, refused):
    g = game(f"shanghai:forced_check={check}", ["8C 2H", "2C"], "5C 6C 7C", "KS QS")
    if refused:
        with pytest.raises(ForcedPlayHint):
            g.apply(Draw())
    g.apply(Draw())
    assert g.current == 0 and len(g.hands[0]) == 3


def test_manipulation_hint_tells_a_rearrangement():
    g = game("manipulation", ["8D 8H", "2C"], "5C 6C 7C 8C", "KS QS")
    with pytest.raises(ForcedPlayHint) as info:
        g.apply(Draw())
    assert "needs a rearrangement" in info.value.hint


def test_guadalupe_play_then_draw_one_or_draw_two():
    g = game("guadalupe", ["8C 2H", "2C 3C"], "5C 6C 7C", "KS QS JS")
    g.apply(Play.make("8C", "5C 6C 7C 8C"))
    assert [a["type"] for a in g.actions] == ["play", "draw"] and len(g.hands[0]) == 2
    g.apply(Draw())
    assert g.actions[-1]["drawn"] == ["QS", "JS"] and g.current == 0


def test_carousel_draws_first_up_to_three():
    g = game("carousel", ["8C 2H", "2C 3C"], "5C 6C 7C", "KS QS JS 10S 9S")
    rejects(g, Play.make("8C", "5C 6C 7C 8C"), "you may not play now")
    g.apply(Draw())
    g.apply(Draw())
    assert g.current == 0
    g.apply(Draw())
    assert g.current == 1  # the third draw ends the turn


def test_carousel_knock_with_an_undercut():
    # p0 plays 8C and is left with 2H 3H (5 points): may knock; p1 holds AS 2S 2D (5 points)
    # and ties the knocker, so p1 wins with the undercut bonus.
    g = game("carousel", ["8C 2H 3H", "AS 2S 2D"], "5C 6C 7C", "AD KS QS JS")
    g.apply(Draw())  # AD: p0 now holds 8C 2H 3H AD (value 14 before the play)
    rejects(g, Play.make("8C", "5C 6C 7C 8C", knock=True), "knock")  # 6 points left
    g2 = game("carousel", ["8C 2H 3H", "AS 2S 2D"], "5C 6C 7C", "KS QS JS")
    g2.apply(Draw())  # KS: 8C 2H 3H KS
    g2.apply(Play.make("8C", "5C 6C 7C 8C"))  # no knock: the turn ends
    assert g2.current == 1
    g3 = game("carousel", ["8C 9C 2H 3H", "AS 2S 2D"], "5C 6C 7C", "10C QS JS")
    g3.apply(Draw())  # 10C
    g3.apply(Play.make("8C 9C 10C", "5C 6C 7C 8C 9C 10C", knock=True))
    result = g3.hand_results[-1]
    assert result.ended == "knock" and result.winners == (False, True)
    assert result.scores == (0, 10)  # differences (5 - 5) + 10 for the undercut


def test_carousel_knocker_with_the_lowest_hand_scores_the_differences():
    g = game("carousel", ["8C 9C 2H", "AS 2S 2D 3D"], "5C 6C 7C", "10C QS JS")
    g.apply(Draw())
    g.apply(Play.make("8C 9C 10C", "5C 6C 7C 8C 9C 10C", knock=True))
    assert g.hand_results[-1].winners == (True, False)
    assert g.hand_results[-1].scores == (8 - 2, 0)


def test_carousel_last_turns_after_the_stock_runs_out():
    g = game("carousel", ["2H 4D", "3S 7D", "9D KD"], "5C 6C 7C", "KS")
    g.apply(Draw())  # p0 takes the last card
    g.apply(Pass())  # stock empty: p0 may pass; last turns for p1, p2, then p0
    assert g.current == 1 and g.turn.last_turn
    assert g.apply(Draw()) == Pass()  # the stock is empty: a draw is a pass, no card moves
    assert g.actions[-1] == {"player": 1, "type": "pass"} and g.current == 2
    g.apply(Pass())
    g.apply(Pass())
    assert g.over and g.hand_results[-1].ended == "last_turns"
    assert g.hand_results[-1].winners == (False, True, False)  # 3S 7D = 10 is lowest


def test_bga_ends_when_the_stock_is_empty():
    g = game("bga", ["2H 9D", "3S", "4D 5D 6S"], "5C 6C 7C", "KS")
    g.apply(Draw())
    assert g.over and g.hand_results[-1].ended == "stock"
    assert [r["winner"] for r in g.results()] == [False, True, False]


def test_shanghai_deals_three_three_three_one():
    g = Game("shanghai", ["a", "b", "c"], seed=4)
    assert [len(h) for h in g.hands] == [10, 10, 10]
    assert len(g.stock) == 104 - 30


def test_vatican_opening_needs_a_three_card_run_from_the_hand():
    g = game("vatican", ["8C 4D 5D 6D", "2C"], "5C 6C 7C", "KS")
    rejects(g, Play.make("8C", "5C 6C 7C 8C"), "3-card run")
    g.apply(Play.make("4D 5D 6D 8C", "5C 6C 7C 8C | 4D 5D 6D"))
    assert g.opened[0]


def test_vatican_opening_run_may_be_rearranged_in_the_same_turn():
    """docs/rules.md §6: the opening checks the hand cards played for a 3-card suited run;
    the run may be laid and rearranged at once (table 7S 7D 7C | 8S 8D 8C, hand
    6H 7H 8H 6S 6D, unopened: all five go). Deliberate: do not "fix" it."""
    g = game("vatican", ["6H 7H 8H 6S 6D 2C", "2D"], "7S 7D 7C | 8S 8D 8C", "KS")
    assert not g.opened[0]
    rejects(g, Play.make("7H 6S 6D 6H", "7S 7D 7C 7H | 8S 8D 8C | 6S 6D 6H"), "3-card run")
    g.apply(Play.make("6H 7H 8H 6S 6D", "7S 7D 7C 7H | 8S 8D 8C 8H | 6S 6D 6H"))
    assert g.opened[0] and [str(c) for c in g.hands[0]] == ["2C"]


def test_opening_36_from_the_hand_alone():
    g = game("machiavelli:opening=36", ["KS KH KD 8C 2H", "2C"], "5C 6C 7C", "QS")
    rejects(g, Play.make("KS KH KD 8C", "5C 6C 7C 8C | KS KH KD"), "may not touch the table")
    rejects(g, Play.make("KS KH KD", "5C 6C 7C | KS KH KD"), "36 points")
    g2 = game("machiavelli:opening=36", ["KS KH KD QS QH QD 2H", "2C"], "5C 6C 7C", "JS")
    g2.apply(Play.make("KS KH KD QS QH QD", "5C 6C 7C | KS KH KD | QS QH QD"))
    assert g2.opened[0] and not g2.opened[1]


def test_tahiti_deals_four_singles_and_they_may_stay_alone():
    g = Game("tahiti", ["a", "b"], seed=2)
    assert len(g.table) == 4 and all(len(group) == 1 for group in g.table)
    assert all(not group[0].joker for group in g.table)
    assert [len(h) for h in g.hands] == [5, 5]


def test_a_single_may_join_a_group_but_no_other_card_stays_alone():
    g = game("tahiti", ["6C 7C 2H 3H", "2C"], "5C | 9D", "KS")
    rejects(g, Play.make("6C 7C 2H", "5C 6C 7C | 9D | 2H"), "not an original single")
    g.apply(Play.make("6C 7C", "5C 6C 7C | 9D"))
    assert g.table == [tuple(parse_cards("5C 6C 7C")), tuple(parse_cards("9D"))]


# -- §8 jokers, enforced by the referee -------------------------------------------------------
def test_carousel_joker_keeps_its_name_without_the_real_card():
    g = game("carousel", ["8S 10S", "2C"], "6S *6H 6D 6C | 9D 9C 9H", "KS QS")
    g.apply(Draw())
    rejects(g, Play.make("8S 10S", "6S 6D 6C | 9D 9C 9H | 8S *9S 10S"), "new name")
    g2 = game("carousel", ["8S 10S", "2C"], "6S *6H 6D 6C | 6H 7H 8H", "KS QS")
    g2.apply(Draw())  # with a real 6H on the table the joker may be renamed
    g2.apply(Play.make("8S 10S", "6S 6D 6C | 6H 7H 8H | 8S *9S 10S"))
    assert g2.current == 1


def test_tahiti_locked_group_at_the_referee():
    g = game("tahiti", ["8S 8D 2H", "2C"], "5H *6H 7H 8H", "KS")
    rejects(g, Play.make("8S 8D", "5H *6H 7H | 8S 8H 8D"), "locked")


def test_vatican_joker_stays_at_the_referee():
    g = game("vatican", ["5S 5D 2H", "2C"], "*5H 6H 7H 8H", "KS")
    g.opened[0] = True
    rejects(g, Play.make("5S 5D", "5S *5H 5D | 6H 7H 8H"), "next to")


# -- §7 scoring ------------------------------------------------------------------------------
@pytest.mark.parametrize("variant, hands, scores, winners", [
    ("machiavelli", ["2C 3C", "KS", "AS 4D 5D"], (2, 1, 3), (False, True, False)),
    ("guadalupe", ["2C", "KS"], (1, 1), (True, True)),
    ("shanghai", ["2C 3C", "KS"], (2, 1), (False, True)),
    ("manipulation", ["AS KS 2C", "10D 5C"], (30, 15), (False, True)),
    ("tahiti", ["AS KS 2C", "10D 9C"], (23, 19), (False, True)),
    ("vatican", ["2C 3C", "KS"], (2, 1), (False, True)),
])
def test_deadlock_scoring_per_variant(variant, hands, scores, winners):
    from bots.referee.scoring import score_hand

    result = score_hand(__import__("solver").Variant.parse(variant),
                        [parse_cards(h) for h in hands], "deadlock")
    assert result.scores == scores and result.winners == winners


def test_tahiti_joker_costs_thirty_and_carousel_joker_twenty_five():
    from bots.referee.scoring import hand_value
    from solver import Variant

    assert hand_value(Variant.parse("tahiti"), parse_cards("* AS")) == 41
    assert hand_value(Variant.parse("carousel"), parse_cards("* AS KD")) == 36


def test_going_out_in_carousel_pays_the_others_hands_plus_25():
    from bots.referee.scoring import score_hand
    from solver import Variant

    result = score_hand(Variant.parse("carousel"), [[], parse_cards("KS 2C"), parse_cards("*")],
                        "out", 0)
    assert result.scores == (12 + 25 + 25, 0, 0)


def test_match_end_rules():
    from bots.referee.scoring import final_totals, match_over
    from solver import Variant

    manipulation = Variant.parse("manipulation")
    assert not match_over(manipulation, [150, 199], 5)
    assert match_over(manipulation, [150, 205], 6)
    assert not match_over(manipulation, [150, 150, 210], 6)  # a tie for lowest plays on
    assert match_over(Variant.parse("machiavelli:rounds=3"), [1, 2], 3)
    carousel = Variant.parse("carousel")
    assert match_over(carousel, [151, 40], 4)
    assert final_totals(carousel, [151, 40], [3, 1]) == [151 + 100 + 75, 40 + 25]


def test_a_manipulation_match_plays_hands_until_the_target():
    from bots.arena.selfplay import play_game

    g = play_game("manipulation", ["greedy"], 2, seed=3)
    assert len(g.hand_records) > 1 and max(g.totals) >= 200
    assert sum(r["winner"] for r in g.results()) == 1

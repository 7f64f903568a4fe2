"""The kernel backend: encodes a ``Problem`` for the numba kernels and decodes their moves.

The numba functions live in ``solver.kernel`` and see arrays only; this module turns card
counts into per-step arrays, runs the search, and rebuilds the groups from the chosen moves.
Step ``t`` of the search is rank index ``t`` (0 the ace, 1..12 the ranks 2..K), so the card of
suit ``s`` at step ``t`` has index ``s * 13 + t``.

Jokers (docs/rules.md §8): ``solver.kernel_jokers`` turns a problem's jokers into one or more
branches (per-card joker limits each); ``search`` runs them best first, each later branch
only looking for answers above the best so far, and adds back what a branch settled before
its search (tahiti's locked groups that survive). ``why_not`` says what the kernel cannot
answer exactly; ``certified`` covers tahiti with two free jokers position by position.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
from numba import njit

from solver import automaton, automaton_flagged, flagged_decode, kernel, kernel_jokers, opening
from solver.cards import N_CARD_TYPES
from solver.constants import (
    ACE_CODES,
    ACE_HIGH,
    ACE_LOW,
    JOKER_CODE,
    MAX_COPIES,
    MAX_RUN,
    N_RANKS,
    N_SUITS,
    NO_CEILING,
    NO_SCORE,
    ROW_WIDTH,
)
from solver.errors import SolverError
from solver.problem import POINTS, Partition, Problem, nothing_played, read_only
from solver.tidy import pad
from solver.warmup import load_opening


def why_not(problem: Problem) -> str:
    """Why the kernel does not apply to ``problem`` ('' when it does).

    The kernel places jokers as copies of the cards they name, with the rules of every joker
    variant written as per-card limits and a few branches (``solver.kernel_jokers``): it
    answers carousel, vatican's held jokers, tahiti's locked groups and both objectives
    exactly. What is left: tahiti with two jokers or more free to move, whose
    one-joker-per-group rule ties jokers to groups (``certified`` then tells, per position,
    whether the kernel's answer is exact: with two or three, always), and more than
    ``MAX_COPIES`` copies of one card.
    """
    reason = kernel_jokers.why_not(problem)
    if reason:
        return reason
    if problem.table_jokers + problem.hand_jokers:
        for branch in kernel_jokers.inputs(problem):
            if _copies(problem, branch) > MAX_COPIES:
                return f"more than {MAX_COPIES} copies of a card with jokers"
    return ""


def applies(problem: Problem) -> bool:
    """True when the kernel answers ``problem`` exactly."""
    return not why_not(problem)


ONE_JOKER_PER_GROUP = "one_joker_per_group"  # stats: 1.0 when the answer keeps tahiti's rule
# The last problem ``certified`` and its exact answer (None: not certified), a tuple swapped
# whole so that threads sharing the module never mix two problems.
_certificate: list[tuple[Problem | None, Partition | None]] = [(None, None)]
_NODES = [0]  # nodes the kernel's searches in this process have expanded (``nodes_expanded``)


def nodes_expanded() -> int:
    """Nodes the kernel's searches (``solve``) have expanded in this process so far: a
    deterministic measure of their work, which the bots' work meter (``bots.players.work``)
    reads before and after a search. A search with jokers costs far more per node than one
    without, so it is counted apart."""
    return _NODES[0]


def count_nodes(nodes: int) -> None:
    """Count ``nodes`` that a kernel search run outside ``solve`` expanded (the hint's,
    ``solver.lex_hint.solve_and_least_change``) in ``nodes_expanded``; negative to take back
    the nodes of searches nobody asked for (``solver.warmup.load_kernels``' own)."""
    _NODES[0] += nodes


def certified(problem: Problem, node_limit: int = 0) -> bool:
    """Tahiti with two or more free jokers, beyond ``why_not``'s rules: True when the kernel's
    answer, found with free jokers as copies (an upper bound), can be laid with one joker per
    group, or a play with a hand joker held back reaches that bound (``_a_joker_fewer``):
    then it is exact, and ``solve`` returns it at once. Solves the problem, within
    ``node_limit`` (0: none): a search cut short certifies nothing."""
    if why_not(problem) != kernel_jokers.TWO_FREE_JOKERS:
        return False
    asked, exact = _certificate[0]
    if asked is not problem:
        exact = _exact_answer(problem, node_limit)
        _certificate[0] = (problem, exact)
    return exact is not None


def _exact_answer(problem: Problem, node_limit: int) -> Partition | None:
    """The kernel's answer when it is provably exact for ``problem`` (free jokers as copies
    laid one per group, or ``_a_joker_fewer``), else None."""
    reason = why_not(problem)
    if reason not in ("", kernel_jokers.TWO_FREE_JOKERS):
        return None
    answer, bounds = _solved(problem, node_limit)
    if not answer.optimal or not reason or answer.stats.get(ONE_JOKER_PER_GROUP):
        return answer if answer.optimal else None
    return _a_joker_fewer(problem, answer.score, node_limit) or \
        _names_barred(problem, answer, node_limit, bounds) or \
        _flagged_answer(problem, node_limit, bounds)


MOST_BARRED_SEARCHES = 8  # searches ``_names_barred`` may run for one position
BARRED_PROBE_WORK = 4_000
"""Kernel work (nodes and the moves they write) a barred-name search may take when the
flagged search answers exactly if it finds nothing (``_flagged_covers``): then it is only a
probe for a cheap certificate. Over the tahiti positions of 19 seeds' games (``bench.
joker_games``' harvest) the 33 barred-name searches that certified an answer took at most
475 nodes; those that found nothing took up to 4,071 each and proved nothing, the flagged
search following them anyway. At 2,000 one certificate was cut short (its position took
twice as long through the flagged search); at 4,000 none was (docs/performance.md §3)."""
BARRED = "barred_names"  # stats: joker names barred to certify a tahiti answer


def _names_barred(problem: Problem, answer: Partition, node_limit: int,
                  bounds: tuple[int, ...] | None = None) -> Partition | None:
    """Tahiti, when ``answer``, the best play with free jokers as copies (its score the
    ``ceiling``, an upper bound), cannot be laid one joker per group: another play that
    reaches ``ceiling`` and can, or None.

    Two jokers share a group only if they name cards of one suit (a run) or one rank (a
    set); the copies put them so, but another play of the same score may not. Each branch
    that can reach ``ceiling`` with two jokers or more free is searched again with no joker
    naming one of the cards the shared jokers name (``kernel_jokers.barred``), looking only
    for plays worth ``ceiling`` (its floor); a play found that again shares a group bars
    its own names on top, up to ``MOST_BARRED_SEARCHES`` searches in all. Exact: a barred
    search is a restriction of its branch, so every play it finds is one the copies allow
    and scores at most ``ceiling``; one that scores ``ceiling`` and is laid one joker per
    group (``kernel_jokers.one_joker_per_group``) keeps every tahiti rule, the others
    holding in each branch by construction, so it is a best play. Otherwise nothing is
    certified (CP-SAT answers). ``bounds``: each branch's most with free jokers as copies
    (``_search_branches``); a branch that showed it cannot reach ``ceiling`` is not
    searched, as no restriction of it can, nor one that goes straight to the flagged search
    (``_flagged_at_once``). A search stops at its first play worth ``ceiling``, and is
    capped at ``BARRED_PROBE_WORK`` when the flagged search covers every branch
    (``_flagged_covers``): a capped search certifies nothing, and the flagged search then
    answers exactly."""
    ceiling = answer.score
    shared = kernel_jokers.shared_joker_names(answer.groups, answer.lengths)
    todo: list[tuple[kernel_jokers.KernelInput, tuple[int, ...]]] = [
        (branch, (name,)) for i, branch in enumerate(kernel_jokers.inputs(problem))
            if branch.wild >= 2 and not _flagged_at_once(problem, branch)
            and _ceiling(problem, branch) >= ceiling
            and (bounds is None or bounds[i] >= ceiling) for name in shared]
    share = max(1, node_limit // MOST_BARRED_SEARCHES) if node_limit else 0
    if _flagged_covers(problem):  # a probe: the flagged search answers if it finds nothing
        share = min(share, BARRED_PROBE_WORK) if share else BARRED_PROBE_WORK
    for _ in range(MOST_BARRED_SEARCHES):
        if not todo:
            break
        branch, names = todo.pop(0)
        taken = _taken(problem, branch)
        found = _search(problem, kernel_jokers.barred(branch, names), share,
                        ceiling - taken - 1, ceiling=ceiling - taken)
        if found is None or found.score < ceiling:
            continue
        if found.stats.get(ONE_JOKER_PER_GROUP):
            return replace(found, optimal=True, stats={**found.stats, BARRED: len(names)})
        todo.extend((branch, names + (name,)) for name in
                    kernel_jokers.shared_joker_names(found.groups, found.lengths)
                    if name not in names)
    return None


FLAGGED = "flagged"  # stats: 1.0 when tahiti's flagged automaton found the answer


def _flagged_answer(problem: Problem, node_limit: int,
                    bounds: tuple[int, ...] | None = None) -> Partition | None:
    """Tahiti, when the plays found with free jokers as copies cannot be laid one joker per
    group and the cheaper certificates fail: the answer of a search whose branches with two
    or three free jokers use the flagged run automaton (``solver.automaton_flagged``), which
    keeps one joker per run, and at most one joker per set at each rank. Those branches'
    answers are their best plays; the others' (four free jokers) are upper bounds, so the
    best of all is exact when it is laid one joker per group; otherwise None (CP-SAT
    answers). Kept for last: the flagged automaton is up to ten times the plain one's size
    and its nodes cost more (jokers split between sets and runs). ``bounds``: each branch's
    most with free jokers as copies (``_search_branches``), a relaxation of the flagged
    search: a branch that cannot beat the best so far there is not searched again."""
    if problem.hand_only or problem.run_from_hand or \
            not any(_flagged(problem, b) for b in kernel_jokers.inputs(problem)):
        return None
    answer, _ = _search_branches(problem, node_limit, flagged=True, known=bounds)
    if answer is None or not answer.optimal or not answer.stats.get(ONE_JOKER_PER_GROUP):
        return None
    return replace(answer, stats={**answer.stats, FLAGGED: 1.0})


def _a_joker_fewer(problem: Problem, ceiling: int, node_limit: int) -> Partition | None:
    """Tahiti, when the best play with free jokers as copies (``ceiling``, an upper bound)
    cannot be laid one joker per group: a play that reaches ``ceiling`` anyway, or None.

    On the ``cards`` objective, hold one hand joker back and take the exact answer without
    it (``_exact_answer``: with one joker free to move the kernel's answer is exact and valid,
    as no group can hold two). If it already scores ``ceiling`` it is the best play; if it
    scores ``ceiling - 1`` and the held joker fits a group that holds none
    (``kernel_jokers.with_one_more_joker``, never named like a locked group's joker: that
    would count as the freed joker keeping its name), that play scores ``ceiling``. Nothing
    scores more than ``ceiling``, so either is exact; otherwise nothing is certified (CP-SAT
    answers). The play is valid: the answer without the held joker is laid one joker per
    group (it is certified in turn), and the held joker goes into a group that holds none."""
    weight = int(problem.weight.max())
    if problem.hand_jokers == 0 or int(problem.weight.min()) != weight:
        return None
    answer = _exact_answer(replace(problem, hand_jokers=problem.hand_jokers - 1), node_limit)
    if answer is None or answer.score < ceiling - weight:
        return None
    stats = {**answer.stats, ONE_JOKER_PER_GROUP: 1.0}
    if answer.score == ceiling:
        return replace(answer, stats=stats)
    locked_names = frozenset(name for name, _ in problem.locked)
    grown = kernel_jokers.with_one_more_joker(answer.groups, answer.lengths, problem.ace,
                                              locked_names)
    if grown is None:
        return None
    return Partition(*grown, answer.played, ceiling, True, stats, answer.played_jokers + 1)


def solve(problem: Problem, node_limit: int = 0) -> Partition:
    """Exact answer from the kernel for any problem it applies to (``why_not``).

    ``node_limit`` (0: none) caps the search; a capped answer is valid but maybe not optimal.
    """
    asked, exact = _certificate[0]
    if asked is problem and exact is not None:
        return exact
    return _solved(problem, node_limit)[0]


def _solved(problem: Problem, node_limit: int) -> tuple[Partition, tuple[int, ...] | None]:
    """``solve``'s search, and for a plain one (no opening to lay) each joker branch's upper
    bound (``_search_branches``); None for the openings' searches."""
    if problem.hand_only:
        return _solve_opening(problem), None
    if problem.run_from_hand:
        best: Partition | None = None
        runs = problem.hand_runs()
        # one search per run the opening may hold: they share the budget, and each must
        # beat the best so far (one that played the whole hand ends the others at once)
        share = max(1, node_limit // max(len(runs), 1)) if node_limit else 0
        for run in runs:
            forced = np.zeros_like(problem.hand)
            forced[list(run)] = 1
            answer = search(problem.with_forced(forced), share,
                            floor=NO_SCORE if best is None else best.score)
            if answer is not None and (best is None or answer.score > best.score):
                best = answer
        return (best if best is not None else nothing_played(problem, optimal=True)), None
    answer, bounds = _search_branches(problem, node_limit)
    if answer is None:
        raise ValueError("the table cannot be split into valid groups")
    return answer, bounds


def search(problem: Problem, node_limit: int = 0, flagged: bool = False,
           floor: int = NO_SCORE) -> Partition | None:
    """The kernel's answer for ``problem`` as it stands (forced cards included): the best of
    its joker branches (``solver.kernel_jokers``), or None when no partition exists: the
    forced cards cannot all be placed. The branches share ``node_limit``; the most promising
    goes first (the highest ceiling, then the most jokers free to move: among tahiti's
    branches of one ceiling, the one that frees every joker it can usually scores best, and
    its answer lets the others stop at their floors), and a branch that cannot beat the best
    answer so far is not searched. In tahiti (``_shares``) each branch may take what the
    branches before it left. ``flagged``: tahiti's branches with two or three free jokers
    search with the flagged automaton (``_flagged_answer``). ``floor``: a score the answer
    must beat (the best of the caller's earlier searches): a branch that cannot is not
    searched, and None comes back when none does."""
    return _search_branches(problem, node_limit, flagged, floor=floor)[0]


def _search_branches(problem: Problem, node_limit: int = 0, flagged: bool = False,
                     known: tuple[int, ...] | None = None, floor: int = NO_SCORE
                     ) -> tuple[Partition | None, tuple[int, ...]]:
    """``search``, and the most each branch can score as far as it showed (in
    ``kernel_jokers.inputs`` order): its answer's score when its search was exact, what it
    proved it cannot beat when it found nothing above its floor, else its ceiling (for a
    branch searched for a tie with the flagged automaton, ``_tie``, laid one joker per group:
    a bound as valid for the certificates that follow, which look only for such plays).
    ``known``: such bounds from an earlier search of a relaxation of this one (tahiti's
    free jokers as copies, for the flagged search), taken as the branches' ceilings.
    ``floor``: as ``search``'s."""
    inputs = kernel_jokers.inputs(problem)
    ceilings = [_ceiling(problem, b) if known is None else min(_ceiling(problem, b), known[i])
                for i, b in enumerate(inputs)]
    order = sorted(range(len(inputs)), key=lambda i: (-ceilings[i], -inputs[i].wild))
    bounds = list(ceilings)
    shares = _shares(problem, node_limit, len(inputs))
    best: Partition | None = None
    optimal = True
    beat = floor  # the score an answer must beat: the caller's
    for i in order:
        ceiling, branch = ceilings[i], inputs[i]
        if ceiling <= beat or (best is not None and best.optimal and ceiling <= best.score
                               and best.stats[ONE_JOKER_PER_GROUP]):
            continue
        taken = _taken(problem, branch)
        branch_floor = NO_SCORE if beat == NO_SCORE else beat - taken
        if best is not None and best.optimal:  # a later branch must beat it (or tie, uncertified)
            branch_floor = max(branch_floor,
                               best.score - taken - (not best.stats[ONE_JOKER_PER_GROUP]))
        share = shares.next()
        if share < 0:  # the limit is spent: the branches left are not searched
            optimal = False
            if best is None:  # none searched found a partition: nothing proven, play nothing
                best = nothing_played(problem, optimal=False)
                best.stats[ONE_JOKER_PER_GROUP] = 1.0
            break
        answer = _search(problem, branch, share, branch_floor, flagged or _tie(best),
                         NO_CEILING if known is None else ceiling - taken)
        if answer is None:  # proved: nothing above the floor
            bounds[i] = min(ceiling, branch_floor + taken)
            continue
        if answer.optimal:
            bounds[i] = answer.score
        optimal = optimal and answer.optimal
        if best is None or answer.score > best.score or (
                answer.score == best.score and answer.stats[ONE_JOKER_PER_GROUP]
                > best.stats[ONE_JOKER_PER_GROUP]):
            best = answer
    if best is not None:
        best.optimal = optimal
    return best, tuple(bounds)


def _tie(best: Partition | None) -> bool:
    """Whether the next branch searches for a tie with ``best`` laid one joker per group, so
    with tahiti's flagged automaton where the branch can take it (``_flagged``): ``best`` is
    a best play with free jokers as copies that two jokers share a group of. The plain
    search's tie could share a group again; the flagged one finds only plays that keep the
    rule, so the first it finds settles the answer. On seed 1234's 14-card hand (three
    jokers, every branch worth the whole hand) the plain ties took 7,726 nodes over four
    branches before one kept it; the flagged one 66 (docs/performance.md §3)."""
    return best is not None and best.optimal and not best.stats[ONE_JOKER_PER_GROUP]


class _Shares:
    """How much of a search's ``node_limit`` each joker branch may take (0: no limit).

    Split evenly up front, except in tahiti, where a hand with two free jokers and locked
    groups gives hundreds of branches (docs/rules.md §8.3): an even share cut every branch
    short, so none was exact, none could rule the others out, and the search paid every
    branch's set-up (about 1 s on a 56-card hand that the first branch solves in 1,174 nodes,
    13 ms). There each branch, the most promising first, may take what is left, and once
    the limit is spent the branches left are not searched (``next`` gives -1)."""

    def __init__(self, node_limit: int, branches: int, in_turn: bool) -> None:
        self.node_limit = node_limit
        self.in_turn = in_turn and node_limit > 0
        self.even = max(1, node_limit // max(branches, 1)) if node_limit else 0
        self.start = _NODES[0]

    def next(self) -> int:
        if not self.in_turn:
            return self.even
        left = self.node_limit - (_NODES[0] - self.start)
        return left if left > 0 else -1


def _shares(problem: Problem, node_limit: int, branches: int) -> _Shares:
    """The branch budgets of one search (``_Shares``): taken in turn in tahiti."""
    return _Shares(node_limit, branches, problem.joker_rule == "tahiti")


def _ceiling(problem: Problem, branch: kernel_jokers.KernelInput) -> int:
    """The most a branch can score: every hand card it holds, and every hand joker at the
    highest weight."""
    return int(problem.weight @ branch.hand) + _taken(problem, branch) + \
        problem.hand_jokers * int(problem.weight.max())


def _taken(problem: Problem, branch: kernel_jokers.KernelInput) -> int:
    """What the hand cards a branch grew its kept groups with score (outside the search)."""
    return 0 if branch.kept_played is None else int(problem.weight @ branch.kept_played)


NO_DOMINATORS = read_only(np.full((1, 1), -1, dtype=np.int64))
"""``kernel.no_dominators()`` for a search called from Python: no dominated node skipped."""
NO_GROUPS = (read_only(np.zeros((0, ROW_WIDTH), dtype=np.int64)),
             read_only(np.zeros(0, dtype=np.int64)))


def _copies(problem: Problem, branch: kernel_jokers.KernelInput) -> int:
    """Copies of one card the search may place: the most of any card available (and table
    jokers fixed to it), plus the jokers free to take any name."""
    real = np.minimum(branch.need - branch.joker_rows[kernel_jokers.FIXED] + branch.free
                      + branch.hand, problem.decks) + branch.joker_rows[kernel_jokers.FIXED]
    return max(1, int(real.max(initial=0)) + branch.wild)


def automaton_states(problem: Problem) -> int:
    """The most run-automaton states any of ``problem``'s joker branches searches with (the
    node cost grows with it: 30 states for two copies of a card, 80 for three, 175 for
    four)."""
    return max((automaton.run_automaton(_copies(problem, branch), branch.most_required and
                                        kernel_jokers.MOST_REQUIRED)[1].shape[0]
                for branch in kernel_jokers.inputs(problem)), default=0)


def root_bound(problem: Problem) -> int:
    """The bound the kernel's searches for ``problem`` prove their answers against, over
    its joker branches (``kernel.root_bound`` plus what a branch's kept groups took): the
    best score is at most this, and the gap is the search's proof work (``bench.joker_games``
    lists it for the slowest positions)."""
    most = NO_SCORE
    for branch in kernel_jokers.inputs(problem):
        cell, cfg, init, delta, accept = _search_inputs(problem, branch, NO_SCORE)
        copies = int(cfg[kernel.COPIES])
        bound = kernel.root_bound(cell, cfg, init, delta, accept, automaton.set_vectors(copies))
        if bound > NO_SCORE:
            most = max(most, int(bound) + _taken(problem, branch))
    return most


def _flagged_at_once(problem: Problem, branch: kernel_jokers.KernelInput) -> bool:
    """Whether a branch goes straight to the flagged search, not through the barred-name
    certificates first (``_names_barred``): two free jokers, where the flagged automaton is
    small (116-584 states) and its search answers exactly. A barred-name search that finds
    nothing proves nothing, so the flagged search follows it anyway: on seed 8086's 10-card
    hand (``bench.joker_games``) two such searches of about 1,580 nodes (5.3 ms) came before
    the flagged search (7.4 ms). Where a barred-name search would have certified the answer
    at once, the flagged search costs up to 2.5 ms more (docs/performance.md §3). With
    three free jokers (553-1,777 states, and bounds of about 2.5 ms before the first node)
    the barred names go first."""
    return branch.wild == 2 and _flagged(problem, branch)


def _flagged_covers(problem: Problem) -> bool:
    """Whether ``_flagged_answer`` is exact for ``problem`` whatever the barred-name
    certificates find: it searches (no opening to lay) and every branch with two or more free
    jokers takes the flagged automaton, so each branch's answer is its best play laid one
    joker per group (none left as an upper bound for CP-SAT to settle)."""
    return not problem.hand_only and not problem.run_from_hand and all(
        _flagged(problem, b) for b in kernel_jokers.inputs(problem) if b.wild >= 2)


def _flagged(problem: Problem, branch: kernel_jokers.KernelInput) -> bool:
    """Whether a branch can search with tahiti's flagged automaton
    (``solver.automaton_flagged``): two or three jokers free to move, which the plain
    automaton's copies could put in one group."""
    return problem.joker_rule == "tahiti" and \
        2 <= branch.wild <= automaton_flagged.MOST_WILD and \
        automaton_flagged.available(_copies(problem, branch), branch.wild)


def _automaton(problem: Problem, branch: kernel_jokers.KernelInput, copies: int,
               flagged: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A branch's run automaton ``(init, delta, accept)``: the flagged one when asked
    (``flagged``) and the branch can (``_flagged``), else the plain one (with vatican's runs
    required to go on)."""
    if flagged and _flagged(problem, branch):
        return automaton_flagged.flagged_run_automaton(copies, branch.wild)
    return automaton.run_automaton(copies, branch.most_required and
                                   kernel_jokers.MOST_REQUIRED)


def _search_inputs(problem: Problem, branch: kernel_jokers.KernelInput, floor: int,
                   flagged: bool = False, ceiling: int = NO_CEILING) -> tuple[np.ndarray, ...]:
    """One branch's ``(cell, cfg, init, delta, accept)`` for the kernel (``flagged``:
    tahiti's flagged automaton where the branch can take it; ``floor`` and ``ceiling`` as
    ``_search``'s)."""
    copies = _copies(problem, branch)
    flagged = flagged and _flagged(problem, branch)
    init, delta, accept = _automaton(problem, branch, copies, flagged)
    cell = kernel.cell_arrays(branch.need, branch.free, branch.hand, problem.weight,
                              branch.forced, problem.weight, branch.joker_rows,
                              ACE_CODES[problem.ace], branch.wild)
    cfg = search_config(problem.ace, copies, branch.wild, branch.mandatory,
                        int(problem.weight.max()), branch.labelled, floor, flagged, ceiling)
    return cell, cfg, init, delta, accept


def search_config(ace: str, copies: int, wild: int = 0, mandatory: int = 0,
                  weight_max: int = 1, labelled: int = 0, floor: int = NO_SCORE,
                  flagged: bool = False, ceiling: int = NO_CEILING) -> np.ndarray:
    """The kernel's ``cfg`` vector (fields ``kernel.GMAX`` .. ``kernel.CEILING``), written in one
    place for every caller (``config_vector``, which numba callers use directly): high aces
    per copy, whether low aces may start runs, copies, placeable jokers (``wild``, of which
    ``mandatory`` lie on the table), the costliest card, table jokers in play (``labelled``),
    the score a partition must beat (``floor``), whether the run automaton is tahiti's
    flagged one (``flagged``: ``solver.automaton_flagged``) and the most a partition can
    score as the caller proved it (``ceiling``: the search stops at the first worth it)."""
    return config_vector(ACE_CODES[ace], copies, wild, mandatory, weight_max, labelled, floor,
                         int(flagged), ceiling)


@njit(cache=True)
def config_vector(ace_mode, copies, wild, mandatory, weight_max, labelled, floor, flagged=0,
                  ceiling=NO_CEILING):
    """``search_config`` with the ace mode as its code (``solver.constants.ACE_CODES``)."""
    cfg = np.zeros(kernel.N_CFG, dtype=np.int64)
    cfg[kernel.GMAX] = 0 if ace_mode == ACE_LOW else copies
    cfg[kernel.R0_OK] = int(ace_mode != ACE_HIGH)
    cfg[kernel.COPIES] = copies
    cfg[kernel.WILD] = wild
    cfg[kernel.TABLE_JOKERS] = mandatory
    cfg[kernel.JOKER_WEIGHT_MAX] = weight_max
    cfg[kernel.ALL_TABLE_JOKERS] = labelled
    cfg[kernel.FLOOR] = floor
    cfg[kernel.FLAGGED] = flagged
    cfg[kernel.CEILING] = ceiling
    return cfg


def _search(problem: Problem, branch: kernel_jokers.KernelInput, node_limit: int,
            floor: int = NO_SCORE, flagged: bool = False,
            ceiling: int = NO_CEILING) -> Partition | None:
    """One branch's search: its answer, or None when no partition scores above ``floor``
    (another branch's score less what this branch's kept groups took). ``flagged``: with
    tahiti's flagged automaton where the branch can take it (``_flagged_search``).
    ``ceiling``: the most the branch can score, proved by the caller (a relaxation's
    answer, less what the kept groups took), so the search stops at the first partition
    worth it instead of trying to beat it."""
    cell, cfg, init, delta, accept = _search_inputs(problem, branch, floor, flagged, ceiling)
    copies = int(cfg[kernel.COPIES])
    if cfg[kernel.FLAGGED]:
        return _flagged_search(problem, branch, node_limit, (cell, cfg, init, delta, accept))
    if problem.table_array is not None:
        ref_groups, ref_len = problem.table_array
    else:
        ref_groups, ref_len = NO_GROUPS
    best, optimal, nodes, groups, lengths, played, jokers = kernel.search_and_decode_with(
        cell, cfg, init, delta, accept, automaton.set_vectors(copies), ref_groups, ref_len,
        node_limit, automaton.suit_states(copies),
        read_only(branch.need - branch.joker_rows[kernel_jokers.FIXED]), branch.hand,
        _dominators(problem, copies, branch.most_required and kernel_jokers.MOST_REQUIRED),
    )
    _NODES[0] += int(nodes)
    if best == NO_SCORE:
        return _nothing_found(problem, bool(optimal))
    if len(lengths) and lengths[0] < 0:
        raise SolverError("kernel moves do not split into runs")
    # tahiti's free jokers were placed as copies: lay them one per group if the table allows
    spread = problem.joker_rule != "tahiti" or branch.wild < 2 or \
        kernel_jokers.one_joker_per_group(groups, lengths)
    return _with_kept(problem, branch, Partition(
        groups, lengths, played, int(best), bool(optimal),
        {"nodes": nodes, ONE_JOKER_PER_GROUP: float(spread)}, int(jokers) - branch.table_all))


def _nothing_found(problem: Problem, optimal: bool) -> Partition | None:
    """A branch's answer when its search found no partition above its floor: None when it
    proved there is none, else (cut short) nothing played, not optimal."""
    if optimal:
        return None
    answer = nothing_played(problem, optimal=False)
    answer.stats[ONE_JOKER_PER_GROUP] = 1.0
    return answer


def _flagged_search(problem: Problem, branch: kernel_jokers.KernelInput, node_limit: int,
                    inputs: tuple[np.ndarray, ...]) -> Partition | None:
    """``_search`` with tahiti's flagged automaton (``inputs``: ``_search_inputs``'): the
    search's moves laid by ``solver.flagged_decode``, one joker per group, so its answer
    is a best play of the branch."""
    cell, cfg, init, delta, accept = inputs
    copies, wild = int(cfg[kernel.COPIES]), branch.wild
    ref_groups, ref_len = problem.table_array if problem.table_array is not None \
        else NO_GROUPS
    best, moves, optimal, nodes = kernel.search_with(
        cell, cfg, init, delta, accept, automaton.set_vectors(copies), ref_groups, ref_len,
        node_limit, automaton_flagged.dominators(copies, wild))
    _NODES[0] += int(nodes)
    if best == NO_SCORE:
        return _nothing_found(problem, bool(optimal))
    groups, lengths = pad(flagged_decode.decode(moves))
    used = np.zeros(N_CARD_TYPES, dtype=np.int64)
    np.add.at(used, groups[(groups >= 0) & (groups < JOKER_CODE)], 1)
    need = branch.need - branch.joker_rows[kernel_jokers.FIXED]
    played = np.minimum(np.maximum(used - need, 0), branch.hand)
    jokers = int(moves[:, :, flagged_decode.JOKERS].sum())
    return _with_kept(problem, branch, Partition(
        groups, lengths, played, int(best), bool(optimal),
        {"nodes": nodes, ONE_JOKER_PER_GROUP: 1.0}, jokers - branch.table_all))


def _dominators(problem: Problem, copies: int, most_required: int) -> np.ndarray:
    """The automaton's dominating states (``automaton.dominators``) for a search with
    jokers, whose automaton is the larger one (80 to 336 states) and whose proofs are long;
    none for the others, which keep their searches as they were."""
    if problem.table_jokers + problem.hand_jokers == 0:
        return NO_DOMINATORS
    return automaton.dominators(copies, most_required)


def _with_kept(problem: Problem, branch: kernel_jokers.KernelInput,
               answer: Partition) -> Partition:
    """Add a tahiti branch's surviving locked groups and the hand cards they took."""
    if not branch.kept:
        return answer
    rows, lengths = pad(list(branch.kept))
    assert branch.kept_played is not None
    played = answer.played + branch.kept_played
    score = answer.score + int(problem.weight @ branch.kept_played)
    return Partition(np.concatenate([answer.groups, rows]),
                     np.concatenate([answer.lengths, lengths]), played, score, answer.optimal,
                     answer.stats, answer.played_jokers)


def _hand_groups(problem: Problem) -> np.ndarray:
    """Every set and run (any length) the hand alone can form, as padded card-index rows."""
    have = problem.hand > 0
    rows: list[tuple[int, ...]] = []
    for rank in range(N_RANKS):
        suits = [s for s in range(N_SUITS) if have[s * N_RANKS + rank]]
        for size in (3, 4):
            rows.extend(tuple(s * N_RANKS + rank for s in combo)
                        for combo in combinations(suits, size))
    low = 0 if problem.ace != "high" else 1
    high = N_RANKS if problem.ace != "low" else N_RANKS - 1
    for suit in range(N_SUITS):
        for start in range(low, high + 1):
            run: list[int] = []
            for rank in range(start, min(start + MAX_RUN, high + 1)):
                card = suit * N_RANKS + rank % N_RANKS
                if not have[card]:
                    break
                run.append(card)
                if len(run) >= 3:
                    rows.append(tuple(run))
    table = np.full((len(rows), MAX_RUN), -1, dtype=np.int64)
    for g, row in enumerate(rows):
        table[g, : len(row)] = row
    return table


def _solve_opening(problem: Problem) -> Partition:
    load_opening()  # its own kernel, loaded when first needed (set-up, not solve time)
    table = _hand_groups(problem)
    lengths = (table >= 0).sum(axis=1).astype(np.int64)
    best, chosen = opening.pack_hand(problem.hand.copy(), problem.weight, POINTS,
                                    problem.min_points, table, lengths)
    if best == NO_SCORE or len(chosen) == 0:
        return nothing_played(problem, optimal=True)
    groups = [tuple(int(c) for c in table[g, : lengths[g]]) for g in chosen]
    played = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for group in groups:
        for card in group:
            played[card] += 1
    return Partition.from_groups(groups, played, int(best), optimal=True)

"""Array views that numba does not reference-count, for the kernel's hottest loop.

Numba counts a reference to an array each time a variable is bound to it: every argument of
an inlined helper, every array a tuple hands on, every array carried round a loop, each an
atomic add and a subtract (``NRT_incref`` / ``NRT_decref``). ``perf`` put 46-48% of a slow
joker search's samples in them (docs/performance.md §3), spread over the node bound, the
transposition table, the expansion and the loop's head. A view made here points at the same
memory with no owner (a null ``meminfo``), so counting its references is a test and a return.

The caller keeps the owner alive while the view is in use: the kernel's loop
(``solver.kernel._descend``) reads views of arrays that its caller holds for the whole call.
"""

from __future__ import annotations

from numba import carray, njit
from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def _as_pointer(typingctx, address):
    """The integer ``address`` as a ``void *`` (what ``carray`` takes)."""
    signature = types.voidptr(address)

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return signature, codegen


@njit(cache=True, inline="always")
def unmanaged(array):
    """``array`` (C-contiguous) seen without reference counts: same memory, shape and dtype,
    no owner. Valid while ``array`` is alive."""
    return carray(_as_pointer(array.ctypes.data), array.shape, array.dtype)


"""``frozen``: an array seen read-only inside a kernel, so that every kernel has one version.

Numba compiles a kernel once per argument type, and a read-only array is another type than a
writable one; an integer constant passed from one kernel to another is another type again
(``Literal[int]``) than an ``int64``. The arrays Python hands to the kernels are read-only
(``solver.problem.read_only``); a kernel that makes an array and hands it to the search
passes ``frozen(array)``, and a constant as ``np.int64(value)``, so the search (and every
kernel it calls) is compiled once, not once per caller: each version of an entry point links
and optimizes the whole search again, which made a fresh install's compile twice as long.
"""

from __future__ import annotations

from numba.core import types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic


@intrinsic
def frozen(typingctx, array):
    """``array`` itself, typed read-only (a no-op on an array already read-only)."""
    if not isinstance(array, types.Array):
        return None
    signature = array.copy(readonly=True)(array)

    def codegen(context, builder, sig, args):
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])

    return signature, codegen

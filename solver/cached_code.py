"""Loading the kernels' machine code from numba's on-disk cache with only the work a run needs.

A fresh process loads each kernel it calls from numba's cache (``cache=True``). Besides the
machine code, numba does two things on each load that only a later compilation reads:

- it refreshes its whole typing and lowering registries first, importing some fifty modules
  (its random generators, polynomials, typed containers...) and installing
  their definitions;
- it parses the kernel's LLVM bitcode, kept beside the machine code so that a later
  compilation can inline the kernel into another function, and lists every symbol in it.

In a fresh ``machiavelli solve`` each was about a seventh of the process's time (measured
side by side, 2026-11-30; the bitcode and its symbols were more than half of loading the
solve's four kernels). ``load_cached_code_lightly()`` (run by ``solver.warmup`` when it is
imported, before any kernel) makes a cache load start numba's runtime (NRT, which the machine
code links against) and load the machine code, and defers the rest: the bitcode is parsed
when a compilation first links the kernel, and a symbol of a cached kernel is looked up in
the loaded machine code itself. A cache miss compiles as ever, and numba's compiler refreshes
its registries itself. The changes are made to the numba versions they were written against
(``LIGHT_NUMBA``) and to no other: elsewhere numba loads as it ships.
"""

from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm
import numba
from numba.core import caching, codegen
from numba.core.runtime import rtsys

LIGHT_NUMBA = ("0.68.",)
"""Numba versions whose cache loading ``load_cached_code_lightly`` was written against."""

_UNPARSED = "_unparsed_bitcode"  # a cached library's bitcode, until a compilation needs it
_deferred = [0]  # cached libraries loaded with their symbols unlisted (a list: module state)


def load_cached_code_lightly() -> bool:
    """Make numba's cache loads do only what running the loaded code needs (see the module
    docstring), once; False, with numba left as it is, on a numba version not in
    ``LIGHT_NUMBA``."""
    if not numba.__version__.startswith(LIGHT_NUMBA):
        return False
    library, engine = codegen.CPUCodeLibrary, codegen.JitEngine
    if getattr(caching.Cache.load_overload, "lightly", False):
        return True
    caching.Cache.load_overload = _load_overload  # type: ignore[method-assign]
    unserialize = library._unserialize.__func__  # type: ignore[attr-defined]
    library._unserialize = classmethod(  # type: ignore[method-assign, assignment]
        lambda cls, codegen_, state: _unserialize(cls, codegen_, state, unserialize))
    for_linking = library._get_module_for_linking
    library._get_module_for_linking = (  # type: ignore[method-assign]
        lambda self: _module_for_linking(self, for_linking))
    defined = engine.is_symbol_defined
    engine.is_symbol_defined = (  # type: ignore[method-assign]
        lambda self, name: defined(self, name) or (_deferred[0] > 0 and
                                                    _in_machine_code(self, name)))
    return True


def _load_overload(self: caching.Cache, sig: Any, target_context: Any) -> Any:
    """``numba.core.caching.Cache.load_overload`` without the registry refresh."""
    rtsys.initialize(target_context)  # the runtime the cached machine code links against
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)
    return None  # numba's guard swallowed an I/O error: numba compiles


_load_overload.lightly = True  # type: ignore[attr-defined]


def _unserialize(cls: type, codegen_: Any, state: tuple, unserialize: Any) -> Any:
    """``CPUCodeLibrary._unserialize`` of cached machine code ("object"), its bitcode kept
    unparsed and its symbols unlisted; other kinds as numba does them."""
    name, kind, data = state
    if kind != "object":
        return unserialize(cls, codegen_, state)
    object_code, shared_bitcode = data
    library = codegen_.create_library(name)
    library.enable_object_caching()
    library._set_compiled_object(object_code)
    setattr(library, _UNPARSED, shared_bitcode)
    _deferred[0] += 1
    library._finalize_final_module()
    return library


def _module_for_linking(library: Any, for_linking: Any) -> Any:
    """``CPUCodeLibrary._get_module_for_linking``, parsing a cached library's bitcode first."""
    bitcode = library.__dict__.pop(_UNPARSED, None)
    if bitcode is not None:
        library._shared_module = llvm.parse_bitcode(bitcode)
    return for_linking(library)


def _in_machine_code(engine: Any, name: str) -> bool:
    """Whether ``name`` is a function of the machine code loaded in numba's engine (where the
    symbols of the cached libraries are, their lists being deferred)."""
    return bool(engine._ee.get_function_address(name))


__all__ = ["LIGHT_NUMBA", "load_cached_code_lightly"]

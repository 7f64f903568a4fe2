"""The engine as a research environment (docs/environments.md).

``import bots.envs`` registers the OpenSpiel game ``python_machiavelli`` and the Gymnasium id
``machiavelli/Machiavelli-v0`` when those libraries are installed (the ``rl`` extra);
``bots.envs.machiavelli_v0.env(variant=..., players=...)`` is the PettingZoo AEC environment.
The action space (``actions``), the observation tensor (``encoding``) and the levels the arena
seats (``levels``: the ladder plus ``ismcts``) need none of them.

Layer 3 of docs/architecture.md: imports ``solver``, ``bots.referee`` and ``bots.players``.
"""

from __future__ import annotations


def _register() -> None:
    """Register with OpenSpiel and Gymnasium, each where it is installed."""
    try:
        from bots.envs import spiel
    except ImportError:
        pass
    else:
        spiel.register()
    try:
        import gymnasium
    except ImportError:
        return
    from bots.envs.gym_env import ENV_ID

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="bots.envs.gym_env:MachiavelliEnv")


_register()

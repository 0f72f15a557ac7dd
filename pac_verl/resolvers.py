"""pac-verl's OmegaConf resolvers, and the experiment name they compute.

Every process that composes or resolves a training config needs them: the driver
(``python -m pac_verl.main``, the launcher, the preflight and the planner, through
:mod:`pac_verl.compose`) and verl's task-runner actor (:class:`pac_verl.verl.runner.PACTaskRunner`,
which never imports :mod:`pac_verl.main`). Nothing registers them by an import's side effect
(docs/concepts/architecture.md): each such process calls :func:`register_resolvers` itself.

- ``pac_experiment``: the run's name, ``<setting>__<backbone>__<curriculum>[__w<W>]__seed<k>``
  (:func:`pac_verl.naming.experiment_name`);
- ``curriculum_default``: a controller's default (``${curriculum_default:pac,window}``), so each
  number lives once, in the controller's config dataclass;
- ``pac_chat_template``: the chat template a prompt style forces
  (``${pac_chat_template:${backbone.prompt_style}}``: the paper's frame for ``completion``, null
  for ``chat``), from :func:`pac_verl.data_prep.prompts.chat_template`.
- ``pac_add``: the sum of integers (``${pac_add:${data.max_prompt_length},${data.max_response_length}}``:
  vLLM's context is the prompt plus the response, whatever either is set to).
"""

from __future__ import annotations

from omegaconf import OmegaConf

from pac_verl.curriculum.registry import controller_default
from pac_verl.data_prep.prompts import chat_template
from pac_verl.naming import default_window, experiment_name, single_label

RESOLVER = "pac_experiment"


def _experiment_name(
    setting, backbone, curriculum, seed, window=None, train_arms=None, prompt_level=None
) -> str:
    """The ``pac_experiment`` resolver: a single-task run's name carries its train arms, and a
    run with ``curriculum.prompt_level`` set is ``<curriculum>-prompt`` (its own logs and
    checkpoints, like the simulator's ``+prompt`` controllers)."""
    if str(curriculum) == "single":
        curriculum = single_label(
            None if train_arms in (None, "None", "null") else list(train_arms)
        )
    window = None if window in (None, "None", "null") else int(window)
    if window is not None and window == default_window(str(curriculum)):
        window = None  # the tag marks a window other than the controller's own default
    if prompt_level not in (None, "None", "null"):
        curriculum = f"{curriculum}-prompt"
    return experiment_name(str(setting), str(backbone), str(curriculum), int(seed), window)


def _add(*values) -> int:
    return sum(int(v) for v in values)


def register_resolvers() -> None:
    """Register pac-verl's OmegaConf resolvers in this process (idempotent)."""
    if not OmegaConf.has_resolver(RESOLVER):
        OmegaConf.register_new_resolver(RESOLVER, _experiment_name)
    if not OmegaConf.has_resolver("curriculum_default"):
        OmegaConf.register_new_resolver("curriculum_default", controller_default)
    if not OmegaConf.has_resolver("pac_chat_template"):
        OmegaConf.register_new_resolver(
            "pac_chat_template", lambda style: chat_template(str(style))
        )
    if not OmegaConf.has_resolver("pac_add"):
        OmegaConf.register_new_resolver("pac_add", _add)


def pin_experiment_name(config) -> str:
    """Replace ``trainer.experiment_name``'s interpolation by its value, a plain string."""
    register_resolvers()
    name = str(config.trainer.experiment_name)
    config.trainer.experiment_name = name
    return name

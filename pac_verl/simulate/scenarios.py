"""Scenarios of the simulated multi-task learner: arms and how each one can be learned.

Every arm is an :class:`ArmSpec`. The simulated policy has a latent skill ``theta_i`` per arm; a
prompt of difficulty ``d`` is solved with probability ``ceiling * sigmoid(theta_i - d)`` (or with the
fixed probability ``fixed_success`` for a noisy arm that cannot be learned). Prompt difficulties are
``N(0, spread^2)``: some prompts of an arm are easy, some hard, as in a real dataset.

The four behaviours the paper discusses (Appendix "Analysis of Curriculum Dynamics"):

- saturating (like K&K): starts near 50% and learns fast, so its groups soon all succeed;
- slow (like AIME24): starts near 3% success and learns slowly;
- noisy: every rollout succeeds with probability 1/2 whatever the policy does, so its advantages are
  large and its reward never improves (training on it is wasted budget);
- prerequisite: learns only once another arm's skill passes a threshold.

Beyond the paper: ``within_arm`` has one arm whose prompts span easy to impossible (difficulty
spread 4 on the logit scale: at the start about a third of its prompts are solved by every
rollout or by none), the case prompt-level selection inside arms is for.

The parameters were written down before any controller was compared on them and are not tuned
for any controller; change them freely (``Scenario`` is a plain dataclass). This is a simulation:
its numbers say how controllers react to these mechanisms, not how they do on a real model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pac_verl.errors import UserError


@dataclass(frozen=True)
class ArmSpec:
    name: str
    init_skill: float = 0.0  # theta at step 0 (logit scale)
    learning_rate: float = 0.1  # skill gained per step if the whole batch were mixed groups
    ceiling: float = 1.0  # best reachable success probability
    spread: float = 1.0  # std of prompt difficulties
    fixed_success: float | None = None  # noisy arm: success probability, never learned
    prerequisite: str | None = None  # arm whose skill gates this one's learning
    prerequisite_skill: float = 0.0  # gate = sigmoid((theta_pre - this) / 0.25)


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    arms: tuple[ArmSpec, ...]
    # (from, to, weight): a step's update on arm `from` also moves arm `to` by weight x its gain
    transfer: tuple[tuple[str, str, float], ...] = field(default_factory=tuple)
    look_at: str = ""  # what its tables show, printed under them (pac-verl simulate)

    @property
    def arm_names(self) -> list[str]:
        return sorted(a.name for a in self.arms)


def _regular(name: str, init: float = -1.0, lr: float = 0.1) -> ArmSpec:
    return ArmSpec(name, init_skill=init, learning_rate=lr)


SATURATING = ArmSpec("saturating", init_skill=0.0, learning_rate=0.3)
SLOW = ArmSpec("slow", init_skill=-3.5, learning_rate=0.05)
NOISY = ArmSpec("noisy", fixed_success=0.5, learning_rate=0.0)
BASIC = ArmSpec("basic", init_skill=-1.0, learning_rate=0.1)
ADVANCED = ArmSpec(
    "advanced", init_skill=-2.5, learning_rate=0.12, prerequisite="basic", prerequisite_skill=1.0
)


def _multi_level() -> Scenario:
    arms, transfer = [], []
    # (task, learning rate): three task families of different learnability
    for task, lr in (("arc", 0.06), ("countdown", 0.12), ("zebra", 0.09)):
        for level in (1, 2, 3):
            arms.append(
                ArmSpec(
                    f"{task}/{level}",
                    init_skill=0.5 - 1.5 * (level - 1),
                    learning_rate=lr,
                    prerequisite=f"{task}/{level - 1}" if level > 1 else None,
                    prerequisite_skill=-0.5 + 1.0 * (level - 1),
                )
            )
            if level > 1:
                transfer += [(f"{task}/{level - 1}", f"{task}/{level}", 0.2)]
                transfer += [(f"{task}/{level}", f"{task}/{level - 1}", 0.3)]
    return Scenario(
        "multi_level",
        "9 arms like the paper's multi-level setting: 3 task families x 3 levels; a level learns "
        "once the level below is partly learned, and levels transfer to their neighbours",
        tuple(arms),
        tuple(transfer),
        "At first the upper levels' groups all fail (zero advantage) and only some levels can be "
        "learned. Compare PAC with 'pac_no_adv' (no advantage term: it cannot tell which levels "
        "give a learning signal now) and 'pac_no_ts' (a softmax at temperature 1 instead of "
        "Thompson sampling: close to uniform).",
    )


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "mixed",
            "one arm of each kind: saturating, slow, noisy, and basic -> advanced (prerequisite)",
            (SATURATING, SLOW, NOISY, BASIC, ADVANCED),
            (("basic", "advanced", 0.1), ("advanced", "basic", 0.2)),
            "Each arm calls for something else: little share for 'noisy' (nothing to learn), "
            "little for 'saturating' once it is learned, 'advanced' only after 'basic'. A "
            "mechanism can help on one arm and hurt on another, so read the share table against "
            "the per-arm finals, not the totals alone; the tour (pac-verl simulate) shows one "
            "mechanism at a time.",
        ),
        Scenario(
            "saturating",
            "a fast-saturating arm next to two regular arms",
            (SATURATING, _regular("regular_a"), _regular("regular_b", -1.5)),
            look_at="'saturating' is learned within a few dozen steps; then its groups all "
            "succeed and its advantages vanish. Look at how soon each controller moves its share "
            "from it to the regular arms.",
        ),
        Scenario(
            "slow",
            "a slow-progress arm next to two regular arms",
            (SLOW, _regular("regular_a"), _regular("regular_b", -1.5)),
            look_at="'slow' starts near 3% success: most of its groups all fail although it "
            "can be learned. Compare its share and its final success across controllers.",
        ),
        Scenario(
            "noisy",
            "a noisy arm (success 1/2 whatever the policy) next to two regular arms",
            (NOISY, _regular("regular_a"), _regular("regular_b", -1.5)),
            look_at="'noisy' has the largest |advantage| of all arms and never improves. "
            "Controllers that follow |advantage| alone (pac_no_prog, sec, dump) give it the most; "
            "PAC's progress term is what should give it less: compare 'pac' with 'pac_no_prog' "
            "in the share table.",
        ),
        Scenario(
            "prerequisite",
            "basic -> advanced (advanced learns only once basic is learned) and a regular arm",
            (BASIC, ADVANCED, _regular("regular_a", -1.5)),
            (("basic", "advanced", 0.1), ("advanced", "basic", 0.2)),
            "'advanced' becomes worth training only late, once 'basic' is learned: a controller "
            "must notice the change. PAC notices it through its window (try --set window=4 and "
            "window=64).",
        ),
        _multi_level(),
        Scenario(
            "within_arm",
            "one arm spanning easy to impossible prompts (difficulty spread 4) next to two "
            "regular arms",
            (
                ArmSpec("wide", init_skill=0.0, learning_rate=0.1, spread=4.0),
                _regular("regular_a"),
                _regular("regular_b", -1.5),
            ),
            look_at="At the arm level 'wide' looks middling while a third of its prompts give no "
            "signal. Compare a controller with and without the suffix +prompt (prompt-level "
            "selection inside arms).",
        ),
    )
}


def get_scenario(name: str) -> Scenario:
    if name not in SCENARIOS:
        raise UserError(f"unknown scenario {name!r}; valid: {', '.join(SCENARIOS)}")
    return SCENARIOS[name]

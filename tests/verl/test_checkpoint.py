"""The curriculum's own checkpoint file (``global_step_k/pac_state.json``) through PACTrainer's
save and resume, on verl 0.7.1's real ``_save_checkpoint``/``_load_checkpoint``, its
``StatefulDataLoader``, ``RLHFDataset`` and our real sampler and controller; only the actor
worker group (which would save the model) is a stand-in.

A run resumed from a checkpoint draws the batches the uninterrupted run draws (same prompt in
every slot, same epoch), at an ordinary step and on an epoch boundary, whether verl restored
``data.pt``, restored a stale one, found none, or skipped it as verl 0.9.1 does on an epoch
boundary. A file that does not fit the run is refused with one line naming the fix.
"""

import json
import logging
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
import ray.exceptions
from omegaconf import OmegaConf
from verl.trainer.ppo.ray_trainer import RayPPOTrainer

from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.errors import UserError, user_message
from pac_verl.verl import checkpoint
from pac_verl.verl.trainer import PACTrainer

sys.path.insert(0, str(Path(__file__).parents[1]))
from sampler_helpers import B, fake_step, make
from verl_helpers import make_tokenizer

STEPS = 10
SAVES = (2, 4, 6)
BATCHES_PER_EPOCH = 6  # 9 arms x 6 rows = 54 rows, 54 // B(8) = 6 batches
CURRICULUM = {"name": "pac", "cold_start": 1, "prompt_level": "thompson"}


class _ActorWorkers:
    """Stand-in for the actor worker group: a model checkpoint is a folder, nothing more."""

    def save_checkpoint(self, local_path, hdfs_path=None, global_step=0, max_ckpt_to_keep=None):
        Path(local_path).mkdir(parents=True, exist_ok=True)

    def load_checkpoint(self, local_path, del_local_after_load=False):
        assert Path(local_path).is_dir()


def trainer_for(loader, ckpt: Path, resume_from: Path | None = None) -> PACTrainer:
    trainer = PACTrainer.__new__(PACTrainer)  # save and load need no Ray workers
    trainer.config = OmegaConf.create({
        "trainer": {
            "default_local_dir": str(ckpt), "default_hdfs_dir": None,
            "resume_mode": "resume_path" if resume_from else "auto",
            "resume_from_path": str(resume_from) if resume_from else None,
            "del_local_ckpt_after_load": False,
        },
        "actor_rollout_ref": {"actor": {"checkpoint": {"async_save": False}}},
    })  # fmt: skip
    trainer.actor_rollout_wg, trainer.use_critic = _ActorWorkers(), False
    trainer.train_dataloader, trainer.global_steps = loader, 0
    return trainer


def slots(batch) -> list[str]:
    """The prompt of every slot, in slot order."""
    return [f"{i['type']}/{i['difficulty']}#{i['index']}" for i in batch["extra_info"]]


def train(trainer, sampler, first_step: int, last_step: int, saves=(), validate=()):
    """verl's fit loop around the sampler: epochs from ``global_steps // len(loader)``, one
    dataloader pass each; per step the uids bound, the controller fed (rewards seeded by the
    step), the checkpoint saved at ``saves``, then the trainer's validation at the steps of
    ``validate``, as fit() validates after it saves. Returns (epoch, slots) per step."""
    loader, drawn, step = trainer.train_dataloader, [], first_step
    for epoch in range(trainer.global_steps // len(loader), 100):
        for batch in loader:
            drawn.append((epoch, slots(batch)))
            # fake_step's uids (u<slot>), made unique to the step as fit()'s uuid4s are
            sampler.bind([f"{step}/u{i}" for i in range(B)])
            data, _ = fake_step(batch, np.random.default_rng(step))
            uids = data.non_tensor_batch["uid"]
            data.non_tensor_batch["uid"] = np.array([f"{step}/{u}" for u in uids], dtype=object)
            before = sampler.controller.step
            sampler.observe(data)
            assert sampler.controller.step == before + 1
            trainer.global_steps = step
            if step in saves:
                trainer._save_checkpoint()
            if step in validate:
                trainer._validate()
            if step == last_step:
                return drawn
            step += 1
    raise AssertionError("ran out of epochs")


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """The uninterrupted run: STEPS steps, a checkpoint at each of SAVES."""
    root = tmp_path_factory.mktemp("ckpt")
    build_multi_level(root / "data", 6, 2, seed=0, quiet=True, workers=1)
    tok = make_tokenizer(root / "tok")
    _, sampler, loader = make(root, tok, CURRICULUM)
    assert len(loader) == BATCHES_PER_EPOCH
    trainer = trainer_for(loader, root / "template")
    drawn = train(trainer, sampler, 1, STEPS, SAVES)
    return root, tok, drawn, sampler.controller.state_dict()


def copy_checkpoints(full, tmp_path) -> Path:
    root = full[0]
    ckpt = tmp_path / "ckpt"
    shutil.copytree(root / "template", ckpt)
    return ckpt


def resume(full, ckpt: Path, step: int, mode: str = "auto"):
    """A new attempt: a fresh dataset, sampler and loader, verl's resume, then fit's loop."""
    root, tok, _, _ = full
    _, sampler, loader = make(root, tok, CURRICULUM)
    resume_from = ckpt / f"global_step_{step}" if mode == "resume_path" else None
    if mode == "auto":
        (ckpt / "latest_checkpointed_iteration.txt").write_text(str(step))
    trainer = trainer_for(loader, ckpt, resume_from)
    trainer._load_checkpoint()
    assert trainer.global_steps == step
    return trainer, sampler


@pytest.fixture
def verl_091_skip(monkeypatch):
    """verl 0.9.1's ``_load_checkpoint`` (PR #5725): on an epoch boundary the dataloader state
    in data.pt is not restored; otherwise as verl 0.7.1."""
    original = RayPPOTrainer._load_checkpoint

    def load(self):
        out = original(self)
        if self.global_steps % len(self.train_dataloader) == 0:
            self.train_dataloader.load_state_dict({})
            self.train_dataloader.next_iter_state = None  # what a loader never restored has
        return out

    monkeypatch.setattr(RayPPOTrainer, "_load_checkpoint", load)


@pytest.mark.parametrize(
    "step, data_pt, mode",
    [
        (4, "restored", "resume_path"),  # mid-epoch, verl 0.7.1 as it is
        (4, "deleted", "resume_path"),
        (4, "stale", "auto"),  # data.pt of step 2 in step 4's folder: verl restores it
        (6, "restored", "auto"),  # the epoch boundary: 6 = BATCHES_PER_EPOCH
        (6, "deleted", "auto"),
        (6, "stale", "resume_path"),
        (6, "skipped", "auto"),  # verl 0.9.1
    ],
)
def test_a_resumed_run_draws_the_batches_of_the_uninterrupted_one(
    full, tmp_path, request, caplog, step, data_pt, mode
):
    _, _, drawn, final_state = full
    ckpt = copy_checkpoints(full, tmp_path)
    folder = ckpt / f"global_step_{step}"
    if data_pt == "deleted":
        (folder / "data.pt").unlink()
    elif data_pt == "stale":
        shutil.copy(ckpt / "global_step_2" / "data.pt", folder / "data.pt")
    elif data_pt == "skipped":
        request.getfixturevalue("verl_091_skip")
    with caplog.at_level(logging.WARNING):
        trainer, sampler = resume(full, ckpt, step, mode)
        # verl handed data.pt to the dataloader (verl 0.9.1 does not on an epoch boundary)
        verl_restored = trainer.train_dataloader.next_iter_state is not None
        resumed = train(trainer, sampler, step + 1, STEPS)
    # the same prompt in every slot, in the same epoch, at every step after the checkpoint
    assert resumed == drawn[step:]
    assert sampler.controller.state_dict() == final_state
    differs = [r.getMessage() for r in caplog.records if "differs" in r.getMessage()]
    if data_pt == "stale" and verl_restored:  # the PAC file's state was kept over it
        assert differs == [
            "the dataloader's curriculum state (data.pt) differs from "
            f"global_step_{step}/pac_state.json; the state of global_step_{step}/pac_state.json "
            "is kept"
        ]
    else:
        assert differs == []


def test_without_the_pac_file_it_fails_on_an_epoch_boundary_with_verl_091(
    full, tmp_path, verl_091_skip
):
    """What the file is for: with verl 0.9.1's skip and no state of its own (the data.pt gone
    too), the controller would start again from its prior and draw other batches."""
    ckpt = copy_checkpoints(full, tmp_path)
    for name in ("pac_state.json", "data.pt"):
        (ckpt / "global_step_6" / name).unlink()
    trainer, sampler = resume(full, ckpt, 6)
    assert sampler.controller.step == 0
    assert train(trainer, sampler, 7, 7) != full[2][6:7]


@pytest.mark.parametrize("skip", [False, True])
def test_an_older_checkpoint_resumes_from_data_pt_and_says_so(full, tmp_path, request, caplog,
                                                              skip):  # fmt: skip
    if skip:
        request.getfixturevalue("verl_091_skip")
    ckpt = copy_checkpoints(full, tmp_path)
    (ckpt / "global_step_6" / "pac_state.json").unlink()
    with caplog.at_level(logging.WARNING):
        trainer, sampler = resume(full, ckpt, 6)
    assert [r.getMessage() for r in caplog.records] == [
        "global_step_6 has no pac_state.json (written by an older pac-verl): the curriculum "
        "state is read from its data.pt"
    ]
    assert train(trainer, sampler, 7, STEPS) == full[2][6:]


@pytest.mark.parametrize("test_freq", [4, 3])
def test_the_resumed_runs_first_validation_counts_as_in_the_uninterrupted_run(
    full, tmp_path, monkeypatch, test_freq
):
    """DUMP learns from validation scores. fit() validates the multiples of trainer.test_freq
    after saving them; a resumed run validates its start step before its first batch
    (``val_before_train``). With test_freq 4 the uninterrupted run validated step 4: the resumed
    run's validation must reach the restored state (not be undone by data.pt's copy, which the
    dataloader applies at its first batch). With test_freq 3 it did not: the resumed run's must
    not reach the controller."""
    root, tok, _, _ = full
    scores = {f"val-core/arc/{lvl}/acc/mean@1": 0.1 * lvl for lvl in (1, 2, 3)}
    monkeypatch.setattr(RayPPOTrainer, "_validate", lambda self: dict(scores))
    validations = {s for s in range(1, 9) if s % test_freq == 0}

    def dump_trainer(ckpt):
        _, sampler, loader = make(root, tok, {"name": "dump"})
        trainer = trainer_for(loader, ckpt)
        trainer.config.trainer.test_freq = test_freq
        return trainer, sampler

    ckpt = tmp_path / "ckpt"
    trainer, sampler = dump_trainer(ckpt)
    drawn = train(trainer, sampler, 1, 8, saves=(4,), validate=validations)
    resumed, resumed_sampler = dump_trainer(ckpt)
    resumed._load_checkpoint()
    resumed._validate()  # val_before_train, at step 4
    assert train(resumed, resumed_sampler, 5, 8, validate=validations) == drawn[4:]
    assert resumed_sampler.controller.state_dict() == sampler.controller.state_dict()


def test_the_checkpoint_verl_resumes_is_the_one_restored(full, tmp_path, monkeypatch):
    """The state is restored ahead of verl from the checkpoint verl will pick; if verl picks
    another, that one's state replaces it, and if verl starts afresh, the sampler does too."""
    ckpt = copy_checkpoints(full, tmp_path)
    ahead = (str(ckpt / "global_step_4"), 4)
    monkeypatch.setattr(PACTrainer, "_checkpoint_to_resume", lambda self: ahead)
    trainer, sampler = resume(full, ckpt, 6)  # verl resumes step 6 (its tracker)
    assert trainer._resumed_at == 6
    assert train(trainer, sampler, 7, STEPS) == full[2][6:]

    def afresh(self):
        self.global_steps = 0
        return 0

    monkeypatch.setattr(RayPPOTrainer, "_load_checkpoint", afresh)
    root, tok, drawn, _ = full
    _, sampler, loader = make(root, tok, CURRICULUM)
    trainer = trainer_for(loader, ckpt)
    trainer._load_checkpoint()
    assert sampler.controller.step == 0 and trainer._resumed_at is None
    assert train(trainer, sampler, 1, 2) == drawn[:2]


def test_the_file_holds_the_samplers_state_of_its_step(full, tmp_path):
    ckpt = copy_checkpoints(full, tmp_path)
    record = json.loads((ckpt / "global_step_4" / "pac_state.json").read_text())
    assert (record["format"], record["version"], record["step"]) == (checkpoint.FORMAT, 1, 4)
    state = record["sampler"]
    # the controller has seen 4 steps; the loader has drawn 4 batches of this epoch
    assert state["controller"]["step"] == 4 and state["batches_this_epoch"] == 4
    assert state["prompts"]["rule"] == "thompson"
    assert sorted(state) == ["batches_this_epoch", "controller", "last_uids", "prompts", "queues",
                             "refill"]  # fmt: skip
    assert state["refill"] == []  # the legacy trainer refills nothing (verl's V1 trainer may)


def _model_loaded(self, local_path, del_local_after_load=False):
    raise AssertionError("verl loaded the model before the curriculum's file was checked")


def _other_controller(record):
    record["sampler"]["controller"]["name"] = "sec"


def _other_arms(record):
    record["sampler"]["controller"]["arms"] = record["sampler"]["controller"]["arms"][:-1]


def _other_pools(record):
    record["sampler"]["queues"]["sizes"][0] += 1


def _no_controller(record):
    del record["sampler"]["controller"]


@pytest.mark.parametrize(
    "edit, message",
    [
        (_other_controller, r"global_step_6/pac_state.json does not fit this run's curriculum "
                            r"\(curriculum state does not match this controller: saved "
                            r"name='sec', configured name='pac'\): resume with the curriculum "
                            r"and training data the run was started with, or start afresh in a "
                            r"new trainer.default_local_dir$"),
        (_other_arms, r"does not fit this run's curriculum \(.*saved arms=.*resume with"),
        (_other_pools, r"does not fit this run's curriculum \(arm queue state is for pool sizes"),
        (_no_controller, r"does not fit this run's curriculum \(it has no 'controller'\): resume"),
    ],
)  # fmt: skip
def test_a_file_of_another_curriculum_is_refused(full, tmp_path, monkeypatch, edit, message):
    monkeypatch.setattr(_ActorWorkers, "load_checkpoint", _model_loaded)  # refused before that
    ckpt = copy_checkpoints(full, tmp_path)
    path = ckpt / "global_step_6" / "pac_state.json"
    record = json.loads(path.read_text())
    edit(record)
    path.write_text(json.dumps(record))
    with pytest.raises(UserError, match=message):
        resume(full, ckpt, 6)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda p, ckpt: p.write_text(p.read_text()[:100]),
         r"^global_step_6/pac_state.json cannot be read \(.*\): delete it to resume from the "
         r"data.pt beside it, or resume from an earlier checkpoint"),
        (lambda p, ckpt: p.write_text('{"format": "something else"}'),
         r"^global_step_6/pac_state.json is not a pac-verl curriculum state: delete it"),
        (lambda p, ckpt: p.write_text(p.read_text().replace('"version": 1', '"version": 2')),
         r"^global_step_6/pac_state.json has version 2, newer than this pac-verl reads \(1\): "
         r"resume with the pac-verl that wrote it, or upgrade pac-verl$"),
        (lambda p, ckpt: p.write_text('{"format": "pac-verl curriculum state", "version": 1}'),
         r"^global_step_6/pac_state.json holds no sampler state: delete it"),
        (lambda p, ckpt: shutil.copy(ckpt / "global_step_4" / "pac_state.json", p),
         r"^global_step_6/pac_state.json holds the state after step 4, not step 6 \(copied from "
         r"another checkpoint\?\): delete it"),
    ],
)  # fmt: skip
def test_a_damaged_file_is_refused_with_its_fix(full, tmp_path, monkeypatch, damage, message):
    monkeypatch.setattr(_ActorWorkers, "load_checkpoint", _model_loaded)  # refused before that
    ckpt = copy_checkpoints(full, tmp_path)
    damage(ckpt / "global_step_6" / "pac_state.json", ckpt)
    with pytest.raises(UserError, match=message):
        resume(full, ckpt, 6)


def test_the_refusal_reaches_the_command_line_as_one_line():
    """Raised in verl's task runner, the error crosses Ray as a RayTaskError whose text is the
    remote traceback; the command line prints the error's own line."""
    err = UserError("global_step_6/pac_state.json is not a pac-verl curriculum state: delete it")
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "pac_verl/verl/trainer.py", line 170, in _load_checkpoint\n'
        "    raise UserError(...)\n"
        f"pac_verl.errors.UserError: {err}"
    )
    remote = ray.exceptions.RayTaskError("PACTaskRunner.run", traceback, err).as_instanceof_cause()
    assert isinstance(remote, UserError) and str(remote) != str(err)
    assert user_message(remote) == str(err)
    assert user_message(err) == str(err)


def test_numpy_values_in_a_state_are_stored_as_their_python_values(tmp_path):
    state = {"step": np.int64(3), "shares": np.array([0.25, 0.75]), "seen": [np.int32(7)]}
    checkpoint.write_state(tmp_path, 3, state)
    assert checkpoint.read_state(tmp_path, 3) == {"step": 3, "shares": [0.25, 0.75], "seen": [7]}


def test_a_failed_write_leaves_the_previous_file_whole(tmp_path, monkeypatch):
    first = checkpoint.write_state(tmp_path, 3, {"controller": {"step": 3}})
    before = first.read_bytes()

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(checkpoint.os, "fsync", disk_full)
    with pytest.raises(OSError):
        checkpoint.write_state(tmp_path, 3, {"controller": {"step": 4}})
    assert first.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pac_state.json"]

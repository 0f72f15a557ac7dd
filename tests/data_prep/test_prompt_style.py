"""The prompt the policy sees, through verl 0.7.1's own code: the dataset the task runner
builds (``RLHFDataset``, whose prompt-length filter counts tokens with the task runner's tokenizer)
and the agent loop that tokenizes each prompt for the rollout (``AgentLoopWorker``, which builds
the rollout's tokenizer from ``actor_rollout_ref.model`` and runs ``SingleTurnAgentLoop``). The
tokenizer is ``tests/fixtures/qwen2.5_tokenizer``: Qwen2.5's published chat template over a tiny
byte-level BPE, which decodes any text back exactly.

Expected texts are written out: the paper's frame (docs/concepts/spec.md#settings) around the appendix's Countdown
example, and Qwen2.5's template (its default system prompt) around the same task.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil

import pytest
from omegaconf import open_dict
from prompt_text_helpers import CUE, PREAMBLE, QWEN_TOKENIZER

from pac_verl.compose import compose_config
from pac_verl.data_prep import prompts
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError

QWEN_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
COUNTDOWN = (
    "Using the numbers 21, 95, 8, 2, 26, 2 and basic arithmetic operations (+, -, *, /), create an "
    "expression that equals 30. You need to use each number exactly once. Present the final "
    "expression that equals the target number within \\boxed{}. For example: "
    "\\boxed{46+68/(52-50)}."
)
CODE_SYSTEM = (
    "You are a helpful programming assistant. The reasoning process and answer are enclosed "
    "within <think>...</think> and <answer>...</answer> tags, respectively."
)
CODE_TASK = "Write a function task_func(n) that returns n + 1."
# what the policy reads, per style, for the two rows below (countdown; code with a system message)
EXPECTED = {
    "completion": [
        PREAMBLE + "\nUser: " + COUNTDOWN + CUE,
        CODE_SYSTEM + "\nUser: " + CODE_TASK + CUE,
    ],
    "chat": [
        f"<|im_start|>system\n{QWEN_SYSTEM}<|im_end|>\n<|im_start|>user\n{COUNTDOWN}<|im_end|>\n"
        "<|im_start|>assistant\n",
        f"<|im_start|>system\n{CODE_SYSTEM}<|im_end|>\n<|im_start|>user\n{CODE_TASK}<|im_end|>\n"
        "<|im_start|>assistant\n",
    ],
}


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """The fixture tokenizer plus a config.json, which verl's HFModelConfig reads."""
    from transformers import Qwen2Config

    folder = tmp_path_factory.mktemp("model") / "qwen"
    shutil.copytree(QWEN_TOKENIZER, folder)
    Qwen2Config(vocab_size=400, hidden_size=8, intermediate_size=16, num_hidden_layers=1,
                num_attention_heads=1, num_key_value_heads=1,
                architectures=["Qwen2ForCausalLM"]).save_pretrained(folder)  # fmt: skip
    return folder


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    rows = [
        make_row(data_source="countdown", prompt=prompts.countdown([21, 95, 8, 2, 26, 2], 30),
                 task_type="countdown", ground_truth={"target": 30, "numbers": [21, 95, 8, 2, 26, 2]},
                 split="train", index=0, difficulty=1),
        make_row(data_source="code", prompt=[{"role": "system", "content": CODE_SYSTEM},
                                             {"role": "user", "content": CODE_TASK}],
                 task_type="code", ground_truth={"functional": "assert task_func(1) == 2"},
                 split="train", index=1, difficulty=1),
    ]  # fmt: skip
    folder = tmp_path_factory.mktemp("data")
    write_parquet(rows, folder / "train.parquet")
    write_parquet(rows, folder / "val.parquet")
    return folder


def config(model_dir, data_dir, tmp_path, *extra):
    cfg = compose_config(["setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac",
                          f"setting.data_dir={data_dir}", f"actor_rollout_ref.model.path={model_dir}",
                          f"pac.log_root={tmp_path}/runs", f"trainer.default_local_dir={tmp_path}/ckpt",
                          *extra])  # fmt: skip
    with open_dict(cfg):
        cfg.data.cache_dir = str(tmp_path / "cache")
        cfg.data.filter_overlong_prompts_workers = 1
    return cfg


def task_runner_dataset(cfg, model_dir):
    """verl's RLHFDataset as TaskRunner.run builds it: hf_tokenizer(model path), no custom template."""
    from verl.utils import hf_tokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    return RLHFDataset(cfg.data.train_files, hf_tokenizer(str(model_dir)), cfg.data)


def rollout_prompts(cfg, dataset) -> list[tuple[list[int], str]]:
    """The prompt tokens verl's agent loop sends to the rollout for each row, and their text."""
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
    from verl.workers.rollout.replica import TokenOutput

    class Server:  # stands in for vLLM's servers: records the prompt tokens it is sent
        def __init__(self):
            self.prompts = []

        async def generate(self, request_id, *, prompt_ids, sampling_params, **_):
            self.prompts.append(list(prompt_ids))
            return TokenOutput(token_ids=[0])

    class Worker(AgentLoopWorker):
        def __init__(self, config):
            self.server_manager = Server()  # verl keeps a server manager that is already set
            super().__init__(config, servers=[], load_balancer_handle=None)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        worker = Worker(cfg)
        for i in range(len(dataset)):
            trajectory = {"step": 0, "sample_index": i, "rollout_n": 0, "validate": False}
            loop.run_until_complete(worker._run_agent_loop(
                {"temperature": 1.0}, trajectory, agent_name="single_turn_agent", trace=False,
                **dataset[i]))  # fmt: skip
    finally:
        loop.close()
        asyncio.set_event_loop(None)
    tok = worker.tokenizer
    return [(ids, tok.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False))
            for ids in worker.server_manager.prompts]  # fmt: skip


@pytest.mark.parametrize("style", ["completion", "chat"])
def test_the_policy_reads_the_styles_exact_text(style, model_dir, data_dir, tmp_path):
    extra = [] if style == "completion" else ["backbone.prompt_style=chat"]  # completion: default
    cfg = config(model_dir, data_dir, tmp_path, *extra)
    texts = [text for _, text in rollout_prompts(cfg, task_runner_dataset(cfg, model_dir))]
    assert texts == EXPECTED[style]


def test_the_length_filter_counts_the_tokens_the_rollout_reads(model_dir, data_dir, tmp_path):
    """verl 0.7.1's task runner loads its tokenizer without custom_chat_template; the config hands
    the template to its filter too, so a row of exactly max_prompt_length rollout tokens is kept
    and one token less drops it, in either style."""
    lengths = {}
    for style in ("completion", "chat"):
        cfg = config(model_dir, data_dir, tmp_path, f"backbone.prompt_style={style}")
        (ids, _), _ = rollout_prompts(cfg, task_runner_dataset(cfg, model_dir))
        lengths[style] = n = len(ids)
        for limit, kept in ((n, 1), (n - 1, 0)):
            with open_dict(cfg):
                cfg.data.max_prompt_length = limit
            rows = task_runner_dataset(cfg, model_dir).dataframe["data_source"]
            assert rows.count("countdown") == kept, (style, limit)
    # else the check above could not tell the two templates apart
    assert lengths["completion"] != lengths["chat"]


def test_every_base_backbone_defaults_to_the_frame():
    for backbone in ("qwen2.5-3b", "qwen2.5-7b", "qwen2.5-32b"):
        cfg = compose_config([f"backbone={backbone}"])
        assert cfg.backbone.prompt_style == "completion"
        assert cfg.actor_rollout_ref.model.custom_chat_template == prompts.FRAME_TEMPLATE
        assert cfg.data.apply_chat_template_kwargs.chat_template == prompts.FRAME_TEMPLATE
    chat = compose_config(["backbone=qwen2.5-7b", "backbone.prompt_style=chat"])
    assert chat.actor_rollout_ref.model.custom_chat_template is None
    assert chat.data.apply_chat_template_kwargs.chat_template is None


def test_a_bad_style_or_two_templates_are_refused():
    with pytest.raises(UserError, match=r"^backbone.prompt_style=plain: choose completion"):
        compose_config(["backbone.prompt_style=plain"])
    with pytest.raises(UserError, match="prompt-length filter would count another text"):
        compose_config(["data.apply_chat_template_kwargs.chat_template=null"])


def test_run_json_records_the_style_and_its_templates_hash(
    model_dir, tmp_path, monkeypatch, tiny_multi_level
):
    from pac_verl.run_logs import ENV, prepare_run_logs

    monkeypatch.delenv(ENV, raising=False)

    def record(*extra):
        cfg = compose_config([f"pac.log_root={tmp_path}/runs", f"actor_rollout_ref.model.path="
                              f"{model_dir}", f"trainer.default_local_dir={tmp_path}/ckpt",
                              f"setting.data_dir={tiny_multi_level}", *extra])  # fmt: skip
        path = prepare_run_logs(cfg, argv=["main"])
        path.write_text('{"step": 1, "data": {}}\n')  # it trained a step (else it blocks nothing)
        return json.loads((path.parent / "run.json").read_text())["prompt"]

    assert record() == {
        "style": "completion",
        "chat_template": "the paper's frame (pac_verl.data_prep.prompts.FRAME_TEMPLATE)",
        "chat_template_sha256": hashlib.sha256(prompts.FRAME_TEMPLATE.encode()).hexdigest(),
    }
    qwen = json.loads((QWEN_TOKENIZER / "tokenizer_config.json").read_text())["chat_template"]
    # another style is another config: the same run folder refuses it, naming the key
    with pytest.raises(UserError, match=r"backbone\.prompt_style"):
        record("backbone.prompt_style=chat")
    assert record("backbone.prompt_style=chat", "curriculum.seed=1") == {
        "style": "chat",
        "chat_template": f"the tokenizer's own ({model_dir})",
        "chat_template_sha256": hashlib.sha256(qwen.encode()).hexdigest(),
    }


@pytest.fixture(scope="module")
def multi_level(small_multi_level):
    return small_multi_level


@pytest.mark.parametrize("style", ["completion", "chat"])
def test_the_preflight_shows_one_prompt_per_arm_as_the_rollout_reads_it(
    style, multi_level, tmp_path, monkeypatch, capsys
):
    from pac_verl.checks.preflight import run
    from pac_verl.data_prep.rows import read_rows

    monkeypatch.chdir(tmp_path)
    out = run([f"setting.data_dir={multi_level}", "data.train_batch_size=9", "curriculum=random",
               f"backbone.prompt_style={style}"], tokenizer_path=str(QWEN_TOKENIZER), batches=1)  # fmt: skip
    rows = read_rows(multi_level / "train.parquet")
    shown = out["prompts"]
    assert sorted(shown) == sorted(out["arms"]) and len(shown) == 9
    printed = capsys.readouterr().out
    for arm, p in shown.items():
        info = rows[p["row"]]["extra_info"]
        assert f"{info['type']}/{info['difficulty']}" == arm
        task = rows[p["row"]]["prompt"][0]["content"]
        assert p["text"] == (
            PREAMBLE + "\nUser: " + task + CUE if style == "completion" else
            f"<|im_start|>system\n{QWEN_SYSTEM}<|im_end|>\n<|im_start|>user\n{task}<|im_end|>\n"
            "<|im_start|>assistant\n"
        )  # fmt: skip
        assert p["text"] in printed  # verbatim: no wrapping, no markup
    assert out["prompt"]["style"] == style

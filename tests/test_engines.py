"""modelcard.engines: the length each serving engine gives a config by
default (vLLM 0.33.0, SGLang 0.5.23, llama.cpp), and the commands the report
prints: every flag and variable they use is one the release defines
(tests/data/engine_flags.json), and each command serves what it stretches."""


import json
import re
import shlex

import pytest

from lessons.model_card import (explain)
from modelcard.report import card_json, report
from modelcard.engines import (engine_notes, engine_refusals, served_from, served_lengths, sglang_context_length,
                                   vllm_length_limit, vllm_max_model_len)
from lessons.tools.model_types import NESTED_WHEN_FLAT, gallery
from tests.conftest import LESSONS, ROOT

GALLERY = gallery()
PAGE = next(lesson for lesson in LESSONS if lesson.slug == "model_card").docstring
LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
         "max_position_embeddings": 4096, "rope_theta": 10000.0}


def test_served_length_follows_vllm_0_33():
    """vLLM 0.33.0: vllm/config/model.py _get_and_verify_max_len and
    vllm/transformers_utils/model_arch_config_convertor.py derive_max_model_len_and_key."""
    yarn = explain({**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                              "original_max_position_embeddings": 2048}})
    assert vllm_max_model_len(yarn) == 4096  # a YaRN block no longer multiplies the length (vLLM PR #56446)
    linear = explain({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0}})
    assert vllm_max_model_len(linear) == vllm_length_limit(linear) == 8192  # linear and dynamic still do
    llama3 = explain({**LLAMA, "max_position_embeddings": 131072,
                      "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                       "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})
    assert vllm_max_model_len(llama3) == 131072  # llama3 and longrope are not multiplied
    # model_max_length replaces the smallest key outright (Command R: 8,192 and 131,072)
    assert vllm_max_model_len(explain({**LLAMA, "max_position_embeddings": 8192, "model_max_length": 131072})) == 131072
    # the smallest of the keys vLLM knows, n_ctx not among them; none at all: 2,048
    assert vllm_max_model_len(explain({**LLAMA, "max_position_embeddings": 8192, "seq_length": 4096})) == 4096
    nolength = {k: v for k, v in LLAMA.items() if k != "max_position_embeddings"}
    assert vllm_max_model_len(explain(nolength)) == 2048
    # LongRoPE starts at original_max_position_embeddings (vLLM PR #27431); the limit stays the config's
    phi = gallery()["phi-3.5-mini"]["config"]
    card = explain(phi)
    assert (vllm_max_model_len(card), vllm_length_limit(card)) == (4096, 131072)
    assert "vLLM: vllm serve MODEL --max-model-len 131072" in report(card, 131072)


def test_sglang_and_llama_cpp_lengths_follow_their_sources():
    """SGLang 0.5.23 sglang/srt/utils/hf_transformers/common.py get_context_length; llama.cpp as vendored in
    llama-cpp-python 0.3.36: conversion/base.py set_gguf_parameters, src/llama-context.cpp (-c 0)."""
    linear = explain({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0}})
    yarn = explain({**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                              "original_max_position_embeddings": 2048}})
    command_r = explain({**LLAMA, "max_position_embeddings": 8192, "model_max_length": 131072})
    gpt2 = explain(gallery()["gpt2"]["config"])
    assert served_lengths(linear) == {"transformers": None, "vllm": 8192, "sglang": 8192, "llama.cpp": 4096}
    assert served_lengths(yarn)["sglang"] == 4096  # a block with an original length is not multiplied
    assert served_lengths(command_r) == {"transformers": None, "vllm": 131072, "sglang": 131072, "llama.cpp": 8192}
    # SGLang asks the loaded GPT2Config for max_position_embeddings: attribute_map answers with n_positions
    assert served_lengths(gpt2) == {"transformers": None, "vllm": 1024, "sglang": 1024, "llama.cpp": 1024}
    lines = report(gpt2).splitlines()
    assert "by default     vLLM 0.33.0            1,024  the smallest length key, n_positions" in lines
    assert ("               SGLang 0.5.23          1,024  the first of its keys, max_position_embeddings "
            "(n_positions, by the config class's attribute_map)") in lines
    assert "               llama.cpp (-c 0)       1,024  the converter's key, n_ctx" in lines  # conversion/gpt2.py too
    assert served_from(command_r)["vllm"] == "model_max_length (it replaces the other keys)"
    assert served_from(linear)["vllm"] == "the smallest length key, max_position_embeddings, times the linear factor 2"
    assert served_from(linear)["sglang"] == "the first of its keys, max_position_embeddings, times the linear factor 2"
    falcon = explain(GALLERY["falcon-7b"]["config"])
    assert served_from(falcon) == {"transformers": "no limit", "vllm": "no length key: the 2,048 fallback",
                                   "sglang": "no key it reads: the 2,048 fallback",
                                   "llama.cpp": "fixed by conversion/falcon.py"}
    assert served_lengths(falcon) == {"transformers": None, "vllm": 2048, "sglang": 2048, "llama.cpp": 2048}
    bloom = explain(GALLERY["bloom-560m"]["config"])  # conversion/bloom.py: seq_length, else the hidden size
    assert served_lengths(bloom)["llama.cpp"] == 1024 and "hidden size" in served_from(bloom)["llama.cpp"]
    phi = explain(GALLERY["phi-3.5-mini"]["config"])
    assert served_from(phi)["vllm"].startswith("original_max_position_embeddings")


def test_engine_lines_say_what_each_engine_needs_or_refuse():
    llama = explain(LLAMA)
    lines = report(llama, 16384)
    assert "vLLM: vllm serve MODEL --max-model-len 16384 --hf-overrides '{\"rope_parameters\"" in lines
    # linear x2 over 4,096 at 16,384: the tables have P x 2 rows, so P is raised to 8,192 (not the bare variables,
    # whose tables would end at 8,192)
    linear = explain({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0}})
    assert """vLLM: vllm serve MODEL --max-model-len 16384 --hf-overrides '{"max_position_embeddings": 8192}'""" in \
        report(linear, 16384)
    assert ("""SGLang: python -m sglang.launch_server --model-path MODEL --context-length 16384 """
            """--json-model-override-args '{"max_position_embeddings": 8192}'""") in report(linear, 16384)
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in report(linear, 16384)
    yarn = explain({**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                              "original_max_position_embeddings": 4096}})
    assert """vLLM: vllm serve MODEL --max-model-len 16384 --hf-overrides '{"max_position_embeddings": 16384}'""" in \
        report(yarn, 16384)
    gpt2 = explain(gallery()["gpt2"]["config"])
    past = report(gpt2, 2048)
    assert "vLLM: no command: the position table ends at 1,024" in past
    assert "llama.cpp: no command: the position table ends at 1,024" in past
    assert "SGLang: no command: the position table ends at 1,024" in past
    assert "--max-model-len" not in past and " -c " not in past and "--context-length" not in past
    assert "served length  1,024 by default in vLLM 0.33.0" in report(gpt2)
    assert card_json(gpt2, 2048)["commands"] == {"transformers": None, "vllm": None, "sglang": None, "llama.cpp": None}


ENGINE_FLAGS = json.loads((ROOT / "tests" / "data" / "engine_flags.json").read_text(encoding="utf-8"))


def engine_line_problems(line: str) -> list[str]:
    """What in one printed engine line the engine's release does not define (empty: the line runs).

    A line is "Engine: COMMAND" or "Engine: no command: why". A command is optional VAR=value
    words, the program the engine is started with, then flags its release defines; a JSON
    argument must parse to an object."""
    engine, _, rest = line.partition(": ")
    key = {"vLLM": "vllm", "SGLang": "sglang", "llama.cpp": "llama.cpp"}.get(engine)
    if key is None:
        return [f"no engine is called {engine!r}"]
    if rest.startswith("no command: "):
        return []
    known, problems = ENGINE_FLAGS[key], []
    words = shlex.split(rest)
    while words and re.fullmatch(r"[A-Z][A-Z0-9_]*=\S*", words[0]):
        name = words.pop(0).split("=")[0]
        if name not in known.get("environment", []):
            problems.append(f"{engine} reads no variable {name}")
    program = known["program"].split()
    if words[:len(program)] != program:
        return problems + [f"{engine} is started with {known['program']!r}, not {' '.join(words[:len(program)])!r}"]
    words = words[len(program):]
    for i, word in enumerate(words):
        if word.startswith("-") and word not in known["flags"]:
            problems.append(f"{engine} has no flag {word} ({known['release']})")
        if word in ("--hf-overrides", "--json-model-override-args"):
            try:
                if not isinstance(json.loads(words[i + 1]), dict):
                    problems.append(f"{word} takes a JSON object")
            except (IndexError, json.JSONDecodeError):
                problems.append(f"{word} is not followed by valid JSON")
    if key == "llama.cpp" and "--rope-scaling" in words:
        value = words[words.index("--rope-scaling") + 1]
        if value not in known["rope_scaling_values"]:
            problems.append(f"llama.cpp --rope-scaling takes {known['rope_scaling_values']}, not {value}")
    return problems


def _flag(words: list[str], name: str) -> str | None:
    return words[words.index(name) + 1] if name in words else None


def _overridden(config: dict, override: str | None) -> dict:
    """The config as the engine sees it after a JSON override (vLLM and SGLang replace a
    dict-valued key such as rope_parameters whole, and update text_config key by key)."""
    config = json.loads(json.dumps(config))
    for key, value in (json.loads(override) if override else {}).items():
        if key == "text_config" and "text_config" not in config and config.get("model_type") in NESTED_WHEN_FLAT:
            # transformers 5.24 moves a flat Qwen2-VL file's text keys into text_config (Qwen2VLConfig.__post_init__)
            wrapper = ("vision_config", "architectures", "model_type")
            config = {**{k: config[k] for k in wrapper if k in config},
                      "text_config": {k: v for k, v in config.items() if k not in wrapper}}
        if key == "text_config":
            config["text_config"] = _overridden(config["text_config"], json.dumps(value))
            continue
        if key == "rope_parameters":
            config.pop("rope_scaling", None)
            for moved in ("rope_theta", "partial_rotary_factor", "rotary_pct", "rotary_emb_base",
                          "original_max_position_embeddings"):
                config.pop(moved, None)  # standardized into the block, which the override replaced
        config[key] = value
    return config


def rows_built(seen, engine: str) -> int | None:
    """The positions the RoPE table `engine` builds for the config `seen` (as the engine loads it, after
    the command's override) covers, stated here again from the source, apart from the code that writes
    the commands: vLLM 0.33.0 rotary_embedding/*.py _compute_cos_sin_cache builds P = max_position_embeddings
    rows, P × factor for linear, original × factor for YaRN, 4 times more for Qwen2-VL's M-RoPE (qwen2.py; 1 in
    qwen3_vl.py), and never grows; SGLang 0.5.23
    grows default, llama3 and YaRN tables to the context at load but not linear or dynamic past P × factor
    (their added rows have the unscaled base) nor LongRoPE past P. None: nothing runs out."""
    P = dict(seen.length_keys).get("max_position_embeddings", seen.max_length)
    if not P:
        return None
    reach = []
    for g in seen.rope:
        f, kind = float(g.parameters.get("factor") or 1), g.rope_type
        original = g.parameters.get("original_max_position_embeddings") or seen.trained_length
        if engine == "vllm":
            times = 4 if "mrope_section" in g.parameters and (seen.model_type or "").startswith(("qwen2_vl", "qwen2_5_vl")) else 1
            reach.append(times * P if kind not in ("linear", "yarn") else P * f if kind == "linear"
                         else times * (original or P) * f)
        elif kind in ("linear", "dynamic") and not (seen.model_type or "").startswith("gemma3"):
            reach.append(P * f)
        elif kind == "longrope":
            reach.append(P)
    return min(reach) if reach else None


def command_problems(config: dict, card, served: int, commands: dict) -> list[str]:
    """Would each command be accepted, by the length rules this page reads from each engine's
    source, would its RoPE table cover every position up to the length it serves, and would it
    not serve RoPE past its trained length unscaled?"""
    problems = []
    for key, line in commands.items():
        if line is None:
            continue
        words = shlex.split(line)
        env = {w.split("=")[0] for w in words if re.fullmatch(r"[A-Z][A-Z0-9_]*=\S*", w)}
        if key == "vllm":
            seen = explain(_overridden(config, _flag(words, "--hf-overrides")))
            asked = int(_flag(words, "--max-model-len"))
            if asked > vllm_length_limit(seen) and "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in env:
                problems.append(f"vLLM refuses --max-model-len {asked} past {vllm_length_limit(seen)}: {line}")
        elif key == "sglang":
            seen = explain(_overridden(config, _flag(words, "--json-model-override-args")))
            asked = int(_flag(words, "--context-length"))
            if asked > sglang_context_length(seen) and "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN" not in env:
                problems.append(f"SGLang refuses --context-length {asked} past {sglang_context_length(seen)}: {line}")
        else:
            seen, asked = card, int(_flag(words, "-c"))
            if _flag(words, "--rope-scaling") == "yarn":
                factor, original = float(_flag(words, "--rope-scale")), int(_flag(words, "--yarn-orig-ctx"))
                seen = explain(_overridden(config, json.dumps({"rope_parameters": {
                    "rope_type": "yarn", "rope_theta": card.rope[0].base, "factor": factor,
                    "original_max_position_embeddings": original}})))
        if asked != served:
            problems.append(f"{line} serves {asked}, not {served}")
        rows = rows_built(seen, key) if key != "llama.cpp" else None  # llama.cpp computes each angle: no table
        if rows is not None and rows < served:
            problems.append(f"{line} serves {served:,} positions, but its RoPE table covers {rows:,.0f}")
        trained = seen.trained_length
        if (seen.scheme in ("rope", "mixed") and trained and served > trained and len(seen.rope) == 1
                and seen.rope[0].rope_type == "default"):
            problems.append(f"{line} turns RoPE past its trained {trained:,} unscaled")
    return problems


def _lengths_to_try(card) -> list[int | None]:
    return [None, 4096, card.max_length, 2 * (card.max_length or 2048) + 1, 4 * (card.max_length or 2048)]


# Configs outside the gallery that issue 37 tried, with the position keys of their published config.json
# (tests/data/engine_configs.json says where each was read), tried as the gallery is.
OTHER_CONFIGS = json.loads((ROOT / "tests" / "data" / "engine_configs.json").read_text(encoding="utf-8"))
CONFIGS = {slug: (entry["config"], entry["repo"]) for slug, entry in GALLERY.items()} | {
    name: (entry["config"], entry["repo"]) for name, entry in OTHER_CONFIGS.items() if not name.startswith("_")}


@pytest.mark.parametrize("slug", CONFIGS)
def test_every_printed_engine_line_uses_flags_the_engines_define(slug):
    config, repo = CONFIGS[slug]
    card = explain(config)
    problems = []
    for served in _lengths_to_try(card):
        for line in report(card, served, repo).splitlines():
            if line.startswith("engine "):
                if not line.startswith("engine note"):
                    problems += engine_line_problems(line[len("engine"):].strip())
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("slug", CONFIGS)
def test_every_command_is_accepted_covers_its_table_and_scales_what_it_stretches(slug):
    config, _ = CONFIGS[slug]
    card = explain(config)
    problems = []
    for served in _lengths_to_try(card):
        served = served or vllm_max_model_len(card)
        commands = card_json(card, served)["commands"]
        problems += command_problems(config, card, served, commands)
        refused = engine_refusals(card, served)
        assert all((commands[k] is None) == (k in refused) for k in ("vllm", "sglang", "llama.cpp"))
    assert not problems, "\n".join(problems)


def test_the_command_checks_can_fail():
    assert engine_line_problems("vLLM: vllm serve M --rope-scaling '{\"rope_type\": \"yarn\"}' --max-model-len 8") == [
        "vLLM has no flag --rope-scaling (vLLM 0.33.0 (PyPI wheel vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl))"]
    assert engine_line_problems("llama.cpp: llama-server -m m.gguf --rope-scaling longrope --rope-scale 4") == [
        "llama.cpp --rope-scaling takes ['none', 'linear', 'yarn'], not longrope"]
    assert engine_line_problems("vLLM: VLLM_ALLOW_LONG_MAX_LEN=1 vllm serve M --max-model-len 8") == [
        "vLLM reads no variable VLLM_ALLOW_LONG_MAX_LEN"]
    assert engine_line_problems("llama.cpp: llama-server -m m.gguf -c 8192") == []
    assert engine_line_problems("vLLM: --max-model-len 8192") == [
        "vLLM is started with 'vllm serve', not '--max-model-len 8192'"]
    assert engine_line_problems("SGLang: python -m sglang.launch_server --model-path M --max-model-len 8192") == [
        "SGLang has no flag --max-model-len (SGLang 0.5.23 (PyPI wheel sglang-0.5.23-cp311-cp311-manylinux_2_34_x86_64.whl))"]
    assert engine_line_problems("vLLM: vllm serve M --hf-overrides '{\"a\": 1' --max-model-len 8") == [
        "--hf-overrides is not followed by valid JSON"]
    # the length rules: a YaRN config served at 4x without raising its length is refused;
    # a plain config served past its length with only the variable turns RoPE unscaled
    yarn = {**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}}
    assert command_problems(yarn, explain(yarn), 16384, {"vllm": "vllm serve M --max-model-len 16384"}) == [
        "vLLM refuses --max-model-len 16384 past 4096: vllm serve M --max-model-len 16384"]
    line = "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve M --max-model-len 16384"
    assert command_problems(LLAMA, explain(LLAMA), 16384, {"vllm": line}) == [
        f"{line} serves 16,384 positions, but its RoPE table covers 4,096",
        f"{line} turns RoPE past its trained 4,096 unscaled"]
    line = "python -m sglang.launch_server --model-path M --context-length 16384"
    assert command_problems(LLAMA, explain(LLAMA), 16384, {"sglang": line}) == [
        f"SGLang refuses --context-length 16384 past 4096: {line}", f"{line} turns RoPE past its trained 4,096 unscaled"]
    # the commands of f08bf1e that started and then read past their RoPE table: a linear x4 model over 4,096
    # at 32,768 with the bare variable (16,384 rows), DeepSeek-V2-Lite past its YaRN range (163,840 rows)
    linear = {**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 4.0}}
    line = "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve M --max-model-len 32768"
    assert command_problems(linear, explain(linear), 32768, {"vllm": line}) == [
        f"{line} serves 32,768 positions, but its RoPE table covers 16,384"]
    lite = OTHER_CONFIGS["deepseek-v2-lite"]["config"]
    line = """vllm serve M --max-model-len 327680 --hf-overrides '{"max_position_embeddings": 327680}'"""
    assert command_problems(lite, explain(lite), 327680, {"vllm": line}) == [
        f"{line} serves 327,680 positions, but its RoPE table covers 163,840"]


def test_commands_add_the_whole_block_a_config_lacks():
    """Qwen2.5-7B-Instruct's published config.json has no rope_scaling; its model card says to add
    YaRN with factor 4 over 32,768 for longer inputs. Served at 131,072, every command carries that
    block, base included (an override replaces the whole block in vLLM 0.33.0)."""
    published = {k: v for k, v in GALLERY["qwen2.5-7b-yarn"]["config"].items() if k != "rope_scaling"}
    card = explain(published)
    commands = card_json(card, 131072, "Qwen/Qwen2.5-7B-Instruct")["commands"]
    block = {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0, "original_max_position_embeddings": 32768}
    vllm = shlex.split(commands["vllm"])
    assert vllm[:3] == ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct"]
    assert json.loads(_flag(vllm, "--hf-overrides")) == {"rope_parameters": block, "max_position_embeddings": 131072}
    sglang = shlex.split(commands["sglang"])
    assert json.loads(_flag(sglang, "--json-model-override-args")) == {"rope_parameters": block,
                                                                       "max_position_embeddings": 131072}
    assert commands["llama.cpp"] == "llama-server -m model.gguf -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768"
    # with the block in config.json (as the gallery has it), vLLM needs only the length raised
    yarn = card_json(explain(GALLERY["qwen2.5-7b-yarn"]["config"]), 131072)["commands"]["vllm"]
    assert yarn == """vllm serve MODEL --max-model-len 131072 --hf-overrides '{"max_position_embeddings": 131072}'"""
    # a vision-language config: the override names text_config
    scout = card_json(explain(GALLERY["llama-4-scout"]["config"]), 20_000_000)["commands"]["vllm"]
    assert """--hf-overrides '{"text_config": {"max_position_embeddings": 20000000}}'""" in scout


def test_an_architecture_a_release_no_longer_serves_gets_no_command():
    """vLLM 0.33.0's registry lists MPT (until 0.28.0) and MiniMax-Text-01 (until 0.23.0) only among the
    architectures it used to serve (_PREVIOUSLY_SUPPORTED_MODELS); SGLang 0.5.23 has no model of its own
    for MPT and falls back to its transformers backend (modelcard/registries.json, from the wheels)."""
    from modelcard.engine_tables import REGISTRIES
    from modelcard.engines import SGLANG_RELEASE, VLLM_RELEASE

    assert (REGISTRIES["vllm"]["release"], REGISTRIES["sglang"]["release"]) == (VLLM_RELEASE, SGLANG_RELEASE)
    mpt = explain(GALLERY["mpt-7b"]["config"])
    refused = engine_refusals(mpt, 2048)
    assert refused["vllm"] == (
        "not served by vLLM 0.33.0: its registry (vllm/model_executor/models/registry.py) lists MPTForCausalLM "
        "among the architectures it served until 0.28.0, and its transformers backend takes no MPTForCausalLM "
        "(transformers 5.19.0, modeling_utils.py is_backend_compatible)")
    # SGLang has no MPT model, and its transformers backend (transformers 5.19.0, which it pins) refuses MPT,
    # BLOOM and Falcon: their classes do not set _supports_attention_backend
    assert refused["sglang"].startswith("SGLang 0.5.23 has no model of its own for MPTForCausalLM")
    for slug in ("bloom-560m", "falcon-7b"):
        assert "its transformers backend refuses it" in engine_refusals(explain(GALLERY[slug]["config"]), 2048)["sglang"]
    lines = report(mpt, 2048).splitlines()
    assert any(line.startswith("engine         vLLM: no command: not served by vLLM 0.33.0") for line in lines)
    minimax = {**LLAMA, "model_type": "minimax", "architectures": ["MiniMaxText01ForCausalLM"]}
    assert "until 0.23.0" in engine_refusals(explain(minimax), 4096)["vllm"]
    # a dropped architecture whose transformers class the backend takes is served through it (the registry
    # tries _try_resolve_transformers before it refuses): MiniMaxForCausalLM
    dots = explain({**LLAMA, "architectures": ["MiniMaxForCausalLM"]})
    assert "vllm" not in engine_refusals(dots, 4096)
    assert any(n.startswith("vLLM: MiniMaxForCausalLM is served through vLLM 0.33.0's transformers backend")
               for n in engine_notes(dots, 4096))
    # an architecture vLLM serves natively gets its command, whatever it once was
    assert "vllm" not in engine_refusals(explain({**LLAMA, "architectures": ["LlamaForCausalLM"]}), 4096)


def test_an_architecture_llama_cpp_cannot_convert_gets_no_command():
    """llama.cpp's converter (llama-cpp-python 0.3.36, conversion/*.py) registers a class per architecture and
    picks one by architectures[0]: GPT-J and Phi-3-Vision have none, so no GGUF file exists to serve; MiniMax-M1
    has one (conversion/minimax.py). The list is read from the sdist (tests/reference/registries.py)."""
    from modelcard.engine_tables import REGISTRIES

    converted = REGISTRIES["llama.cpp"]["converted"]
    assert {"LlamaForCausalLM", "MiniMaxM1ForCausalLM", "Phi3ForCausalLM"} <= set(converted)
    for slug in ("gpt-j-6b", "phi-3-vision"):
        card = explain(GALLERY[slug]["config"])
        arch = card.architectures[0]
        assert arch not in converted
        assert engine_refusals(card, None)["llama.cpp"] == (
            f"llama.cpp (llama-cpp-python 0.3.36)'s converter has no class for {arch} (conversion/*.py "
            "ModelBase.register): no GGUF file")
        assert served_lengths(card)["llama.cpp"] is None
    assert "llama.cpp" not in engine_refusals(explain({**LLAMA, "architectures": ["MiniMaxM1ForCausalLM"]}), 4096)


def test_a_flat_vision_language_config_is_overridden_where_transformers_puts_its_keys():
    """Qwen2-VL's published config.json is flat; transformers 5.24's Qwen2VLConfig moves its text keys into
    text_config, which vLLM and SGLang read: an override at the top level would leave the length at 32,768.
    The added YaRN block keeps mrope_section (an override replaces the whole block)."""
    config = GALLERY["qwen2-vl-7b"]["config"]
    assert "text_config" not in config and explain(config).nested
    commands = card_json(explain(config), 65536)["commands"]
    vllm = json.loads(_flag(shlex.split(commands["vllm"]), "--hf-overrides"))
    assert list(vllm) == ["text_config"] and vllm["text_config"]["max_position_embeddings"] == 65536
    assert vllm["text_config"]["rope_parameters"]["mrope_section"] == [16, 24, 24]
    seen = explain(_overridden(config, json.dumps(vllm)))
    assert vllm_length_limit(seen) == 65536 and "mrope_section" in seen.rope[0].parameters


def test_which_lengths_get_a_command_outside_the_gallery():
    """The table checks above pass for a blanket 'no command' too: here is who gets one. vLLM serves
    DeepSeek-V2-Lite up to its YaRN table (163,840 rows) and no further; InternLM2.5's dynamic block past its
    32,768 rows with max_trained_positions kept at 32,768 (vLLM's base is then transformers' dynamic base at
    the served length); vicuna's linear x4 block with max_position_embeddings raised to length / 4."""
    got = {}
    for name in ("deepseek-v2-lite", "internlm2.5-7b", "vicuna-7b-16k"):
        card = explain(OTHER_CONFIGS[name]["config"])
        for times in (1, 2, 4):
            commands = card_json(card, times * vllm_max_model_len(card))["commands"]
            got[name, times] = tuple(commands[k] is not None for k in ("vllm", "sglang", "llama.cpp"))
    assert got == {("deepseek-v2-lite", 1): (True, True, True), ("deepseek-v2-lite", 2): (False, True, True),
                   ("deepseek-v2-lite", 4): (False, True, True), ("internlm2.5-7b", 1): (True, True, True),
                   ("internlm2.5-7b", 2): (True, True, True), ("internlm2.5-7b", 4): (True, True, True),
                   ("vicuna-7b-16k", 1): (True, True, True), ("vicuna-7b-16k", 2): (True, True, True),
                   ("vicuna-7b-16k", 4): (True, True, True)}
    internlm = card_json(explain(OTHER_CONFIGS["internlm2.5-7b"]["config"]))["commands"]["vllm"]
    assert json.loads(_flag(shlex.split(internlm), "--hf-overrides")) == {
        "rope_parameters": {"rope_type": "dynamic", "rope_theta": 1000000.0, "factor": 2.0, "max_trained_positions": 32768},
        "max_position_embeddings": 65536}
    vicuna = card_json(explain(OTHER_CONFIGS["vicuna-7b-16k"]["config"]), 65536)["commands"]["vllm"]
    assert json.loads(_flag(shlex.split(vicuna), "--hf-overrides")) == {"max_position_embeddings": 16384}


def test_an_added_yarn_block_follows_the_authors_original_length():
    """Qwen3's config.json sets max_position_embeddings to 40,960; its model card adds YaRN as factor 4 over
    original_max_position_embeddings 32,768 (model_types.AUTHOR_YARN_ORIGINAL). The decoder stretches from
    32,768, not from 40,960, and says whose rule it follows; the rule holds only at the config length it names."""
    qwen3 = explain(OTHER_CONFIGS["qwen3-30b-a3b"]["config"])
    commands = card_json(qwen3, 131072)["commands"]
    block = json.loads(_flag(shlex.split(commands["vllm"]), "--hf-overrides"))["rope_parameters"]
    assert (block["factor"], block["original_max_position_embeddings"]) == (4.0, 32768)
    assert commands["llama.cpp"].endswith("--rope-scale 4 --yarn-orig-ctx 32768")
    assert any("adds YaRN with factor 4 over 32,768, as the Qwen3 model card" in n for n in engine_notes(qwen3, 131072))
    assert card_json(qwen3, 40960)["commands"]["vllm"] == "vllm serve MODEL --max-model-len 40960"
    other = explain({**OTHER_CONFIGS["qwen3-30b-a3b"]["config"], "max_position_embeddings": 65536})
    block = json.loads(_flag(shlex.split(card_json(other, 131072)["commands"]["vllm"]), "--hf-overrides"))
    assert block["rope_parameters"]["original_max_position_embeddings"] == 65536


def test_the_lesson_reads_every_length_key_an_engine_reads():
    """A card records the length keys a config sets from the lesson's list (the lesson imports no
    engine); that list is the union of the engines' own, in order, so no engine rule misses a key."""
    from lessons.tools.exact import ENGINE_READ_LENGTH_KEYS
    from modelcard.engines import ENGINE_LENGTH_KEYS

    assert ENGINE_READ_LENGTH_KEYS == ENGINE_LENGTH_KEYS

"""Known position bugs by engine and release (modelcard/known_bugs.json, read by modelcard/known_bugs.py):
the table is whole and every row names where it was read; each rule picks the configs its thread describes
and no others; `--engine ENGINE==RELEASE` adds them to the report, the JSON and the verdict; a wrong spec is
one error line."""

from __future__ import annotations

import json
import re

import pytest

from lessons.model_card import explain
from modelcard.cli import main
from modelcard.report import card_json, report, report_sections
from modelcard.known_bugs import (ENGINE_NAMES, KNOWN_BUGS, known_bugs, parse_engine, release_key, release_menu,
                                      rule_holds)
from lessons.tools.model_types import ConfigError, gallery
from tests.conftest import ROOT

GALLERY = gallery()
EXTRA = {k: v for k, v in json.loads((ROOT / "tests" / "data" / "engine_configs.json").read_text()).items()
         if not k.startswith("_")}
RULE_KEYS = {"model_types", "architectures", "rope_types", "from_config", "mrope", "past", "yarn_factor_not_ratio"}


def card(slug: str, **extra):
    config = (GALLERY.get(slug) or EXTRA[slug])["config"]
    return explain({**config, **extra})


def refs(card_, served, spec) -> list[str]:
    return [row["ref"] for row in known_bugs(card_, served, spec)]


def test_every_row_is_whole_and_says_where_it_was_read():
    rows = KNOWN_BUGS["rows"]
    assert len(rows) >= 10 and len({r["ref"] for r in rows}) == len(rows)
    for row in rows:
        where = row["ref"]
        assert row["engine"] in ENGINE_NAMES, where
        assert set(row) == {"ref", "engine", "first", "since", "fixed", "checked", "rule", "applies", "symptom", "do",
                            "source"} - ({"checked"} if row["fixed"] else set()), where
        assert set(row["rule"]) <= RULE_KEYS and row["since"] in ("introduced", "seen"), where
        number = re.search(r"#\d+", where)  # the thread it was read in, or the released file
        assert (number.group() in row["source"]) if number else row["source"].startswith("read in "), where
        releases = [row[k] for k in ("first", "fixed", "checked") if row.get(k)]
        for release in releases:
            parse_engine(f"{row['engine']}=={release}")  # each release is one the spec accepts
        if row["fixed"] is None:  # unfixed: seen from a named release to a named release, never open-ended
            assert row["first"] and release_key(row["first"]) <= release_key(row["checked"]), where
        elif row["first"]:
            assert release_key(row["first"]) < release_key(row["fixed"]), where
        assert row["symptom"].endswith(".") and row["do"].endswith("."), where


def test_release_order_and_the_spec():
    assert release_key("0.8.5") < release_key("0.8.5.post1") < release_key("0.11.1") < release_key("0.33.0")
    assert release_key("b5290") < release_key("b10754")
    assert parse_engine("llama.cpp==b5290") == ("llama.cpp", "b5290")
    for bad in ("vllm=0.33.0", "vllm", "tgi==1.0", "vllm==latest", "vllm==0.33.0==1", ""):
        with pytest.raises(ConfigError, match="--engine takes ENGINE==RELEASE"):
            parse_engine(bad)


def test_each_rule_picks_the_configs_its_thread_describes():
    qwen25, qwen3 = card("qwen2.5-7b-yarn"), card("qwen3-30b-a3b")
    # transformers 4.51.0-4.55.4 replaced YaRN's factor by max_position_embeddings / original (#38224):
    # Qwen2.5's card block (32,768 over 32,768) and the block added to Qwen3 past 32,768 lose theirs;
    # DeepSeek-V2-Lite's (163,840 = 40 x 4,096) keeps it; 4.50.3 and 4.56.0 are not affected
    assert refs(qwen25, None, "transformers==4.55.4") == ["transformers #38224"]
    assert refs(qwen3, 131072, "transformers==4.51.0") == ["transformers #38224"]
    assert refs(qwen3, 40960, "transformers==4.51.0") == []  # no block needed, none added
    assert refs(card("deepseek-v2-lite"), None, "transformers==4.55.4") == []
    assert refs(qwen25, None, "transformers==4.50.3") == refs(qwen25, None, "transformers==4.56.0") == []
    # vLLM's static YaRN on Qwen3 (#18728): the block added past 40,960 or one in the config; not Qwen2.5
    assert "vLLM #18728" in refs(qwen3, 131072, "vllm==0.33.0")
    assert "vLLM #18728" not in refs(qwen3, None, "vllm==0.33.0") + refs(qwen25, 131072, "vllm==0.33.0")
    # positions past vLLM's table (#17924): DeepSeek-V2-Lite's YaRN table has 4,096 x 40 = 163,840 rows, and no
    # override reaches further, so no vLLM command is printed; Qwen3 at 131,072 gets one that covers it (no row)
    assert "vLLM #17924" not in refs(card("deepseek-v2-lite"), 163840, "vllm==0.33.0")
    assert "vLLM #17924" in refs(card("deepseek-v2-lite"), 327680, "vllm==0.33.0")
    assert "vLLM #17924" not in refs(qwen3, 131072, "vllm==0.33.0")
    # SGLang drops the factor when the block names an original length, which transformers 5 fills in (#8016)
    assert "SGLang PR #8016" in refs(card("qwen2.5-7b-yarn"), None, "sglang==0.5.23")
    no_original = {"rope_scaling": {"type": "yarn", "factor": 4.0}}
    assert "SGLang PR #8016" in refs(card("llama-2-7b", **no_original), None, "sglang==0.5.23")
    assert refs(card("llama-2-7b", **no_original), None, "transformers==4.55.4") == []  # 4.x fills in nothing
    # SGLang's LongRoPE switches the whole batch past the original length (rope_variant.py, read in 0.5.23)
    assert "SGLang rope_variant.py (LongRoPE)" in refs(card("phi-4-mini"), 8192, "sglang==0.5.23")
    # llama.cpp's converter dropped YaRN for Qwen2/3-MoE before b5290 (#13322): a block in the config only
    yarn = {"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}
    assert "llama.cpp #13322" in refs(card("qwen3-30b-a3b", **yarn), None, "llama.cpp==b5000")
    assert "llama.cpp #13322" not in refs(card("qwen3-30b-a3b", **yarn), None, "llama.cpp==b5290")
    assert "llama.cpp #13322" not in refs(qwen3, 131072, "llama.cpp==b5000")  # the command passes YaRN flags
    # M-RoPE's KV shift (#13865) from b5524 to before b5527; Gemma 3's eight-fold table (#33911) in vLLM
    assert "llama.cpp #13865" in refs(card("qwen2-vl-7b"), None, "llama.cpp==b5524")
    assert "llama.cpp #13865" not in refs(card("qwen2-vl-7b"), None, "llama.cpp==b5527") + \
        refs(card("llama-3.1-8b"), None, "llama.cpp==b5524")
    assert refs(card("gemma-3-4b"), None, "vllm==0.33.0") == ["vLLM #33911"]
    assert refs(card("gemma-3-4b"), None, "transformers==4.55.4") == []
    # LongRoPE: the list chosen by -c in llama.cpp (#24823) and the mid-sequence switch in vLLM before 0.11.1
    phi = card("phi-4-mini")
    assert "llama.cpp #24823" in refs(phi, 8192, "llama.cpp==b9700") and \
        "llama.cpp #24823" not in refs(phi, 4096, "llama.cpp==b9700")
    assert "vLLM #27414" in refs(phi, 8192, "vllm==0.11.0") and "vLLM #27414" not in refs(phi, 8192, "vllm==0.11.1")


def test_the_status_says_how_far_each_row_was_read():
    gemma = card("gemma-3-4b")
    (row,) = known_bugs(gemma, None, "vllm==0.34.0")
    assert row["status"] == "seen from 0.8.5 on, still in 0.34.0"
    (row,) = known_bugs(gemma, None, "vllm==0.35.0")
    assert row["status"] == "seen from 0.8.5 on, last seen in 0.34.0; 0.35.0 not checked"
    (row,) = known_bugs(gemma, None, "vllm==0.8.0")  # seen from 0.8.5: an earlier release was not checked
    assert row["status"] == "seen from 0.8.5; 0.8.0 is earlier and was not checked"
    (row,) = known_bugs(card("qwen2.5-7b-yarn"), None, "transformers==4.55.4")
    assert row["status"] == "from 4.51.0 to before 4.56.0, which fixes it"
    assert known_bugs(card("qwen2.5-7b-yarn"), None, "transformers==4.50.3") == []  # introduced in 4.51.0
    row = next(r for r in known_bugs(card("qwen3-30b-a3b", rope_scaling={
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}), None, "llama.cpp==b5000")
        if r["ref"] == "llama.cpp #13322")
    assert row["status"] == "releases before b5290, which fixes it"


def test_the_rules_can_fail():
    """Each condition, planted the other way round, changes the answer (a rule that ignored it would not)."""
    qwen25 = card("qwen2.5-7b-yarn")
    assert rule_holds({"yarn_factor_not_ratio": True}, qwen25, 32768, "vllm")
    assert not rule_holds({"yarn_factor_not_ratio": True}, card("deepseek-v2-lite"), 163840, "vllm")
    assert rule_holds({"model_types": ["qwen2"]}, qwen25, 1, "vllm") != rule_holds({"model_types": ["qwen3"]}, qwen25, 1, "vllm")
    assert rule_holds({"past": "trained"}, qwen25, 32769, "vllm") and not rule_holds({"past": "trained"}, qwen25, 32768, "vllm")
    qwen3 = card("qwen3-30b-a3b")
    assert rule_holds({"rope_types": ["yarn"]}, qwen3, 131072, "vllm")
    assert not rule_holds({"rope_types": ["yarn"], "from_config": True}, qwen3, 131072, "vllm")
    assert rule_holds({"mrope": True}, card("qwen2-vl-7b"), 1, "vllm") and not rule_holds({"mrope": True}, qwen3, 1, "vllm")
    assert rule_holds({}, qwen3, 1, "vllm")


def test_engine_flag_adds_the_section_the_json_and_the_verdict(capsys):
    gemma = card("gemma-3-4b")
    lines = report(gemma, None, "m", "vllm==0.33.0").splitlines()
    (line,) = [ln for ln in lines if ln.startswith("known bug")]
    assert line.startswith("known bug      vLLM #33911: the global layers' cos/sin table is built for ")
    assert "(vLLM 0.33.0; affected seen from 0.8.5 on, still in 0.34.0; here: Gemma 3 whose global layers" in line
    assert report(gemma, None, "m") == "\n".join(ln for ln in lines if not ln.startswith("known bug"))
    sections = report_sections(gemma, None, "m", "vllm==0.33.0")
    assert [s["key"] for s in sections["sections"]][-2:] == ["bugs", "sources"]
    assert sections["verdict"].endswith("; 1 known bug below needs attention.")
    both = report_sections(card("qwen3-30b-a3b"), 131072, "m", "vllm==0.33.0")["verdict"]
    assert both.endswith("; 2 warnings and 1 known bug below need attention."), both
    assert report_sections(card("llama-3.1-8b"), None, "m", "vllm==0.33.0")["verdict"].endswith(
        "; nothing needs attention.")
    none = [ln for ln in report(card("llama-3.1-8b"), None, "m", "vllm==0.33.0").splitlines() if ln.startswith("known")]
    n = sum(r["engine"] == "vllm" for r in KNOWN_BUGS["rows"])
    assert none == [f"known bugs     none of the {n} row{'s' if n != 1 else ''} for "
                    f"vLLM applies to this config in 0.33.0 ({KNOWN_BUGS['about']})"]
    assert "known_bugs" not in card_json(gemma)
    assert [r["ref"] for r in card_json(gemma, None, "m", "vllm==0.33.0")["known_bugs"]] == ["vLLM #33911"]
    assert main(["gemma-3-4b", "--engine", "vllm==0.33.0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["known_bugs"][0]["status"] == "seen from 0.8.5 on, still in 0.34.0"
    assert main(["gemma-3-4b", "--engine", "vllm=0.33.0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and captured.err.startswith("error: --engine takes")


def test_the_menu_offers_every_release_a_row_turns_on():
    menu = [spec for spec, _ in release_menu()]
    assert "vllm==0.33.0" in menu and "transformers==5.24.0" in menu and "llama.cpp==b5290" in menu
    for row in KNOWN_BUGS["rows"]:
        for key in ("first", "fixed", "checked"):
            if row.get(key):
                assert f"{row['engine']}=={row[key]}" in menu

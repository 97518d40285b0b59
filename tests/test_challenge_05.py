"""Challenge 05 (decoding with a KV cache) through its command line: the reference
solution passes; each named mistake, written as a learner would in tests/data/c05/,
gets the checker's own hint word for word; an answer right only at one head width,
a loop over the cache and an overflowing softmax fail; the starter fails cleanly;
the page's numbers, sample output and tables are the checker's and the solution's."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from challenges.c05 import checks
from lessons.rope import apply_rope_half, attention_output
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C05 = ROOT / "challenges" / "c05"
SOLUTION = (C05 / "solution.py").read_text(encoding="utf-8")
PAGE = (ROOT / "docs" / "challenges" / "05-kv-cache.md").read_text(encoding="utf-8")
KEYS = ["keys_shape", "keys_values", "keys_cache_kept", "keys_position_is_length", "keys_full_pass",
        "keys_batch_axes", "keys_no_loop"]
DECODE = ["decode_shape", "decode_values", "decode_own_key", "decode_token_by_token", "decode_prefill",
          "decode_chunk", "decode_batch_axes", "decode_with_your_cache", "decode_no_loop"]
ALL = KEYS + DECODE


def check(tmp_path: Path, source: str, *options: str, name: str = "answer.py"):
    return kit.check(tmp_path, "05", source, *options, name=name)


def test_starter_and_solution_declare_the_same_functions_and_the_same_given_rotation():
    starter, solution = kit.load(C05 / "starter.py"), kit.load(C05 / "solution.py")
    for name in [*checks.FUNCTIONS, "apply_rope"]:
        assert inspect.signature(getattr(starter, name)) == inspect.signature(getattr(solution, name))
    for name, declared in checks.FUNCTIONS.items():
        assert declared == f"{name}({', '.join(_parameters(solution, name))})"
    x, positions = np.random.default_rng(0).normal(size=(2, 5, 16)), np.array([3, 0, 9, 4, 100])
    for module in (starter, solution):  # the given rotation is Challenge 04's half-split one
        assert np.allclose(module.apply_rope(x, positions, 500.0), apply_rope_half(x, positions, 500.0))


def _parameters(module, name: str) -> list[str]:
    return [p if v.default is inspect.Parameter.empty else f"{p}={v.default!r}"
            for p, v in inspect.signature(getattr(module, name)).parameters.items()]


# --- the reference the checker holds answers to ------------------------------------------------------------


def test_the_full_pass_is_the_lessons_rope_head():
    """checks.full_pass on one head is lessons.rope.attention_output: RoPE, then causal attention."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(9, 16))
    W_q, W_k, W_v = (rng.normal(0.0, 0.25, (16, 16)) for _ in range(3))
    for base in (10000.0, 500000.0):
        assert np.allclose(checks.full_pass(X @ W_q.T, X @ W_k.T, X @ W_v.T, base),
                           attention_output(X, W_q, W_k, W_v, base=base), atol=1e-12)


def test_a_right_step_is_a_row_of_the_full_pass():
    Q, K, V = checks.sequence(4, (3,), 12, 64)
    full = checks.full_pass(Q, K, V)
    for t, n in ((0, 12), (0, 1), (5, 1), (11, 1), (4, 6)):
        assert np.allclose(checks.right_step(*checks.split(Q, K, V, t, n)), full[..., t:t + n, :], atol=1e-12)
        assert np.allclose(checks.right_keys(checks.split(Q, K, V, t, n)[3], K[..., t:t + n, :]),
                           apply_rope_half(K[..., :t + n, :], None), atol=1e-12)


def test_the_rebuilt_mistakes_are_told_apart():
    """Every rebuilt mistake differs from the right answer and from every other one where the checker compares."""
    def outputs(step, probes) -> list:
        return [checks._tried(lambda p=p: step(*p)) for p in probes]

    for table, probes, right in (
            (checks._key_mistakes, [checks._probe(*p)[3:4] + checks._probe(*p)[1:2] for p in checks.KEY_PROBES],
             lambda ck, k: checks.right_keys(ck, k)),
            (checks._decode_mistakes, [checks._probe(*p) for p in checks.DECODE_PROBES], checks.right_step)):
        built = [outputs(lambda *p, wrong=wrong: wrong(*p, 10000.0), probes) for *_, wrong, _ in table()]
        built.append(outputs(right, probes))
        widths = {p[-1] for p in (checks.KEY_PROBES if table is checks._key_mistakes else checks.DECODE_PROBES)}
        assert widths == {8, 64}  # a mistake is named only when it holds at two widths
        for a in range(len(built)):
            for b in range(a + 1, len(built)):
                assert not all(checks._same(x, y) for x, y in zip(built[a], built[b], strict=True)), (table, a, b)


# --- named mistakes: one learner file each, the hint word for word ----------------------------------------

# (learner file, the checker's table: "K" append_keys' rebuilt mistakes, "D" decode_attention's; the entry's
# index there, the properties that name it)
NAMED = [
    ("keys_unrotated.py", "K", 0, ("keys_values", "keys_position_is_length", "keys_full_pass")),
    ("keys_positions_from_0.py", "K", 1, ("keys_values", "keys_position_is_length", "keys_full_pass")),
    ("keys_off_by_one.py", "K", 2, ("keys_values", "keys_position_is_length", "keys_full_pass")),
    ("keys_cache_rotated_again.py", "K", 3, ("keys_values", "keys_cache_kept", "keys_full_pass")),
    ("decode_positions_from_0.py", "D", 0,
     ("decode_values", "decode_token_by_token", "decode_prefill", "decode_chunk", "decode_with_your_cache")),
    ("decode_off_by_one.py", "D", 1,
     ("decode_values", "decode_token_by_token", "decode_prefill", "decode_chunk", "decode_with_your_cache")),
    ("decode_query_at_0.py", "D", 2, ("decode_values", "decode_own_key", "decode_token_by_token", "decode_prefill",
                                      "decode_chunk", "decode_with_your_cache")),
    ("decode_query_not_rotated.py", "D", 3, ("decode_values", "decode_own_key", "decode_token_by_token",
                                             "decode_prefill", "decode_chunk", "decode_with_your_cache")),
    ("decode_cache_rotated_again.py", "D", 4,
     ("decode_values", "decode_token_by_token", "decode_prefill", "decode_chunk", "decode_with_your_cache")),
    ("decode_keys_at_query_position.py", "D", 5, ("decode_shape", "decode_values", "decode_token_by_token",
                                                  "decode_prefill", "decode_chunk", "decode_with_your_cache",
                                                  "decode_no_loop")),
    ("decode_values_rotated.py", "D", 6, ("decode_values", "decode_own_key", "decode_token_by_token",
                                          "decode_prefill", "decode_chunk", "decode_with_your_cache")),
    ("decode_no_scaling.py", "D", 7, ("decode_values", "decode_own_key", "decode_token_by_token", "decode_prefill",
                                      "decode_chunk", "decode_with_your_cache")),
    ("decode_mask_top_left.py", "D", 8, ("decode_values", "decode_own_key", "decode_token_by_token",
                                         "decode_prefill", "decode_chunk", "decode_with_your_cache")),
    ("decode_no_mask.py", "D", 9, ("decode_prefill", "decode_chunk", "decode_with_your_cache")),
]
# an append_keys mistake breaks the decode_attention that calls it, and the checker says so
YOUR_KEYS = {"keys_unrotated.py": DECODE[1:6] + ["decode_with_your_cache"],
             "keys_positions_from_0.py": DECODE[1:6] + ["decode_with_your_cache"],
             "keys_off_by_one.py": DECODE[1:6] + ["decode_with_your_cache"],
             "keys_cache_rotated_again.py": ["decode_values", *DECODE[3:6], "decode_with_your_cache"]}


def _named_hint(table: str, index: int) -> tuple[str, str]:
    """(the mistake's name, 'classic mistake "NAME": EXPLANATION') in the checker's own words."""
    name, why, _, classic = list(checks._key_mistakes() if table == "K" else checks._decode_mistakes())[index]
    return name, f'{"classic mistake" if classic else "mistake"} "{name}": {why}'


@pytest.mark.parametrize("name, table, index, named_by", NAMED, ids=[n for n, *_ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, table, index, named_by):
    code, lines, output = kit.learner(tmp_path, "05", name)
    assert code == 1
    _, hint = _named_hint(table, index)
    failing = [p for p in ALL if not lines[p].startswith("PASS ")]
    assert [p for p in failing if lines[p] == f"FAIL {p}: {hint}"] == list(named_by), output
    rest = [p for p in failing if p not in named_by]
    assert rest == YOUR_KEYS.get(name, []), output
    assert all(lines[p] == f"FAIL {p}: {checks.RIGHT_FOR_YOUR_KEYS}" for p in rest), output


def test_each_named_mistake_has_a_learner_file():
    rebuilt = len(list(checks._key_mistakes())) + len(list(checks._decode_mistakes()))
    assert len(NAMED) == rebuilt >= 6 and len({n for n, *_ in NAMED}) == len(NAMED)
    assert {(t, i) for _, t, i, _ in NAMED} == {("K", i) for i in range(len(list(checks._key_mistakes())))} | {
        ("D", i) for i in range(len(list(checks._decode_mistakes())))}
    assert all(kit.learner_file("05", n).is_file() for n, *_ in NAMED)


def test_every_learner_file_is_used_by_a_test():
    used = {n for n, *_ in NAMED} | {"decode_speeds_over_8.py", "decode_loop_over_keys.py", "decode_no_max.py",
                                     "decode_scaled_by_value_width.py"}
    assert {p.name for p in (ROOT / "tests" / "data" / "c05").glob("*.py")} == used


# --- answers that are wrong in other ways ------------------------------------------------------------------


def test_an_answer_right_only_at_one_width_fails(tmp_path):
    # the speeds divide by a hard-coded head width of 8: right for the worked example (d = 2) and at d = 8
    code, lines, output = kit.learner(tmp_path, "05", "decode_speeds_over_8.py")
    assert code == 1
    assert lines["keys_values"].startswith(
        "FAIL keys_values: append_keys: a cache of 13 keys and 1 new (width 64) must give the cache, then the new "
        "keys turned at 13; keys[0, 13, "), output
    assert lines["decode_values"].startswith(
        "FAIL decode_values: decoding the token at position 13, after a cache of 13 keys (width 64), must give row 13 "
        "of the full causal pass; output["), output
    assert lines["keys_position_is_length"].startswith("FAIL keys_position_is_length: "), output  # width 16
    assert "mistake" not in output, output  # right at 8 only: no mistake is named for it
    assert kit.passes(lines, ["keys_shape", "keys_cache_kept", "decode_shape", "decode_own_key"]), output


def test_a_python_loop_over_the_cached_keys_is_found_by_counting_lines(tmp_path):
    code, lines, output = kit.learner(tmp_path, "05", "decode_loop_over_keys.py")
    found = re.fullmatch(r"FAIL decode_no_loop: a Python loop over the cached keys: decode_attention ran (\d+) lines "
                         r"of decode_loop_over_keys\.py for the small input and (\d+) for one with 8 times more cached "
                         r"keys; score every query against every key at once: q @ np\.swapaxes\(keys, -1, -2\) is "
                         r"\(\.\.\., n, t \+ n\)", lines["decode_no_loop"])
    assert code == 1 and found and int(found[2]) - int(found[1]) >= 56, output  # 56 more keys: a line each
    assert kit.passes(lines, ALL[:-1]), output


def test_a_softmax_that_overflows_is_traced_to_its_line(tmp_path):
    code, lines, output = kit.learner(tmp_path, "05", "decode_no_max.py")
    line = kit.line_of("05", "decode_no_max.py", "    e = np.exp(scores)")
    assert code == 1
    assert lines["decode_values"] == (
        "FAIL decode_values: decode_attention(x of shape (2, 1, 16), an array of shape (2, 1, 16), an array of shape "
        "(2, 1, 16), an array of shape (2, 7, 16), an array of shape (2, 7, 16)) returned NaN or inf values: overflow "
        f"at decode_no_max.py, line {line} ({checks.NOT_FINITE_CAUSES['overflow']})"), output
    assert kit.passes(lines, [p for p in ALL if p != "decode_values"]), output


def test_unturned_keys_turned_at_attention_time_are_two_named_mistakes_that_still_generate_right(tmp_path):
    # a design that is consistent but breaks the contract: the cache holds raw keys, attention turns them all
    source = kit.edited(SOLUTION, (
        "    rotated = apply_rope(k, positions, base)  # rotate once, then keep\n",
        "    rotated = np.asarray(k, dtype=float) + 0 * positions[:, None]\n"), (
        "    keys = append_keys(cache_k, k, base)  # (..., t + n, d), all rotated\n",
        "    keys = apply_rope(append_keys(cache_k, k, base), np.arange(t + n), base)\n"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    (_, unturned), (_, again) = _named_hint("K", 0), _named_hint("D", 4)
    assert lines["keys_values"] == f"FAIL keys_values: {unturned}", output
    assert lines["decode_values"] == f"FAIL decode_values: {again}", output
    assert lines["decode_with_your_cache"].startswith("PASS"), output  # its own cache and its own attention agree


def test_keys_rounded_to_float16_are_told_so(tmp_path):
    source = kit.edited(SOLUTION, ("    rotated = apply_rope(k, positions, base)  # rotate once, then keep\n",
                                   "    rotated = apply_rope(k, positions, base).astype(np.float16).astype(float)\n"))
    code, lines, output = check(tmp_path, source)
    assert code == 1
    assert lines["keys_values"].endswith(
        "and every value you return is a float16 number: part of your computation is in float16; compute in "
        "float32 or float64)"), output


# --- the page: its numbers, its sample output, its tables --------------------------------------------------


def test_the_pages_worked_example_is_the_solutions_and_the_checkers():
    solution = kit.load(C05 / "solution.py")
    text = " ".join(PAGE.split())
    one, v0, v1 = np.array([[1.0, 0.0]]), np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
    keys = solution.append_keys(one, one)
    assert f"$(\\cos 1, \\sin 1) \\approx ({keys[1, 0]:.3f}, {keys[1, 1]:.3f})$" in text
    scores = keys @ keys[1] / np.sqrt(2)
    assert f"$(\\cos 1, 1)/\\sqrt{{2}} \\approx ({scores[0]:.3f}, {scores[1]:.3f})$" in text
    out = solution.decode_attention(one, one, v1, one, v0)[0]
    assert f"$({out[0]:.3f}, {out[1]:.3f})$, and that vector is also the output" in text
    mistakes = {name: step(one, one, v1, one, v0, 10000.0)[0] for name, _, step, _ in checks._decode_mistakes()}
    for name in ("positions counted from 0", "position off by one", "no scaling", "causal mask aligned top-left",
                 "values rotated"):
        shown = ", ".join(f"{x:.3f}".rstrip("0").rstrip(".") if abs(x) > 1e-12 else "0" for x in mistakes[name])
        assert f"{name}: $({shown})$" in text, name
    assert np.allclose(checks.right_step(one, one, v1, one, v0), out[None])


def test_the_pages_sample_output_is_the_checkers(tmp_path):
    _, _, output = kit.learner(tmp_path, "05", "decode_positions_from_0.py")
    assert kit.page_sample(ROOT / "docs" / "challenges" / "05-kv-cache.md").strip() == output.strip()


def test_the_pages_python_lines_fit():
    for block in re.findall(r"```python\n(.*?)```", PAGE, flags=re.S):
        assert all(len(line) <= 79 for line in block.splitlines()), block
    assert '--8<-- "challenges/c05/solution.py"' in PAGE  # the page shows the solution: its lines must fit too
    assert all(len(line) <= 79 for line in SOLUTION.splitlines())
    sample = PAGE.split("## Check your answer", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    assert all(len(line) <= 79 for line in sample.splitlines())


def test_the_pages_tables_are_the_checkers():
    properties = kit.page_table(PAGE, "11 of 16 properties pass\n```")
    assert [row[0].strip("`") for row in properties] == ALL
    said = {row[0].strip("`"): row[1] for row in properties}
    widths = sorted({d for _, _, d, _ in checks.STEPS})
    assert f"head widths {_listed(widths)}" in said["decode_values"]
    assert f"head widths {widths[0]} to {widths[-1]}" in said["keys_values"]
    assert f"caches of {_listed([t for _, t, _, _ in checks.STEPS])} keys" in said["decode_values"]
    assert "(base 500,000 at 128)" in said["decode_values"] and (2, 9, 128, 500000.0) in checks.STEPS
    assert f"({_listed([f'{t:,}' for t in checks.LENGTHS], ', ')})" in said["keys_position_is_length"]
    lengths = [length for _, length, _, _ in checks.SEQUENCES]
    assert f"sequences of {min(lengths)} to {max(lengths)} tokens" in said["decode_token_by_token"]
    assert "a prompt of 5" in said["keys_full_pass"]

    names: dict[str, tuple[bool, set[str]]] = {}
    for _, table, index, named_by in NAMED:
        name, hint = _named_hint(table, index)
        names.setdefault(name, (hint.startswith("classic"), set()))[1].update(named_by)
    mistakes = kit.page_table(PAGE, "The checker names these mistakes when your output matches one:")
    on_page = {row[0].removesuffix(" (not classic)"): row for row in mistakes}
    assert set(on_page) == set(names)
    for name, row in on_page.items():
        classic, named_by = names[name]
        assert row[0].endswith("(not classic)") != classic, name
        assert set(re.findall(r"`(\w+)`", row[2])) == named_by, name


def _listed(items, last: str = " and ") -> str:
    """'8, 64 and 128'."""
    items = [str(i) for i in items]
    return ", ".join(items[:-1]) + last + items[-1]


def test_the_mistakes_a_prefill_cannot_see_are_the_ones_the_page_lists():
    Q, K, V = checks.sequence(5, (2,), 9, 64)
    prompt = checks.split(Q, K, V, 0, 6)
    hidden = [name for name, _, step, _ in checks._decode_mistakes()
              if np.allclose(step(*prompt, 10000.0), checks.right_step(*prompt))]
    text = " ".join(PAGE.split())
    listed = ", ".join(hidden[:-1]).replace("causal mask aligned top-left", "the top-left mask")
    assert "six of them give the prompt's rows right" in text and len(hidden) == 6
    assert f"after it: {listed} and the top-left mask." in text and hidden[-1] == "causal mask aligned top-left"
    assert f"the checker's {_number_word(len({n for n, *_ in (*checks._key_mistakes(), *checks._decode_mistakes())}))}." \
        in text


def test_one_step_finds_every_decode_mistake_but_the_missing_mask_from_two_cached_keys_on():
    """Hint 4's claim: comparing one step with the full pass's row finds all but one decode mistake for t >= 2."""
    Q, K, V = checks.sequence(6, (2,), 10, 64)
    for t in range(2, 10):
        step = checks.split(Q, K, V, t, 1)
        same = [name for name, _, wrong, _ in checks._decode_mistakes()
                if np.allclose(wrong(*step, 10000.0), checks.right_step(*step))]
        assert same == ["no causal mask"], t
    text = " ".join(PAGE.split())
    assert "Every `decode_attention` mistake in the table but one fails that comparison from `t = 2` on" in text


def _number_word(n: int) -> str:
    return {10: "ten", 11: "eleven", 12: "twelve"}[n]




def test_scores_scaled_by_the_values_width_fail(tmp_path):
    """Found by review: every value check had d_v = d, so √d_v passed all 16 properties."""
    code, lines, output = kit.learner(tmp_path, "05", "decode_scaled_by_value_width.py")
    assert code == 1 and lines["decode_values"].startswith(
        "FAIL decode_values: with keys of width 64 and values of width 32 the step must give the full pass's row: "
        "the scores are divided by √64, the width of q and k, not of v; output["), output
    assert sum(line.startswith("FAIL") for line in lines.values()) == 1, output

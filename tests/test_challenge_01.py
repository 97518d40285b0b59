"""Challenge 01's checker (attention), through its command line (`python -m challenges`):
the reference solution passes; one learner file per classic mistake fails with that
mistake's hint, word for word from the checker's own tables; an overflowing softmax is
traced to its line; an answer right only at small widths, or only for 2-D inputs, or
written with a loop fails; the starter writes a file that fails cleanly; every number
on the page is the solution's.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from challenges._props import Solution
from challenges.c01 import checks
from tests import challenge_kit as kit

ROOT = Path(__file__).resolve().parents[1]
C01 = ROOT / "challenges" / "c01"
PAGE = ROOT / "docs" / "challenges" / "01-attention.md"
SOLUTION = (C01 / "solution.py").read_text(encoding="utf-8")
MASK = ["mask_shape", "mask_values", "mask_boolean", "mask_no_loop"]
WEIGHTS = ["weights_shape", "weights_values", "weights_rows_sum_to_1", "weights_masked_zero", "weights_causal",
           "weights_scale", "weights_large_scores", "weights_no_loop"]
ATTN = ["attn_shape", "attn_values", "attn_weighted_average", "attn_causal", "attn_permutation", "attn_batch_axes",
        "attn_large_scores", "attn_no_loop"]
ALL = MASK + WEIGHTS + ATTN


def _learner(tmp_path: Path, name: str, *options: str) -> tuple[int, dict[str, str], str]:
    return kit.learner(tmp_path, "01", name, *options)


# --- learner files in tests/data/c01: each named mistake gets its own hint, word for word ---------------

# (learner file, the checker's table: "M" causal_mask's MASK_MISTAKES, "W" _weight_mistakes(); the entry's
# index there, the property that names it first)
NAMED = [
    ("mask_inverted.py", "M", 0, "mask_values"), ("mask_future_visible.py", "M", 1, "mask_values"),
    ("mask_diagonal_excluded.py", "M", 2, "mask_values"),
    ("weights_no_scaling.py", "W", 0, "weights_values"), ("weights_divided_by_d.py", "W", 1, "weights_values"),
    ("weights_d_from_axis_1.py", "W", 2, "weights_values"), ("weights_d_from_len.py", "W", 3, "weights_values"),
    ("weights_softmax_over_queries.py", "W", 4, "weights_values"), ("weights_mask_ignored.py", "W", 5, "weights_values"),
    ("weights_mask_inverted.py", "W", 6, "weights_shape"), ("weights_masked_scores_zero.py", "W", 7, "weights_values"),
    ("weights_mask_after_softmax.py", "W", 8, "weights_values"),
]


def _named_hint(table: str, index: int) -> str:
    """'classic mistake "NAME": EXPLANATION' as the checker's own tables word it."""
    if table == "M":
        name, why, _ = checks.MASK_MISTAKES[index]
    else:
        name, why, _ = list(checks._weight_mistakes())[index]
    return f'classic mistake "{name}": {why}'


@pytest.mark.parametrize("name, table, index, first", NAMED, ids=[n for n, _, _, _ in NAMED])
def test_every_named_mistake_gets_its_own_hint_word_for_word(tmp_path, name, table, index, first):
    code, lines, output = _learner(tmp_path, name)
    hint = _named_hint(table, index)
    assert code == 1
    assert lines[first] == f"FAIL {first}: {hint}", output
    failing = [p for p in ALL if lines[p].startswith("FAIL ")]
    # every property the mistake breaks says the same (attention breaks with the weights it uses)
    assert all(lines[p] == f"FAIL {p}: {hint}" for p in failing), output
    if table == "M":
        assert failing == ["mask_values"], output
    else:
        assert "attn_values" in failing and kit.passes(lines, MASK), output


def test_each_named_mistake_has_a_learner_file():
    rebuilt = len(checks.MASK_MISTAKES) + len(list(checks._weight_mistakes()))
    assert len(NAMED) == rebuilt >= 6 and len({n for n, _, _, _ in NAMED}) == len(NAMED)
    assert all(kit.learner_file("01", n).is_file() for n, _, _, _ in NAMED)


def test_every_learner_file_is_used_by_a_test():
    used = {n for n, _, _, _ in NAMED} | {"weights_no_max.py", "weights_global_max.py", "weights_k_dot_t.py",
                                          "weights_right_up_to_d_8.py", "weights_loop_over_queries.py",
                                          "weights_flatten_leading_axes.py", "weights_k_dot_t_unless_4d.py",
                                          "weights_mask_filled_minus_1e5.py"}
    assert {p.name for p in (ROOT / "tests" / "data" / "c01").glob("*.py")} == used


@pytest.mark.parametrize("name, kind, text", [
    ("weights_no_max.py", "overflow", "    e = np.exp(scores)"),
    ("weights_global_max.py", "invalid value", "    return e / e.sum(axis=-1, keepdims=True)"),
])
def test_a_softmax_that_overflows_or_underflows_is_traced_to_its_line(tmp_path, name, kind, text):
    code, lines, output = _learner(tmp_path, name)
    line = kit.line_of("01", name, text)
    where = f"{kind} at {name}, line {line} ({checks.NOT_FINITE_CAUSES[kind]})"
    assert code == 1
    assert lines["weights_large_scores"] == (
        f"FAIL weights_large_scores: attention_weights(x of shape (7, 8), an array of shape (7, 8)) returned NaN "
        f"or inf values: {where}"), output
    assert lines["attn_large_scores"] == (
        f"FAIL attn_large_scores: attention(x of shape (7, 8), an array of shape (7, 8), an array of shape (7, 5)) "
        f"returned NaN or inf values: {where}"), output
    assert kit.passes(lines, [p for p in ALL if not p.endswith("_large_scores")]), output


def test_an_answer_right_only_at_small_widths_fails(tmp_path):
    # the scale stops at √8: right for the worked example (d = 2) and every d <= 8, wrong at 64 and 128
    code, lines, output = _learner(tmp_path, "weights_right_up_to_d_8.py")
    assert code == 1
    assert lines["weights_values"].startswith(
        "FAIL weights_values: attention_weights(x of shape (7, 64), an array of shape (7, 64))["), output
    assert lines["weights_scale"].startswith("FAIL weights_scale: the scale is 1/√d"), output
    assert lines["attn_values"].startswith("FAIL attn_values: attention(x of shape (7, 64)"), output
    assert kit.passes(lines, MASK + ["weights_shape", "weights_rows_sum_to_1", "weights_causal"]), output


def test_an_answer_right_only_for_2d_inputs_gets_the_advice_on_leading_axes(tmp_path):
    code, lines, output = _learner(tmp_path, "weights_k_dot_t.py")
    line = kit.line_of("01", "weights_k_dot_t.py", "Q @ K.T")
    assert code == 1
    for prop in ("weights_shape", "weights_rows_sum_to_1", "weights_scale", "attn_shape", "attn_permutation"):
        assert "raised ValueError: matmul: " in lines[prop], output
        assert lines[prop].endswith(f"(weights_k_dot_t.py, line {line}); {checks.LEADING}"), output
    assert kit.passes(lines, MASK + ["weights_causal", "attn_causal"]), output


# a 4-D call with K and V of one head for Q's three (grouped-query), and a 3-D (heads, n, d) call, n != d
GROUPED_CALL = "(x of shape (2, 3, 7, 8), an array of shape (2, 1, 7, 8), "
HEADS_CALL = "(x of shape (3, 7, 8), an array of shape (3, 7, 8), "


@pytest.mark.parametrize("name, call, failing", [
    ("weights_flatten_leading_axes.py", GROUPED_CALL, ["attn_batch_axes"]),  # Q.reshape(-1, n, d)
    ("weights_k_dot_t_unless_4d.py", HEADS_CALL, []),  # K.T unless K is 4-D
])
def test_leading_axes_that_do_not_broadcast_get_the_advice(tmp_path, name, call, failing):
    code, lines, output = _learner(tmp_path, name)
    assert code == 1
    assert "must pass through and broadcast" in checks.LEADING and "reshape none of them" in checks.LEADING
    for prop, function in (("weights_shape", "attention_weights"), ("attn_shape", "attention")):
        assert lines[prop].startswith(f"FAIL {prop}: {function}{call}"), output
        assert " raised ValueError: " in lines[prop] and lines[prop].endswith(f"; {checks.LEADING}"), output
    failing = ["weights_shape", "weights_values", "attn_shape", "attn_values", *failing]
    assert [p for p in ALL if lines[p].startswith("FAIL ")] == [p for p in ALL if p in failing], output
    assert all(lines[p].endswith(checks.LEADING) for p in failing if p != "attn_batch_axes"), output


def test_a_finite_stand_in_for_minus_infinity_fails_where_scores_fall_below_it(tmp_path):
    Q, K, _ = checks._far_below(24)  # the rows the page describes: every score within 1,000 of -110,000
    assert np.all(np.abs(Q @ K.T / np.sqrt(8) + 110_000) < 1_000) and "$-110{,}000$" in _page()
    code, lines, output = _learner(tmp_path, "weights_mask_filled_minus_1e5.py")  # np.where(mask, scores, -1e5)
    assert code == 1
    assert lines["weights_large_scores"] == (
        "FAIL weights_large_scores: attention_weights(x of shape (7, 8), an array of shape (7, 8), mask=an array of "
        f"shape (7, 7))[0, 0] is 0.0000; expected 1.0000; {checks.FAR}"), output
    assert lines["attn_large_scores"].startswith("FAIL attn_large_scores: attention(x of shape (7, 8), "), output
    assert lines["attn_large_scores"].endswith(f"; {checks.FAR}"), output
    assert kit.passes(lines, [p for p in ALL if not p.endswith("_large_scores")]), output


def test_a_python_loop_over_the_queries_is_found_by_counting_lines(tmp_path):
    code, lines, output = _learner(tmp_path, "weights_loop_over_queries.py")
    assert code == 1
    found = re.fullmatch(r"FAIL weights_no_loop: a Python loop over the queries: attention_weights ran (\d+) lines of "
                         r"weights_loop_over_queries\.py for the small input and (\d+) for one with 8 times more "
                         r"queries; compute every score at once: Q @ np\.swapaxes\(K, -1, -2\) is \(\.\.\., n_q, "
                         r"n_k\), and the softmax works along its last axis", lines["weights_no_loop"])
    assert found and int(found[2]) - int(found[1]) >= 56, output  # 56 more queries: at least one line each
    assert lines["attn_no_loop"].startswith("FAIL attn_no_loop: a Python loop over the queries: attention ran ")
    assert kit.passes(lines, [p for p in ALL if not p.endswith("_no_loop")]), output


def test_a_mask_of_floats_is_told_to_be_boolean(tmp_path):
    source = kit.edited(SOLUTION, ("np.ones((n, n), dtype=bool)", "np.ones((n, n))"))
    code, lines, output = kit.check(tmp_path, "01", source)
    assert code == 1
    assert lines["mask_boolean"] == (
        "FAIL mask_boolean: causal_mask(4) returned float64 values; return booleans (True = may attend), e.g. "
        "np.tril(np.ones((n, n), dtype=bool)): a mask of 0.0 and 1.0 reads as True everywhere once it is "
        "compared, and cannot index"), output
    assert kit.passes(lines, [p for p in ALL if p != "mask_boolean"]), output


def test_scores_rounded_to_float16_are_told_so(tmp_path):
    scores = "    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d)\n"
    source = kit.edited(SOLUTION, (scores, scores + "    scores = scores.astype(np.float16).astype(float)\n"))
    code, lines, output = kit.check(tmp_path, "01", source)
    assert code == 1
    assert lines["weights_values"].startswith("FAIL weights_values: attention_weights(x of shape "), output
    assert lines["weights_values"].endswith(  # the softmax after the rounding is float64: either cause is named
        ": a small error, from float16 somewhere in your computation or from a slightly wrong constant such as a "
        "base or a scale)"), output
    assert kit.passes(lines, MASK), output


# --- the page: its sample output is the checker's, its numbers the solution's -----------------------------


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_the_page_shows_what_the_checker_prints(tmp_path):
    block = _page().split("```text\n", 1)[1].split("```", 1)[0]
    assert max(len(line) for line in block.splitlines()) <= 79
    source = kit.learner_file("01", "weights_masked_scores_zero.py").read_text(encoding="utf-8")
    _, _, output = kit.check(tmp_path, "01", source, name="attention.py")
    assert kit.page_sample(PAGE) == output.strip()


def test_the_pages_numbers_are_the_solutions():
    solution = kit.load(C01 / "solution.py")
    page = " ".join(_page().split())
    X = checks.TOY
    mask = solution.causal_mask(3)

    def vec(values) -> str:
        return "(" + ", ".join(f"{v:.3f}" for v in values) + ")"

    e = np.exp(X @ X[1] / np.sqrt(2))  # bites' exponentials
    assert f"`causal_mask(3)` is `{mask.astype(int).tolist()}`" in page
    scores = X @ X[1] / np.sqrt(2)  # bites' scores
    assert scores[0] == 0 and f"\\approx (0, {scores[1]:.3f}, {scores[2]:.3f})" in page
    assert f"$1$, ${e[1]:.3f}$ and ${e[2]:.3f}$, total ${e.sum():.3f}$" in page
    assert f"weights ${vec(solution.attention_weights(X, X)[1])}$ and output ${vec(solution.attention(X, X, X)[1])}$" in page
    assert f"$1 + {e[1]:.3f} = {e[0] + e[1]:.3f}$" in page
    masked_w, masked_out = solution.attention_weights(X, X, mask)[1], solution.attention(X, X, X, mask)
    assert f"weights $({masked_w[0]:.3f}, {masked_w[1]:.3f}, 0)$" in page and masked_w[2] == 0
    assert f"{masked_w[0]:.3f} \\cdot (1, 0) + {masked_w[1]:.3f} \\cdot (0, 1) = {vec(masked_out[1])}" in page
    reverse = X[::-1]
    dog = solution.attention(reverse, reverse, reverse)[2]
    assert np.allclose(dog, solution.attention(X, X, X)[0]) and f"dog's being ${vec(dog)}$" in page
    front, back = solution.attention(X, X, X, mask)[0], solution.attention(reverse, reverse, reverse, mask)[2]
    assert f"itself and gets ${vec(front).replace('.000', '')}$; at the back it sees all three words and gets " \
           f"${vec(back)}$ again" in page and np.allclose(back, dog)
    assert f"$s > {np.log(np.finfo(float).max):.2f}$" in page
    assert "$d = " + ", ".join(str(d) for _, d in checks.SIZES) + "$" in page
    assert "lengths " + ", ".join(str(n) for n, _ in checks.SIZES[:-1]) + f" and {checks.SIZES[-1][0]}" in page
    sizes = checks.MASK_SIZES
    assert f"$n$ = {', '.join(map(str, sizes[:-1]))} and {sizes[-1]}" in page
    assert f"({checks.CROSS[0]} queries, {checks.CROSS[1]} keys)" in page
    assert f"keys `({', '.join(map(str, (*checks.GROUPED, 7, 8)))})` for queries `({', '.join(map(str, (*checks.BATCH, 7, 8)))})`" in page
    assert f"3-D `({', '.join(map(str, (*checks.HEADS, 7, 8)))})`" in page
    assert f"`({checks.BATCH[0]}, {checks.BATCH[1]}, …)`" in page and f"`({', '.join(map(str, checks.BATCH))}, 7, 8)`" in page


# the properties the page says sweep the sizes, and the query lengths each tries (reordering one token means nothing)
SWEEPS = {"weights_shape": (1, 7, 13), "weights_values": (1, 7, 13), "weights_scale": (1, 7, 13),
          "attn_shape": (1, 7, 13), "attn_values": (1, 7, 13), "attn_permutation": (7, 13)}


def test_the_properties_the_page_says_sweep_the_sizes_do():
    page = " ".join(_page().split())
    names = ", ".join(f"`{name}`" for name in list(SWEEPS)[:-1]) + f" and `{list(SWEEPS)[-1]}`"
    assert len(SWEEPS) == 6 and f"Six properties sweep the sizes: {names} each run at head widths" in page
    solution = kit.load(C01 / "solution.py")
    for name, lengths in SWEEPS.items():
        sol = Solution(solution, C01 / "solution.py")
        next(p for p in checks.PROPERTIES if p.name == name).check(sol)
        shapes = [(args[0].shape, args[1].shape) for _, _, args, _ in sol.calls]  # (Q's, K's)
        assert {q[-1] for q, _ in shapes} >= {d for _, d in checks.SIZES}, name
        assert {q[-2] for q, _ in shapes} >= set(lengths), name
        assert checks.BATCH in {q[:-2] for q, _ in shapes}, name
        if name.endswith(("_shape", "_values")):  # grouped-query K and V, and a 3-D input
            assert ((*checks.BATCH, 7, 8), (*checks.GROUPED, 7, 8)) in shapes, name
            assert ((*checks.HEADS, 7, 8), (*checks.HEADS, 7, 8)) in shapes, name


def test_the_pages_tables_list_every_property_and_mistake():
    page = _page()
    rows = re.findall(r"^\| `(\w+)` \|", page, flags=re.M)
    assert rows == ALL
    names = {checks.MASK_MISTAKES[i][0] for i in range(len(checks.MASK_MISTAKES))}
    names |= {name for name, _, _ in checks._weight_mistakes()}
    assert set(re.findall(r"^\| ([a-z][\w ]+?) \| ", page, flags=re.M)) - {"Property", "Classic mistake"} == names



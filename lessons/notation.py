r"""
# Notation, decoded: vectors, angles, matrices and softmax

Run: `python -m lessons.notation`

Builds on: nothing; this is the first page.

## The symbol finder

Every symbol the other lessons use without decoding it, read aloud, and the
section of this page that teaches it. `lessons.attention` and
`lessons.positional` send you here whenever they use a symbol without stopping
to explain it: find it below, then follow its section for a worked example
with numbers small enough for paper.

| Symbol | Read it as | Section |
|---|---|---|
| $a = (a_0, a_1, \dots, a_{d-1})$ | a vector: an ordered list of $d$ numbers | [1. Vectors](#1-vectors-and-dot-products) |
| $x_i$, $x_{2i}$, $x_{2i+1}$ | entry number $i$ of $x$, counting from 0; the even and the odd entries | [1. Vectors](#1-vectors-and-dot-products) |
| $\sum_i$ | "add up, over every $i$" | [1. Vectors](#1-vectors-and-dot-products) |
| $a \cdot b$, $\langle a, b \rangle$ | the dot product of $a$ and $b$ (two spellings of one thing) | [1. Vectors](#1-vectors-and-dot-products) |
| $c\,v$ | the scalar (plain number) $c$ times the vector $v$ | [1. Vectors](#1-vectors-and-dot-products) |
| $\sqrt{\ }$, $\lVert a \rVert$ | square root; the length of $a$ | [1. Vectors](#1-vectors-and-dot-products) |
| $\cos(a, b)$ | cosine similarity: how much $a$ and $b$ point the same way | [1. Vectors](#1-vectors-and-dot-products) |
| $\approx$ | "approximately equal": equal after rounding | [1. Vectors](#1-vectors-and-dot-products) |
| rad, $\pi$, $\theta$, $\omega$ | radians; pi; theta (an angle, or a turning speed); omega (a frequency) | [2. Angles](#2-angles-sine-and-cosine) |
| $\sin\theta$, $\cos\theta$, $\arccos$ | sine and cosine of an angle; the angle whose cosine is given | [2. Angles](#2-angles-sine-and-cosine) |
| $[-1, 1]$ | every number from $-1$ to $1$, ends included | [2. Angles](#2-angles-sine-and-cosine) |
| $M$, $M_{rc}$, $Mx$ | a matrix; its entry in row $r$, column $c$; matrix times vector | [3. Matrices](#3-matrices-permutations-and-rotations) |
| (seq, d), $3 \times 2$ | a shape: seq rows of $d$ numbers; 3 rows by 2 columns | [3. Matrices](#3-matrices-permutations-and-rotations) |
| $K^T$ (also $K^\top$, Kᵀ) | $K$ transposed: rows become columns | [3. Matrices](#3-matrices-permutations-and-rotations) |
| $P$ | a permutation matrix: reorders rows | [3. Matrices](#3-matrices-permutations-and-rotations) |
| $R(\theta)$, $R_m$ | a rotation matrix: turns a pair of numbers by an angle | [3. Matrices](#3-matrices-permutations-and-rotations) |
| $e^x$, $\exp(x)$ | the exponential of $x$ | [4. Softmax](#4-exponentials-and-softmax) |
| $b^{-p}$, $\text{base}^{-2i/d}$ | one over $b^p$; the falling powers behind position codes | [4. Softmax](#4-exponentials-and-softmax) |
| $\text{softmax}$ | scores in, positive weights that add up to 1 out | [4. Softmax](#4-exponentials-and-softmax) |
| $\max$, $\operatorname{argmax}$ | the largest value; where the largest value sits | [4. Softmax](#4-exponentials-and-softmax) |

## Level 1: The practitioner's guide

**In one sentence.** This page is the site's dictionary: it decodes each
symbol the other lessons use (vectors, dot products, sine and cosine,
matrices, rotations, exponentials, softmax) with a tiny worked example and a
line of Python that checks it, and its symbol finder says where each one is
taught.

**When you need it.** When a formula on another page stops you. The tell: you
follow the sentences around an equation but not the equation itself, for
example `softmax(QKᵀ/√d)` or `⟨q, k⟩`. If you use models and never implement
them, you may never need this page: Level 1 of every lesson is written
without equations, this one included (a symbol it names is set as code). If
you already read `⟨a, b⟩` as "multiply matching numbers and add them up" and
know that `sin 1` means one radian, skip it.

**Your options.** What to do when a formula stops you, here or in a paper,
from the quickest to the most thorough:

| Option | What it does | What it gives you | What it costs | Where it lives |
|---|---|---|---|---|
| Read around it | Takes the sentences that say in words what the formula computes | Enough to follow the page | The formula itself stays opaque, and the next one may stop you again | The *In words* line after *The math* in every Level 2 section |
| Look the symbol up | Finds the symbol in the finder and reads its section's worked example | That one symbol, decoded with numbers | A detour of one section | The symbol finder, at the top of this page |
| Learn the four families | Reads Level 2 of this page once, in order | Every equation on the site becomes readable | Four sections, each with a worked example to do on paper | Level 2 of this page |
| Check it in Python | Runs the formula's *In Python* block, then again with numbers of your own | The symbol's meaning, confirmed by a computation you can change | Python with numpy installed | Each section's *In Python* block; `python -m lessons.notation` |

**How to choose.**

- You use models and never implement them: read Level 1 of the other lessons
  and come back here only when a symbol there puzzles you.
- You are stuck on one symbol: find it in the symbol finder at the top of
  this page, then read its section's *Tiny worked example* and *With the numbers*.
- You want to follow Level 2 of `lessons.attention` and `lessons.positional`:
  read Level 2 here once, in order; each section leans on the one before.
- You learn by poking at things: run the demo, then change a number in a
  Python block and predict the result before you run it.

**What it costs.** Nothing to install beyond Python, numpy and (for the
figures) matplotlib. The demo prints this page's numbers from the same
functions the page uses. The only real cost is attention: four sections, each
with a worked example to do on paper.

**What breaks.** Misreadings that give wrong numbers:

- **Degrees for radians.** `sin 1` is the sine of one radian, 0.841; the sine
  of one degree is 0.017. Every angle on this site is in radians unless it
  carries a ° sign.
- **Counting from 1.** Subscripts here start at 0, as in Python: `x₀` is the
  first entry, and `x₂ᵢ` and `x₂ᵢ₊₁` with i = 0 are the first two.
- **Rows and columns swapped.** Q and K are both (seq, d); only Q times
  K *transposed* lines d up with d. Write the shape next to every
  product and the mistake shows at once.
- **An overflowing softmax.** e to the power 710 is already too large for a 64-bit
  float, so a softmax that exponentiates large scores directly returns nan.
  Subtract the largest score first; no weight changes (section 4).
- **Reading ≈ as =.** Numbers here are rounded to three decimals: the square
  root of 2 is about 1.414, not exactly. Compare computed numbers with a tolerance, never with ==.

![The unit circle with the point one radian round from the right-hand end: its distance to the right is 0.540 and its height 0.841](figures/notation.unit_circle.svg)

**Reading it:** one radian is the turn that carries a point round the circle
by a distance equal to the radius: far more than the hair-thin one
degree. The point it lands on is 0.540 to the right of
the centre and 0.841 above it: those two numbers are the cosine and the sine
of 1. Every angle on this site is measured this way, and section 2 builds the
picture step by step.

**In the wild.** The same operations appear in every numerical library under
nearly the same names: numpy writes the dot product as a @ b, the length as
np.linalg.norm(a) and the transpose as K.T, and PyTorch ships torch.softmax.
Papers use the symbols of this page: the transformer paper (Vaswani et al.,
2017) writes attention as `softmax(QKᵀ/√dₖ) V`, and the RoPE
paper (Su et al., 2021) writes position as a block of 2 × 2 rotation matrices.

**Go deeper.** Level 2 has four sections: vectors and dot products; angles,
sine and cosine; matrices, permutations and rotations; exponentials and
softmax. Each decodes its symbols with numbers small enough for paper. If you
came for one symbol, its row in the symbol finder links to its section: read
that and stop.

## Level 2: How it works, from scratch

Four sections, one family of symbols each, in the order the lessons need
them; each leans on the one before. The symbol finder at the top of the page
lists every symbol with its section.

## 1. Vectors and dot products

**Everyday picture.** A vector is a shopping list with a fixed order: 3
apples and 2 pears is $(3, 2)$. A dot product is the till: prices $(0.5, 1)$
per item, multiplied by the quantities and added up, give the bill
$3 \cdot 0.5 + 2 \cdot 1 = 3.5$. Two vectors that point the same way (you buy
most of what is priced highest) give a large dot product; that is how
attention decides which words matter to each other.

**Tiny worked example.** Three words from `lessons.attention`, each a vector
of $d = 2$ numbers: dog = (1, 0), bites = (0, 1), man = (1, 1).

| pair | multiply matching entries | add up: dot product | lengths | cosine similarity |
|---|---|---|---|---|
| dog, man | 1 · 1 and 0 · 1 | 1 | 1 and 1.414 | 0.707 |
| dog, bites | 1 · 0 and 0 · 1 | 0 | 1 and 1 | 0 |
| man, man | 1 · 1 and 1 · 1 | 2 | 1.414 and 1.414 | 1 |

```mermaid
flowchart TB
  A["$$a$$ = dog = (1, 0)"] --> M["multiply matching<br/>entries: 1 · 1, 0 · 1"]
  B["$$b$$ = man = (1, 1)"] --> M
  M --> S["add them up (the Σ):<br/>$$\langle a, b \rangle = 1$$"]
  A --> LA["length<br/>$$\lVert a \rVert = 1$$"]
  B --> LB["length<br/>$$\lVert b \rVert = \sqrt{2}$$<br/>≈ 1.414"]
  S --> C["cosine<br/>$$\dfrac{\langle a, b \rangle}{\lVert a \rVert\, \lVert b \rVert} = 0.707$$"]
  LA --> C
  LB --> C
```

**Reading it:** two vectors come in at the top. The path on the left pairs
their entries position by position, multiplies each pair and adds the
products: that single number is the dot product. The two paths on the right
measure each vector's length. Dividing the dot product by both lengths
removes the effect of size and leaves only direction: the cosine similarity
at the bottom.

**The math.**

$$
\langle a, b \rangle = a \cdot b = \sum_{i=0}^{d-1} a_i\, b_i, \qquad
\lVert a \rVert = \sqrt{\langle a, a \rangle}, \qquad
\cos(a, b) = \frac{\langle a, b \rangle}{\lVert a \rVert\, \lVert b \rVert}
$$

$$
c\,v = (c\,v_0,\ c\,v_1,\ \dots), \qquad o = \sum_{j} w_j\, v_j
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $a$, $b$ | two vectors of the same length $d$ | dog = (1, 0), man = (1, 1) |
| $d$ | how many numbers each vector holds (its width) | 2 |
| $a_i$ | entry number $i$ of $a$, counting from 0 | $a_0 = 1$, $a_1 = 0$ |
| $x_{2i}$, $x_{2i+1}$ | the even and the odd entries: pair number $i$ | for $x = (5, 6, 7, 8)$ and $i = 1$: $x_2 = 7$, $x_3 = 8$ |
| $\sum_{i=0}^{d-1}$ | add up the expression after it for $i = 0, 1, \dots, d-1$ | two terms, $i = 0$ and $i = 1$ |
| $\langle a, b \rangle$, $a \cdot b$ | the dot product: one number | 1 |
| $\sqrt{\ }$ | square root: the number that, times itself, gives what is inside | $\sqrt 2 \approx 1.414$ |
| $\lVert a \rVert$ | the length of $a$ (the arrow's length, by Pythagoras) | $\lVert \text{man} \rVert = \sqrt 2$ |
| $\cos(a, b)$ | cosine similarity, always in $[-1, 1]$ | 0.707 |
| $c\,v$ | a scalar times a vector: every entry of $v$ multiplied by $c$ | $0.401 \cdot (1, 1) = (0.401, 0.401)$ |
| $w_j$, $v_j$ | weight number $j$ and vector number $j$ | weights (0.401, 0.198, 0.401); vectors dog, bites, man |
| $o$ | the weighted sum: each vector scaled by its weight, all added | (0.802, 0.599) |

**In words:** "the dot product multiplies matching entries and adds them up;
the length is the square root of a vector's dot product with itself; the
cosine similarity is the dot product after both vectors are shrunk to length
1." And: "a weighted sum scales each vector by its own number and adds the
results."

**With the numbers:** $\langle \text{dog}, \text{man} \rangle = 1 \cdot 1 +
0 \cdot 1 = 1$. $\lVert \text{man} \rVert = \sqrt{1 + 1} = \sqrt 2 \approx
1.414$, so $\cos(\text{dog}, \text{man}) = 1 / (1 \cdot 1.414) \approx 0.707$.
With the weights (0.401, 0.198, 0.401) that section 4 computes, the weighted
sum of dog, bites and man is $0.401 \cdot (1, 0) + 0.198 \cdot (0, 1) +
0.401 \cdot (1, 1) = (0.802, 0.599)$: dog's output in `lessons.attention`.

**In Python:**

```python
import numpy as np
from lessons.notation import dot, norm, cosine_similarity
dog, bites, man = (
    np.array([1.0, 0.0]),
    np.array([0.0, 1.0]),
    np.array([1.0, 1.0]),
)
# ⟨dog, man⟩ = Σ_i dog_i man_i
dot(dog, man)  # → 1.0
# the same Σ written out as a loop over i
sum(dog[i] * man[i] for i in range(2))  # → 1.0
dot(dog, bites)  # → 0.0
# ‖man‖ = √⟨man, man⟩ = √2
norm(man)  # → 1.414
cosine_similarity(dog, man)  # → 0.707
# the other rows of the table
norm(dog), norm(bites), cosine_similarity(dog, bites)  # → (1.0, 1.0, 0.0)
dot(man, man), cosine_similarity(man, man)  # → (2.0, 1.0)
# a longer arrow in the same direction: still 1
cosine_similarity(man, 3 * man)  # → 1.0
# pointing the opposite way: -1
cosine_similarity(man, -man)  # → -1.0
# the till: quantities (3, 2) times prices (0.5, 1)
dot([3, 2], [0.5, 1.0])  # → 3.5
# ⟨(1, 2), (3, 4)⟩ from the self-test
dot([1, 2], [3, 4])  # → 11.0
```

```python
import numpy as np
from lessons.notation import pairs, weighted_sum
x = np.array([5.0, 6.0, 7.0, 8.0])
# x_0 and x_2: subscripts count from 0
x[0], x[2]  # → (5.0, 7.0)
# x_{2i} for i = 0, 1: the even entries
x[0::2]  # → [5.0, 7.0]
# x_{2i+1}: the odd entries
x[1::2]  # → [6.0, 8.0]
# row i is the pair (x_{2i}, x_{2i+1})
pairs(x).tolist()  # → [[5.0, 6.0], [7.0, 8.0]]
# pair i = 1 is (x_2, x_3)
pairs(x)[1].tolist()  # → [7.0, 8.0]
# a scalar times a vector
0.401 * np.array([1.0, 1.0])  # → [0.401, 0.401]
# o = Σ_j w_j v_j over dog, bites, man
weighted_sum([0.401, 0.198, 0.401], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
# → [0.802, 0.599]
```

**In code:** `dot` is the sum of products, `norm` the square root of a
vector's dot product with itself, and `cosine_similarity` divides one by the
other two; `pairs` reads a vector as its $(x_{2i}, x_{2i+1})$ pairs, and
`weighted_sum` computes $\sum_j w_j v_j$.

**Why it matters.** An attention score is a dot product between a query and a
key, and an attention output is a weighted sum of values
(`lessons.attention`). `lessons.positional` compares two sentences by the
cosine similarity of their vectors, where 1 means "the model sees no
difference". RoPE and sinusoidal codes work on the pairs $(x_{2i}, x_{2i+1})$.

## 2. Angles, sine and cosine

**Everyday picture.** A clock hand of length 1, starting at 3 o'clock and
turning anticlockwise. Cosine is how far right of the centre its tip is;
sine is how far up. Radians measure the turn by the distance the tip has
travelled along the rim: the whole rim of a circle of radius 1 is $2\pi
\approx 6.283$ long, so a full turn is 6.283 radians and one radian is a turn
of about 57.3°.

**Tiny worked example.** Where the tip is after a few turns:

| angle (rad) | in degrees | cos (how far right) | sin (how far up) |
|---|---|---|---|
| 0 | 0.0 | 1.000 | 0.000 |
| 1 | 57.3 | 0.540 | 0.841 |
| π/2 ≈ 1.571 | 90.0 | 0.000 | 1.000 |
| 3 | 171.9 | -0.990 | 0.141 |
| π ≈ 3.142 | 180.0 | -1.000 | 0.000 |
| 2π ≈ 6.283 | 360.0 | 1.000 | 0.000 |

After a full turn the tip is back where it started, so angles $2\pi$ apart
name the same point; "mod $2\pi$" means "wrapped to one turn".

```mermaid
flowchart TB
  D["an angle in degrees"] -->|"$$\times\ \pi / 180$$"| A["the angle $$\theta$$ in radians"]
  A --> P["walk $$\theta$$ along the rim<br/>of a circle of radius 1"]
  P --> X["how far right:<br/>$$\cos\theta$$"]
  P --> Y["how far up:<br/>$$\sin\theta$$"]
  X --> PT["the point $$(\cos\theta, \sin\theta)$$"]
  Y --> PT
```

**Reading it:** an angle in degrees becomes radians by one multiplication.
Walking that far along the rim of a circle of radius 1 lands on a point, and
the point's two coordinates *are* the cosine and the sine. Nothing else is
hidden in the words "sin" and "cos".

**The math.**

$$
\theta_{\text{rad}} = \theta_{\text{deg}} \cdot \frac{\pi}{180}, \qquad
(x, y) = (\cos\theta,\ \sin\theta), \qquad
\cos^2\theta + \sin^2\theta = 1
$$

$$
\text{angle between } a \text{ and } b = \arccos\big(\cos(a, b)\big)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $\theta$ | an angle (the Greek letter theta); in the other lessons also a turning speed | 1 rad |
| rad | radians: the distance walked along the rim of a circle of radius 1 | 1 |
| $\pi$ | pi, half a turn in radians | $\pi \approx 3.142$ |
| $\cos\theta$ | how far right the point is, always in $[-1, 1]$ | $\cos 1 = 0.540$ |
| $\sin\theta$ | how far up the point is, always in $[-1, 1]$ | $\sin 1 = 0.841$ |
| $\cos^2\theta$ | $(\cos\theta)^2$: the cosine, squared | $0.540^2 \approx 0.292$ |
| $\arccos$ | the reverse of cos: from a cosine back to the angle, between 0 and $\pi$ | $\arccos(0.707) \approx 0.785$ |
| $\omega$ | omega: a frequency, radians turned per position (`lessons.positional`) | |

**In words:** "turn by $\theta$ radians on a circle of radius 1; cosine is
your distance to the right, sine your distance up, and by Pythagoras the two
squared add up to 1." And: "the angle between two vectors is the angle whose
cosine is their cosine similarity."

**With the numbers:** $\theta = 1$: the point is $(\cos 1, \sin 1) = (0.540,
0.841)$, and $0.540^2 + 0.841^2 \approx 0.292 + 0.707 = 0.999 \approx 1$: the
missing thousandth is rounding, which is what ≈ owns up to. $\theta = 3$ is
almost half a turn: $(-0.990, 0.141)$. The angle between dog = (1, 0) and man
= (1, 1) is $\arccos(0.707) \approx 0.785$ rad, which is 45°.

**In Python:**

```python
import math
from lessons.notation import to_radians, unit_circle_point, angle_between
# θ_deg · π / 180
to_radians(180)  # → 3.142
to_radians(90)  # → 1.571
# one radian, in degrees
math.degrees(1)  # → 57.3
# (cos 1, sin 1)
unit_circle_point(1.0)  # → [0.540, 0.841]
# one degree is a much smaller turn than one radian
math.sin(to_radians(1))  # → 0.017
unit_circle_point(3.0)  # → [-0.990, 0.141]
# the other rows of the table: 0, π/2, π and 2π
unit_circle_point(0.0)  # → [1.000, 0.000]
unit_circle_point(math.pi / 2)  # → [0.000, 1.000]
unit_circle_point(math.pi)  # → [-1.000, 0.000]
unit_circle_point(2 * math.pi)  # → [1.000, 0.000]
math.degrees(3), 2 * math.pi  # → (171.9, 6.283)
# a full turn later: the same point
unit_circle_point(1.0 + 2 * math.pi)  # → [0.540, 0.841]
# cos²θ + sin²θ = 1 at any angle
math.cos(3) ** 2 + math.sin(3) ** 2  # → 1.0
# with the rounded (0.540, 0.841) the squares add up to 0.999: the ≈ of the
# text
c, s = unit_circle_point(1.0).round(3)
round(c ** 2, 3), round(s ** 2, 3), round(c ** 2, 3) + round(s ** 2, 3)
# → (0.292, 0.707, 0.999)
angle_between([1.0, 0.0], [1.0, 1.0])  # → 0.785
math.degrees(angle_between([1.0, 0.0], [1.0, 1.0]))  # → 45.0
```

![The unit circle with the point at angle 1 rad: cos 1 = 0.540 is its distance to the right and sin 1 = 0.841 its height](figures/notation.unit_circle.svg)

**Reading it:** the grey circle has radius 1. The green arc marks a turn of 1
radian from the positive x-axis, and the black line runs from the centre to
the point it lands on. The blue segment along the x-axis is the point's
distance to the right, $\cos 1 = 0.540$; the vermillion (orange-red) segment straight up is its
height, $\sin 1 = 0.841$. Blue, vermillion and the black radius form a right
triangle, which is why $\cos^2 + \sin^2 = 1$.

**In code:** `to_radians` converts degrees, `unit_circle_point` returns
$(\cos\theta, \sin\theta)$, and `angle_between` turns a cosine similarity
back into an angle with $\arccos$.

**Why it matters.** Sinusoidal position codes in `lessons.positional` are
sines and cosines of position times a speed, and RoPE turns each pair of a
query by an angle that grows with position. Cosine similarity, from section
1, is literally the cosine of the angle between two vectors.

## 3. Matrices, permutations and rotations

**Everyday picture.** A matrix is a spreadsheet of numbers. Multiplying it by
a vector runs each row of the spreadsheet as a price list against the same
shopping list: one bill per row. Two special spreadsheets matter here: a
seating chart that moves people to other chairs without changing them (a
permutation), and a turntable that spins an arrow without stretching it (a
rotation).

**Tiny worked example.** $M$ has rows (1, 2) and (3, 4); $x = (1, 1)$. Row 0
gives $1 \cdot 1 + 2 \cdot 1 = 3$, row 1 gives $3 \cdot 1 + 4 \cdot 1 = 7$, so
$Mx = (3, 7)$. Stack dog, bites and man as rows and you get $X$ of shape
(seq, d) = (3, 2). $X X^T$ is the table of every dot product:

| | dog | bites | man |
|---|---|---|---|
| **dog** | 1 | 0 | 1 |
| **bites** | 0 | 1 | 1 |
| **man** | 1 | 1 | 2 |

The order (2, 1, 0) swaps the first and last rows: $PX$ is man, bites, dog.
Rotating (1, 0) by 3 rad gives (-0.990, 0.141); rotating (2, 1) by 1 rad gives
(0.239, 2.223), and both arrows have length 2.236.

```mermaid
flowchart TB
  X["$$x$$: a column of $$d$$ numbers"] --> R0["row 0 of $$M$$ times $$x$$<br/>(a dot product)"]
  X --> R1["row 1 of $$M$$ times $$x$$<br/>(a dot product)"]
  R0 --> Y["$$Mx$$: one number per row of $$M$$"]
  R1 --> Y
  Y --> PERM["$$M = P$$, one 1<br/>in each row: the same<br/>entries, reordered"]
  Y --> ROT["$$M = R(\theta)$$: turned<br/>by $$\theta$$, same length"]
```

**Reading it:** a matrix-vector product is nothing but dot products, one per
row of the matrix, stacked into a new vector. The two branches at the bottom
are the special matrices the other lessons lean on: a permutation only moves
entries around, and a rotation only turns the vector.

**The math.**

$$
\begin{gathered}
(Mx)_r = \sum_{c} M_{rc}\, x_c = \langle \text{row } r \text{ of } M,\ x \rangle,
\\ (K^T)_{rc} = K_{cr}, \qquad
(QK^T)_{mn} = \langle q_m, k_n \rangle
\end{gathered}
$$

$$
P_{i,\,\text{order}[i]} = 1, \qquad (PX)_i = X_{\text{order}[i]}, \qquad P^T P = I
$$

$$
R(\theta) = \begin{pmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{pmatrix}, \qquad
\lVert R(\theta)\, v \rVert = \lVert v \rVert, \qquad
R(\alpha)\, R(\beta) = R(\alpha + \beta)
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $M$ | a matrix: a grid of numbers, rows by columns | rows (1, 2) and (3, 4) |
| $M_{rc}$ | the entry in row $r$, column $c$ (both counted from 0) | $M_{10} = 3$ |
| $Mx$ | matrix times vector: the dot product of each row with $x$ | (3, 7) |
| (seq, d) | a shape: seq rows (one per token), $d$ numbers in each | $X$ is (3, 2) |
| $Q$, $K$ | stacks of queries and keys, one row per token, both (seq, d) | both equal to $X$ here |
| $q_m$, $k_n$ | row $m$ of $Q$, row $n$ of $K$ | dog, man |
| $K^T$ | $K$ transposed: row $r$ becomes column $r$, so (seq, d) becomes (d, seq) | $X^T$ is (2, 3) |
| $QK^T$ | every query's dot product with every key, shape (seq, seq) | the 3 × 3 table above |
| $P$, order | a permutation matrix: row $i$ holds a single 1, in column order[$i$] | order (2, 1, 0) |
| $I$ | the identity matrix: 1 on the diagonal, 0 elsewhere; $Ix = x$ | |
| $R(\theta)$ | the rotation matrix for angle $\theta$ | $R(3)$ |
| $v$ | a vector of two numbers | (1, 0), or (2, 1) |
| $\alpha$, $\beta$ | alpha and beta: two angles | 1 and 2 |

**In words:** "a matrix times a vector is one dot product per row. The
transpose flips a matrix over its diagonal, so $QK^T$ lines each query up
with each key. A permutation matrix copies row order[$i$] into place $i$, and
its transpose puts everything back. A rotation matrix turns a pair of
numbers by $\theta$ without changing its length, and two turns in a row add
their angles."

**With the numbers:** $R(3)\,(1, 0) = (\cos 3 \cdot 1 - \sin 3 \cdot 0,\
\sin 3 \cdot 1 + \cos 3 \cdot 0) = (\cos 3, \sin 3) = (-0.990, 0.141)$.
$R(1)\,(2, 1) = (2\cos 1 - \sin 1,\ 2\sin 1 + \cos 1) = (0.239, 2.223)$, and
its length $\sqrt{0.239^2 + 2.223^2} \approx 2.236 = \sqrt{5}$, the length of
(2, 1). Turning by 1 rad and then by 2 rad is one turn by 3 rad.

**In Python:**

```python
import numpy as np
from lessons.notation import matvec, pairwise_dots
M = np.array([[1.0, 2.0], [3.0, 4.0]])
# (M x)_r = ⟨row r of M, x⟩
matvec(M, [1.0, 1.0])  # → [3.0, 7.0]
# M_10: row 1, column 0
M[1, 0]  # → 3.0
# dog, bites, man stacked as rows: shape (seq, d)
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
X.shape, X.T.shape  # → ((3, 2), (2, 3))
# X X^T: every dot product, shape (seq, seq)
pairwise_dots(X, X).tolist()
# → [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]
# Q and K both (5, 64): Kᵀ is (64, 5), Q Kᵀ is (5, 5)
Q = K = np.ones((5, 64))
K.T.shape, pairwise_dots(Q, K).shape  # → ((64, 5), (5, 5))
```

```python
import numpy as np
from lessons.notation import permutation_matrix
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
P = permutation_matrix([2, 1, 0])
P.tolist()  # → [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
# (P X)_i = X_order[i]: man, bites, dog
(P @ X).tolist()  # → [[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
# P^T P = I: the transpose undoes the shuffle
bool(np.array_equal(P.T @ P, np.eye(3)))  # → True
```

```python
import numpy as np
from lessons.notation import rotation_matrix, rotate, norm
# R(3) (1, 0) = (cos 3, sin 3)
rotate([1.0, 0.0], 3.0)  # → [-0.990, 0.141]
v = np.array([2.0, 1.0])
rotate(v, 1.0)  # → [0.239, 2.223]
# the length before and after the turn
norm(v), norm(rotate(v, 1.0))  # → (2.236, 2.236)
# the length squared is 5: the length is √5
norm(rotate(v, 1.0)) ** 2  # → 5.0
# R(1) R(2) = R(3): turns add up
bool(
    np.allclose(
        rotation_matrix(1.0) @ rotation_matrix(2.0), rotation_matrix(3.0)
    )
)
# → True
```

![Two rotations: (1, 0) turned by 3 rad to (-0.990, 0.141), and (2, 1) turned by 1 rad to (0.239, 2.223), each staying on its own dashed circle](figures/notation.rotation.svg)

**Reading it:** in each panel the blue arrow is the vector before the turn
and the vermillion (orange-red) arrow after it; the green arc is the angle turned. Both tips sit
on the same dashed circle around the centre, so the length is unchanged:
1 on the left, 2.236 on the right. A rotation changes only the direction.

**In code:** `matvec` is one `dot` per row, `pairwise_dots` computes
$QK^T$, `permutation_matrix` builds $P$ from an order so that
$(PX)_i = X_{\text{order}[i]}$, `rotation_matrix` builds $R(\theta)$, and `rotate`
applies it to a 2-d vector.

**Why it matters.** `lessons.attention` proves the order blindness of
attention as $\text{Attn}(PX) = P\,\text{Attn}(X)$: shuffle the words, and
the outputs shuffle the same way. RoPE is a rotation of each pair of a query
and a key, and because rotations keep lengths and add their angles, the score
between two rotated vectors depends only on the difference of the angles.
Every attention layer computes $QK^T$.

## 4. Exponentials and softmax

**Everyday picture.** The exponential is a growth curve: each step of 1 to
the right multiplies by $e \approx 2.718$, each step to the left divides by
it. Dividing a positive number again and again makes it tiny, never zero and
never negative, so $e^x$ is positive for every $x$. Softmax is how a class
turns a vote into shares of a pie: make every score positive (with $e^x$),
then divide by the total so the shares add up to 1.

**Tiny worked example.** Powers of $e$:

| $x$ | -2 | -1 | 0 | 1 | 2 |
|---|---|---|---|---|---|
| $e^x$ | 0.135 | 0.368 | 1.000 | 2.718 | 7.389 |

A negative exponent means "one over": $2^{-3} = 1/2^3 = 0.125$. A fractional
one means a root: $10000^{1/2} = 100$, so $10000^{-1/2} = 0.01$. Softmax of
dog's scores (0.707, 0, 0.707) from `lessons.attention`:

| key | score | $e^{\text{score}}$ | divided by the total 5.056 |
|---|---|---|---|
| dog | 0.707 | 2.028 | 0.401 |
| bites | 0 | 1.000 | 0.198 |
| man | 0.707 | 2.028 | 0.401 |

```mermaid
flowchart TB
  S["scores $$s$$ =<br/>(0.707, 0, 0.707)"] --> M["subtract the largest<br/>score, $$\max(s)$$:<br/>no weight changes,<br/>nothing overflows"]
  M --> E["$$e$$ to each one:<br/>every number positive"]
  E --> D["divide by their total"]
  D --> W["weights<br/>(0.401, 0.198, 0.401):<br/>positive, adding up to 1"]
```

**Reading it:** scores of any size and sign enter at the top. Subtracting
the largest score first is a safety step: it cancels between the top and the
bottom of the fraction, so the weights come out the same, but the largest
exponent becomes $e^0 = 1$ and cannot overflow. The exponential makes every
number positive, and dividing by the total makes them add up to 1.

**The math.**

$$
e^{x} = \exp(x) > 0 \text{ for every } x, \qquad
b^{-p} = \frac{1}{b^{p}}, \qquad
\theta_i = \text{base}^{-2i/d} = \frac{1}{\text{base}^{2i/d}}
$$

$$
\text{softmax}(s)_j = \frac{e^{s_j}}{\sum_{k} e^{s_k}}
= \frac{e^{s_j - \max(s)}}{\sum_{k} e^{s_k - \max(s)}}
$$

**Symbols**

| Symbol | Meaning here | In the example |
|---|---|---|
| $e$ | Euler's number | $e \approx 2.718$ |
| $e^x$, $\exp(x)$ | $e$ raised to the power $x$: two spellings | $e^{-1} \approx 0.368$ |
| $b^{-p}$ | a negative power: one over $b^p$ | $2^{-3} = 0.125$ |
| base, $d$, $i$ | the position base, the width, and the pair number | 10,000, 4, and 0 or 1 |
| $\theta_i = \text{base}^{-2i/d}$ | pair $i$'s turning speed: 1 for pair 0, smaller for each later pair | $\theta_0 = 1$, $\theta_1 = 0.01$ |
| $s$, $s_j$ | the scores, and score number $j$ | (0.707, 0, 0.707) |
| $\max(s)$ | the largest score | 0.707 |
| $\operatorname{argmax}(s)$ | the position $j$ of the largest score (the first one on a tie) | 0 |
| $\text{softmax}(s)_j$ | weight number $j$: positive, and all weights add up to 1 | 0.401, 0.198, 0.401 |

**In words:** "$e$ to any power is positive; a minus sign in the exponent
means one over. Softmax exponentiates each score and divides by the total,
and subtracting the largest score first changes nothing but safety."

**With the numbers:** for $d = 4$, the speeds are $10000^{0} = 1$ and
$10000^{-2/4} = 1/100 = 0.01$. For dog's scores, $e^{0.707} \approx 2.028$
and $e^0 = 1$; the total is $2.028 + 1 + 2.028 \approx 5.056$, so the weights
are $2.028 / 5.056 \approx 0.401$ and $1 / 5.056 \approx 0.198$. Add 100 to
every score and the weights stay 0.401, 0.198, 0.401: softmax only sees the
gaps between scores. Of the scores (1, 3, 2), the max is 3 and the argmax is
1, and the softmax weights are 0.090, 0.665 and 0.245.

**In Python:**

```python
import math
import sys
import numpy as np
math.e  # → 2.718
math.exp(-1)  # → 0.368
# the table: e^x for x = -2 .. 2
np.exp([-2.0, -1.0, 0.0, 1.0, 2.0])  # → [0.135, 0.368, 1.000, 2.718, 7.389]
# a very negative exponent: tiny, but still above zero
math.exp(-20) > 0  # → True
# the largest x whose e^x fits in a 64-bit float: e^710 is already too large
math.log(sys.float_info.max)  # → 709.78
# a negative power is one over; a fractional one is a root
2 ** -3  # → 0.125
10000 ** (1 / 2), 10000 ** (-1 / 2)  # → (100.0, 0.01)
# θ_i = base^(-2i/d) for i = 0 .. d/2 - 1, with d = 4 and then d = 8
i = np.arange(4 // 2)
10000.0 ** (-2 * i / 4)  # → [1.0, 0.01]
i = np.arange(8 // 2)
10000.0 ** (-2 * i / 8)  # → [1.0, 0.1, 0.01, 0.001]
```

```python
import numpy as np
from lessons.notation import softmax
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
# dog's scores: ⟨dog, k⟩ / √d for every key k
scores = X @ X[0] / np.sqrt(2)
scores  # → [0.707, 0.0, 0.707]
# the table: e^score, and their total
np.exp(scores)  # → [2.028, 1.000, 2.028]
float(np.exp(scores).sum())  # → 5.056
softmax(scores)  # → [0.401, 0.198, 0.401]
float(softmax(scores).sum())  # → 1.0
float(np.max(scores)), int(np.argmax(scores))  # → (0.707, 0)
# shifting every score changes no weight
softmax(scores + 100.0)  # → [0.401, 0.198, 0.401]
# huge scores: no overflow, because max(s) is subtracted first
softmax([1000.0, 999.0])  # → [0.731, 0.269]
s = np.array([1.0, 3.0, 2.0])
float(np.max(s)), int(np.argmax(s))  # → (3.0, 1)
softmax(s)  # → [0.090, 0.665, 0.245]
# a masked score, -inf, gets weight exactly 0
softmax([1.0, -np.inf])  # → [1.0, 0.0]
# a matrix: one softmax per row (along the last axis)
softmax([[0.0, 0.0], [1.0, -np.inf]]).tolist()  # → [[0.5, 0.5], [1.0, 0.0]]
```

![Two panels, one above the other. Top: the curve e to the x stays above zero at every x, with e^-1 = 0.368, e^0 = 1 and e^1 = 2.718 marked; bottom: dog's scores and their softmax weights 0.401, 0.198, 0.401](figures/notation.softmax.svg)

**Reading it:** at the top, the curve $e^x$ falls towards zero as $x$ goes
left but never touches it, and climbs steeply to the right; the dots mark
$x = -1, 0, 1$. At the bottom, grey bars are dog's scores against each key and
blue bars their softmax weights: the two equal scores get equal weights, the
zero score still gets a positive weight, and the three blue bars add up to 1.

**In code:** the speeds $\text{base}^{-2i/d}$ are one line of numpy here;
`lessons.positional.rope_frequencies` is the function that computes them,
on the page that puts them to work. `softmax` subtracts $\max(s)$,
exponentiates and divides by the total, along the last axis of an array of
any shape (its `axis` argument picks another). A row whose every score is
$-\infty$ has nothing to share out, so `softmax` raises a ValueError for it
instead of returning nan.

**Why it matters.** Attention weights are a softmax of scaled dot products
(`lessons.attention`); because $e^x$ is never zero, a far-away or
low-scoring token is down-weighted but never fully ignored unless its score
is set to $-\infty$ by a mask, and a mask must leave every row at least one
key. The speeds of sinusoidal codes and RoPE in `lessons.positional` are the
falling powers $\text{base}^{-2i/d}$.

## In 20 seconds

- A vector is an ordered list; the dot product multiplies matching entries
  and adds them up, and divided by both lengths it is the cosine similarity.
- Angles are in radians; on a circle of radius 1, cosine is how far right
  and sine how far up.
- A matrix times a vector is one dot product per row; $QK^T$ is every
  query's dot product with every key; permutation matrices reorder rows and
  rotation matrices turn vectors without changing their length.
- $e^x$ is always positive, $b^{-p}$ is $1/b^p$, and softmax turns any
  scores into positive weights that add up to 1.

## Self-test questions

??? question "What is ⟨(1, 2), (3, 4)⟩?"
    Multiply matching entries and add: $1 \cdot 3 + 2 \cdot 4 = 11$.

??? question "Is sin 1 about 0.841 or about 0.017?"
    0.841: the 1 is one radian, about 57.3°. The sine of one degree is 0.017.

??? question "Q and K are both (5, 64). What shape is Q K^T, and what is entry (m, n)?"
    $K^T$ is (64, 5), so $QK^T$ is (5, 5): entry $(m, n)$ is the dot product
    of query $m$ with key $n$.

??? question "What does the permutation matrix for the order (2, 1, 0) do to the rows of X?"
    Row 0 of $PX$ is row 2 of $X$, row 1 stays, and row 2 is row 0: the first
    and the last rows swap. Multiplying by $P^T$ swaps them back.

??? question "You rotate a vector by 1 rad and then by 2 rad. What single rotation is that, and what happens to its length?"
    One rotation by 3 rad, since $R(2)R(1) = R(3)$; the length does not change.

??? question "Why is e^x never negative, and what is 10000^(-1/2)?"
    Each step left divides by $e \approx 2.718$, and dividing a positive number
    keeps it positive. $10000^{-1/2} = 1/\sqrt{10000} = 1/100 = 0.01$.

??? question "Why can softmax subtract the largest score before exponentiating?"
    $e^{s_j - c} = e^{s_j} / e^{c}$, and the same factor $1/e^{c}$ appears in
    every term of the total, so it cancels: the weights do not change, but no
    exponent is larger than 0, so nothing overflows.

## The papers behind this lesson

- **Vaswani et al. (2017), *Attention Is All You Need*.**
  [arXiv:1706.03762](https://arxiv.org/abs/1706.03762) (companion: `papers.vaswani2017_attention`). Wrote attention as
  $\text{softmax}(QK^T/\sqrt{d_k})\,V$, the formula that uses most of this
  page's symbols at once, and built its position codes from sines and cosines.
- **Su et al. (2021), *RoFormer: Enhanced Transformer with Rotary Position Embedding*.**
  [arXiv:2104.09864](https://arxiv.org/abs/2104.09864) (companion: `papers.su2021_roformer`). Encoded position by
  rotating each pair of a query and a key with a 2 × 2 rotation matrix, the
  matrix of section 3.

## Further reading

- 3Blue1Brown, *Essence of linear algebra* (vectors, matrices, dot products as pictures): https://www.3blue1brown.com/topics/linear-algebra
- Deisenroth, Faisal and Ong, *Mathematics for Machine Learning* (free book; chapters 2 and 3 cover vectors, matrices, lengths and angles): https://mml-book.github.io/
- NumPy, *the absolute basics for beginners* (arrays, shapes, the @ operator): https://numpy.org/doc/stable/user/absolute_beginners.html
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from lessons import _checks
from lessons._palette import BLUE, GREEN, MUTED, RED
from lessons._show import banner, matrix, say, table, takeaway

ArrayLike = Sequence[float] | np.ndarray

# ---------------------------------------------------------------------------
# 1. Vectors and dot products
# ---------------------------------------------------------------------------


def pairs(x: ArrayLike) -> np.ndarray:
    """A vector read as its pairs: row i is (x_{2i}, x_{2i+1}).

    Args:
        x: (d,) finite numbers, d even.

    Returns:
        (d/2, 2) array.
    """
    x = _checks.vector(x, "x")
    if x.size % 2:
        raise ValueError(f"x must have an even length d to split into pairs; got d = {x.size}")
    # x_{2i} are the even entries, x_{2i+1} the odd ones
    return np.stack([x[0::2], x[1::2]], axis=1)  # (d/2, 2)


def dot(a: ArrayLike, b: ArrayLike) -> float:
    """The dot product <a, b> = a · b = Σ_i a_i b_i.

    Args:
        a, b: (d,) finite numbers, the same d.

    Returns:
        One float.
    """
    a, b = _checks.vector(a, "a"), _checks.vector(b, "b")
    _checks.same_shape(a, b, "a and b")
    # Σ_i a_i b_i: multiply matching entries, add them up
    return float(np.sum(a * b))


def weighted_sum(weights: ArrayLike, vectors: ArrayLike) -> np.ndarray:
    """o = Σ_j w_j v_j: each vector times its scalar weight, added up.

    Args:
        weights: (n,) one number per vector.
        vectors: (n, d), row j is v_j.

    Returns:
        (d,) array.
    """
    w = _checks.vector(weights, "weights")  # (n,)
    V = _checks.matrix(vectors, "vectors")  # (n, d)
    if V.shape[0] != w.size:
        raise ValueError(
            f"weights must hold one number per row of vectors: got {w.size} weights for {V.shape[0]} rows"
        )
    # w_j v_j for every j (a scalar times a vector), then Σ_j down the rows
    return (w[:, None] * V).sum(axis=0)  # (d,)


def norm(a: ArrayLike) -> float:
    """The length ‖a‖ = sqrt(<a, a>) of a (d,) vector."""
    a = _checks.vector(a, "a")
    # ‖a‖ = √(Σ_i a_i²)
    return math.sqrt(dot(a, a))


def cosine_similarity(a: ArrayLike, b: ArrayLike) -> float:
    """cos(a, b) = <a, b> / (‖a‖ ‖b‖): 1 same direction, 0 unrelated, -1 opposite.

    Args:
        a, b: (d,) finite numbers, the same d, neither the zero vector.

    Returns:
        One float in [-1, 1].
    """
    a, b = _checks.vector(a, "a"), _checks.vector(b, "b")
    _checks.same_shape(a, b, "a and b")
    for name, v in (("a", a), ("b", b)):
        if not np.any(v):
            raise ValueError(f"{name} must not be the zero vector: it has no direction to compare")
    # <a, b> / (‖a‖ ‖b‖); the clip only removes rounding error past ±1
    return float(np.clip(dot(a, b) / (norm(a) * norm(b)), -1.0, 1.0))


# ---------------------------------------------------------------------------
# 2. Angles, sine and cosine
# ---------------------------------------------------------------------------


def to_radians(degrees: float) -> float:
    """θ_rad = θ_deg · π / 180 (a full turn: 360° = 2π rad); `degrees` is one finite number."""
    degrees = _checks.finite(degrees, "degrees")
    # θ_deg · π / 180
    return degrees * math.pi / 180.0


def unit_circle_point(angle: float) -> np.ndarray:
    """(cos θ, sin θ), shape (2,): where a walk of `angle` radians round a circle of radius 1 lands."""
    angle = _checks.finite(angle, "angle")
    # x = cos θ (how far right), y = sin θ (how far up)
    return np.array([math.cos(angle), math.sin(angle)])


def angle_between(a: ArrayLike, b: ArrayLike) -> float:
    """The angle between two (d,) vectors in radians, arccos(cos(a, b)), from 0 to π."""
    # θ = arccos(<a, b> / (‖a‖ ‖b‖))
    return math.acos(cosine_similarity(a, b))


# ---------------------------------------------------------------------------
# 3. Matrices, permutations and rotations
# ---------------------------------------------------------------------------


def matvec(M: ArrayLike, x: ArrayLike) -> np.ndarray:
    """M x: one dot product per row, (M x)_r = <row r of M, x>.

    Args:
        M: (rows, d) matrix.
        x: (d,) vector.

    Returns:
        (rows,) array.
    """
    M = _checks.matrix(M, "M")  # (rows, d)
    x = _checks.vector(x, "x")  # (d,)
    if M.shape[1] != x.size:
        raise ValueError(f"M must have as many columns as x has entries: M is {M.shape}, x has {x.size}")
    # (M x)_r = Σ_c M_rc x_c
    return np.array([dot(row, x) for row in M])  # (rows,)


def pairwise_dots(Q: ArrayLike, K: ArrayLike) -> np.ndarray:
    """Q Kᵀ: the table of every <q_m, k_n>.

    Args:
        Q: (seq_q, d), one query per row.
        K: (seq_k, d), one key per row.

    Returns:
        (seq_q, seq_k) array.
    """
    Q = _checks.matrix(Q, "Q")  # (seq_q, d)
    K = _checks.matrix(K, "K")  # (seq_k, d)
    if Q.shape[1] != K.shape[1]:
        raise ValueError(f"Q and K must have the same width d: Q is {Q.shape}, K is {K.shape}")
    # Kᵀ is (d, seq_k), so (seq_q, d) @ (d, seq_k) lines d up with d
    return Q @ K.T  # (seq_q, seq_k)


def permutation_matrix(order: Sequence[int]) -> np.ndarray:
    """P with P[i, order[i]] = 1, so that (P X)[i] = X[order[i]] and Pᵀ P = I.

    Args:
        order: (n,) integers, each of 0 .. n-1 exactly once.

    Returns:
        (n, n) float array; P @ X reorders the rows of an (n, ...) X.
    """
    arr = np.asarray(order)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
        raise ValueError(f"order must be a non-empty 1-d list of integer row numbers; got {order!r}")
    n = arr.size
    if not np.array_equal(np.sort(arr), np.arange(n)):
        raise ValueError(f"order must list each of 0..{n - 1} exactly once; got {arr.tolist()}")
    P = np.zeros((n, n))
    # one 1 per row: row i picks row order[i] of whatever P multiplies
    P[np.arange(n), arr] = 1.0
    return P  # (n, n)


def rotation_matrix(angle: float) -> np.ndarray:
    """R(θ) = [[cos θ, -sin θ], [sin θ, cos θ]], shape (2, 2): turns a 2-d vector anticlockwise by `angle` radians."""
    angle = _checks.finite(angle, "angle")
    c, s = math.cos(angle), math.sin(angle)
    # row 0: (cos θ, -sin θ); row 1: (sin θ, cos θ)
    return np.array([[c, -s], [s, c]])  # (2, 2)


def rotate(v: ArrayLike, angle: float) -> np.ndarray:
    """R(θ) v: the (2,) vector `v` turned by `angle` radians; its length is unchanged. Returns (2,)."""
    v = _checks.vector(v, "v")
    if v.size != 2:
        raise ValueError(f"v must be a 2-d vector (two numbers); got {v.size} numbers")
    # R(θ) v
    return matvec(rotation_matrix(angle), v)  # (2,)


# ---------------------------------------------------------------------------
# 4. Exponentials and softmax
# ---------------------------------------------------------------------------


def softmax(scores: ArrayLike, axis: int = -1) -> np.ndarray:
    """softmax(s)_j = e^(s_j - max s) / Σ_k e^(s_k - max s) along `axis`: positive weights that add up to 1.

    Subtracting the largest score changes no weight (it cancels between top
    and bottom) but keeps e^x from overflowing. A score of -inf (masked) gets
    weight exactly 0. A slice along `axis` whose every score is -inf (a fully
    masked row) has nothing to share out: that raises a ValueError, never NaN.

    Args:
        scores: any shape with at least one axis, real numbers or -inf
            (no NaN, no +inf); e.g. (n,), (seq, seq) or (heads, seq, seq).
        axis: the axis the weights add up along; the last one by default.

    Returns:
        Float array of the same shape as `scores`.
    """
    try:
        s = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"scores must be an array of real numbers; got {scores!r}") from None
    if s.ndim == 0 or s.size == 0:
        raise ValueError(f"scores must be a non-empty array with at least one axis; got shape {s.shape}")
    if np.any(np.isnan(s)) or np.any(s == np.inf):
        raise ValueError("scores must not contain nan or +inf (-inf is allowed: weight 0)")
    top = s.max(axis=axis, keepdims=True)  # max(s) per slice
    if np.any(top == -np.inf):
        raise ValueError(f"scores must have a finite entry in every slice along axis {axis}: "
                         "a fully masked row (all -inf) leaves nothing to weight")
    # e^(s_j - max s): every entry in [0, 1], the largest exactly 1
    e = np.exp(s - top)
    # divide by Σ_k so the weights add up to 1
    return e / e.sum(axis=axis, keepdims=True)


# ---------------------------------------------------------------------------
# Worked numbers shared by the page, the figures and the demo
# ---------------------------------------------------------------------------

# dog, bites, man as in lessons.attention: shape (seq, d) = (3, 2)
WORDS = ("dog", "bites", "man")
X_WORDS = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V_ROTATED = np.array([2.0, 1.0])  # the vector the rotation figure turns by 1 rad


def dog_scores() -> np.ndarray:
    """dog's query scored against every key of X_WORDS, divided by √d: (0.707, 0, 0.707), shape (3,)."""
    d = X_WORDS.shape[1]
    # <q, k_n> / √d for each key k_n
    return matvec(X_WORDS, X_WORDS[0]) / math.sqrt(d)  # (seq,)


# ---------------------------------------------------------------------------
# Figures (written to docs/figures by figures_build)
# ---------------------------------------------------------------------------


def _circle(ax, radius: float = 1.0, **kw) -> None:
    t = np.linspace(0.0, 2.0 * math.pi, 361)
    ax.plot(radius * np.cos(t), radius * np.sin(t), **kw)


def _arc(ax, start: float, stop: float, radius: float, **kw) -> None:
    t = np.linspace(start, stop, 100)
    ax.plot(radius * np.cos(t), radius * np.sin(t), **kw)


def figures() -> dict:
    """The page's figures as {name: Figure}. matplotlib is imported here, and only here."""
    import matplotlib.pyplot as plt

    figs = {}

    # The unit circle: the point at 1 rad has coordinates (cos 1, sin 1).
    angle = 1.0
    cx, sy = unit_circle_point(angle)
    fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
    _circle(ax, color=MUTED, lw=1)
    ax.axhline(0, color="black", lw=0.6)
    ax.axvline(0, color="black", lw=0.6)
    ax.plot([0, cx], [0, sy], color="black", lw=1.2)
    ax.plot([0, cx], [0, 0], color=BLUE, lw=3, label=f"cos 1 = {cx:.3f} (how far right)")
    ax.plot([cx, cx], [0, sy], color=RED, lw=3, label=f"sin 1 = {sy:.3f} (how far up)")
    _arc(ax, 0.0, angle, 0.25, color=GREEN, lw=1.5)
    ax.text(0.3, 0.12, "1 rad", color=GREEN)
    ax.plot([cx], [sy], "o", color="black")
    ax.annotate(f"({cx:.3f}, {sy:.3f})", (cx, sy), xytext=(8, 6), textcoords="offset points")
    ax.set_aspect("equal")
    ax.set_xlim(-1.2, 1.2)
    ax.set_ylim(-1.2, 1.2)
    ax.set_xlabel("x = cos θ")
    ax.set_ylabel("y = sin θ")
    ax.set_title("The unit circle: the point at angle 1 rad")
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), frameon=False)
    figs["unit_circle"] = fig

    # Rotations: two vectors turned, each staying on its own circle.
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 3.6), layout="constrained")
    for ax, v, turn in ((axes[0], np.array([1.0, 0.0]), 3.0), (axes[1], V_ROTATED, 1.0)):
        w = rotate(v, turn)
        r = norm(v)
        _circle(ax, r, color=MUTED, lw=1, ls="--")
        ax.axhline(0, color="black", lw=0.5)
        ax.axvline(0, color="black", lw=0.5)
        start = math.atan2(v[1], v[0])
        _arc(ax, start, start + turn, 0.3 * r, color=GREEN, lw=1.5)
        ax.annotate("", xy=tuple(v), xytext=(0, 0), arrowprops=dict(arrowstyle="->", color=BLUE, lw=2))
        ax.annotate("", xy=tuple(w), xytext=(0, 0), arrowprops=dict(arrowstyle="->", color=RED, lw=2))
        ax.plot([v[0]], [v[1]], "o", color=BLUE, ms=4)
        ax.plot([w[0]], [w[1]], "o", color=RED, ms=4)
        ax.set_title(f"turned by {turn:.0f} rad\nlength {r:.3f} before, {norm(w):.3f} after")
        ax.set_xlabel(f"blue: v = ({v[0]:.0f}, {v[1]:.0f})\nred: R({turn:.0f}) v = ({w[0]:.3f}, {w[1]:.3f})")
        ax.set_aspect("equal")
        lim = 1.35 * r
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
    fig.suptitle("A rotation turns a vector and keeps its length")
    figs["rotation"] = fig

    # Exponentials and softmax: e^x stays above zero; scores become weights.
    fig, (ax0, ax1) = plt.subplots(2, 1, figsize=(6.4, 6.4), layout="constrained")
    x = np.linspace(-4.0, 2.0, 200)
    ax0.plot(x, np.exp(x), color=BLUE, lw=2)
    ax0.axhline(0, color="black", lw=0.6)
    for xi in (-1.0, 0.0, 1.0):
        ax0.plot([xi], [math.exp(xi)], "o", color=RED)
        ax0.annotate(f"exp({xi:.0f}) = {math.exp(xi):.3f}", (xi, math.exp(xi)), xytext=(-100, 8),
                     textcoords="offset points")
    ax0.set_xlabel("x")
    ax0.set_ylabel("exp(x)")  # not e^x in mathtext: a superscript is drawn at 0.7 of the text's size
    ax0.set_title("exp(x) is above zero everywhere")
    s = dog_scores()
    w = softmax(s)
    pos = np.arange(len(WORDS))
    ax1.bar(pos - 0.2, s, width=0.4, color=MUTED, label="score")
    ax1.bar(pos + 0.2, w, width=0.4, color=BLUE, label="softmax weight")
    for p, val in zip(pos, w, strict=True):
        ax1.text(p + 0.2, val + 0.01, f"{val:.3f}", ha="center")
    ax1.set_xticks(pos, [f"key: {name}" for name in WORDS])
    ax1.set_title("dog's scores and their weights (sum 1)")
    ax1.set_ylim(0, 1.0)
    ax1.legend(frameon=False, loc="upper center", ncols=2)
    figs["softmax"] = fig
    return figs


# ---------------------------------------------------------------------------
# Narrated walkthrough
# ---------------------------------------------------------------------------


def demo() -> None:
    """The narrated walkthrough: each section's worked numbers, printed."""
    dog, bites, man = X_WORDS

    banner("1. Vectors and dot products")
    say("Three words as 2-number vectors: dog = (1, 0), bites = (0, 1), man = (1, 1).")
    rows = [(f"{WORDS[i]}, {WORDS[j]}", dot(X_WORDS[i], X_WORDS[j]), norm(X_WORDS[i]), norm(X_WORDS[j]),
             cosine_similarity(X_WORDS[i], X_WORDS[j])) for i, j in ((0, 2), (0, 1), (2, 2))]
    table(["pair", "<a, b>", "‖a‖", "‖b‖", "cosine"], rows)
    takeaway("The dot product multiplies matching entries and adds them up; divided by both lengths it is the cosine.")

    banner("2. Angles, sine and cosine")
    rows = [(f"{a:.3f}", f"{math.degrees(a):.1f}", *unit_circle_point(a)) for a in (0.0, 1.0, math.pi / 2, 3.0, math.pi)]
    table(["angle (rad)", "degrees", "cos", "sin"], rows, floatfmt=".3f")
    say(f"The angle between dog and man is {angle_between(dog, man):.3f} rad "
        f"= {math.degrees(angle_between(dog, man)):.1f} degrees.")
    takeaway("Angles are in radians; cos is how far right, sin how far up, on a circle of radius 1.")

    banner("3. Matrices, permutations and rotations")
    matrix("X, shape (seq, d) = (3, 2): dog, bites, man", X_WORDS, fmt="5.1f")
    matrix("X X^T: every dot product, shape (3, 3)", pairwise_dots(X_WORDS, X_WORDS), fmt="5.1f")
    P = permutation_matrix([2, 1, 0])
    matrix("P for order (2, 1, 0)", P, fmt="5.1f")
    matrix("P X: man, bites, dog", P @ X_WORDS, fmt="5.1f")
    turned = rotate(V_ROTATED, 1.0)
    say(f"Turning (2, 1) by 1 rad gives ({turned[0]:.3f}, {turned[1]:.3f}); its length stays "
        f"{norm(V_ROTATED):.3f} -> {norm(turned):.3f}.")
    takeaway("A permutation matrix reorders rows; a rotation matrix turns a vector without changing its length.")

    banner("4. Exponentials and softmax")
    # base^(-2i/d) for d = 8, i = 0 .. 3 (lessons.positional names it rope_frequencies)
    speeds = 10000.0 ** (-2.0 * np.arange(4) / 8)
    say(f"e = {math.e:.3f}; e^-1 = {math.exp(-1):.3f}; the speeds base^(-2i/d) for d = 8 are "
        f"{', '.join(f'{p:g}' for p in speeds)}.")
    s = dog_scores()
    table(["key", "score", "softmax weight"], [(WORDS[j], s[j], softmax(s)[j]) for j in range(3)])
    out = weighted_sum(softmax(s), X_WORDS)
    say(f"dog's attention output is the weighted sum ({out[0]:.3f}, {out[1]:.3f}).")
    takeaway("Softmax turns any scores into positive weights that add up to 1.")


if __name__ == "__main__":
    demo()

"""Audit a verify-perceptron certificate: ``python -m verify_perceptron.audit CERT [DATA]``.

Stand-alone on purpose: nothing of verify_perceptron and nothing outside the standard library is imported,
so trusting a verdict means trusting these lines, not the engine, checker or solvers that made the
certificate (docs/certificates.md has its schema). Each statement is re-checked from the data, one line
each: the data's digests; each separator's least margin γ > 0 (separable), R², β, ‖w*‖² and each note's
bound (squared forms, no root); Gordan's λ >= 0, Σλ = 1, Σλ·y·x~ = 0 (not separable); the run, replayed
from w = 0 (its updates, final weights, which classify every sample if it converged, and each claim's least
slack). Exit 0 when every statement holds, 1 when one fails, 2 on a malformed certificate or an unreadable
DATA. DATA is checked against the file's SHA-256; when the data are not embedded it is read here: plain CSV
(numbers such as 0.1, 1e-3, 3/7; one optional header; the label in the column named label, y, target or
class, else the last; a first column headed '' or 'Unnamed: 0' is a row index), gzip, bzip2 or xz or not."""

import hashlib
import json
import math
import re
import sys
import bz2, gzip, lzma, zlib  # DATA compressed (PACKED)
from fractions import Fraction

# name: (bias first?, bias input, what a score of exactly 0 counts as, step factor a/η)
CONVENTIONS = {
    "classic": (True, 1, "mistake", 1), "hard-limiter": (True, 1, "negative", 2),
    "hard-limiter-plus": (True, 1, "positive", 2), "unit-ball": (False, 1, "mistake", 1),
    "sum-norm": (False, -1, "mistake", 1), "split-bias": (True, 1, "mistake", 1),
}
INTEGER, RATIONAL = re.compile(r"-?[0-9]+"), re.compile(r"-?[0-9]+(/[0-9]*[1-9][0-9]*)?")
LABEL_NAMES = ("label", "y", "target", "class")
PACKED = ((b"\x1f\x8b", gzip.decompress), (b"BZh", bz2.decompress), (b"\xfd7zXZ\x00", lzma.decompress))


class Malformed(Exception):
    """The certificate (or DATA) cannot be read as the schema says."""


def field(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        raise Malformed(f"{where}: no field {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Malformed(f"{where}.{key}={value!r:.60} has the wrong type")
    return value


def integer(text, where, pattern=INTEGER, kind=int):
    if not isinstance(text, str) or not pattern.fullmatch(text):
        raise Malformed(f"{where}={text!r:.60} is not {'an integer' if kind is int else 'an exact rational'}")
    return kind(text)


def rational(text, where):
    return integer(text, where, RATIONAL, Fraction)


def vector(obj, key, length, where):
    values = field(obj, key, list, where)
    if len(values) != length:
        raise Malformed(f"{where}.{key} has {len(values)} entries, not {length}")
    return [rational(v, f"{where}.{key}[{i}]") for i, v in enumerate(values)]


def digest(n, d, L, rows):
    """SHA-256 of the canonical text: a header line, 'n d L', then per sample 'y n_1 ... n_d'."""
    lines = ["verify-perceptron data 1", f"{n} {d} {L}"] + [" ".join(map(str, row)) for row in rows]
    return hashlib.sha256("".join(line + "\n" for line in lines).encode("utf-8")).hexdigest()


def read_csv(path, labels):
    """DATA as the canonical (L, rows): plain CSV only, else Malformed naming what could not be read."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
        text = next((unpack(raw) for magic, unpack in PACKED if raw.startswith(magic)), raw).decode("utf-8-sig")
    except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error) as error:  # (UnicodeDecodeError: a ValueError)
        raise Malformed(f"DATA {path}: cannot be read ({error})") from None
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    # a cell as NumPy 2 writes a scalar's repr (np.savetxt(..., fmt="%r")) is read as the literal inside
    cells = [[re.sub(r"^np\.float64\((.*)\)$", r"\1", cell.strip()) for cell in line.split(",")] for line in lines]
    number = lambda cell: bool(RATIONAL.fullmatch(cell) or re.fullmatch(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[-+]?[0-9]{1,4})?", cell, re.I))
    header = cells.pop(0) if cells and not all(map(number, cells[0])) else None
    if header and header[0].strip('"') in ("", "Unnamed: 0"):  # a row index (pandas' to_csv, R's write.csv)
        header, cells = header[1:], [row[1:] for row in cells]
    names = [h.strip('"').lower() for h in header or []]
    column = next((names.index(n) for n in LABEL_NAMES if n in names), -1)
    rows, denominators, width = [], [], len(cells[0]) if cells else 0
    for at, row in enumerate(cells, 2 if header else 1):
        if len(row) != width or not all(map(number, row)):
            raise Malformed(f"DATA {path} line {at}: the auditor reads plain CSV only (comma-separated numbers, one "
                            "optional header); embed the data in the certificate for other files")
        label = Fraction(row.pop(column))
        sign = {Fraction(labels[k]): v for k, v in (("positive", 1), ("negative", -1)) if number(labels[k])}.get(label)
        if sign is None:
            raise Malformed(f"DATA {path} line {at}: label {label} is neither of the certificate's labels")
        values = [Fraction(v) for v in row]
        denominators += [v.denominator for v in values]
        rows.append((sign, values))
    L = math.lcm(1, *denominators)
    return L, [[sign, *(int(v * L) for v in values)] for sign, values in rows]


class Audit:
    def __init__(self):
        self.lines, self.failed = [], 0

    def state(self, holds, text, detail=""):
        """One line per statement; a number of more than 40 characters is shown by its ends (compared whole)."""
        line = text + ("" if holds or not detail else f": {detail}")
        line = re.sub(r"[0-9]{41,}", lambda m: f"{m[0][:12]}...{m[0][-12:]} ({len(m[0])} digits)", line)
        self.lines.append(("ok    " if holds else "FAIL  ") + line)
        self.failed += not holds
        return holds


def load_data(cert, data_path, audit):
    data = field(cert, "data", dict, "certificate")
    n, d = field(data, "n_samples", int, "data"), field(data, "n_features", int, "data")
    stated = field(data, "sha256", str, "data")
    if field(data, "embedded", bool, "data"):
        L = integer(field(data, "denominator", str, "data"), "data.denominator")
        rows = [[integer(v, f"data.rows[{i}]") for v in row] for i, row in enumerate(field(data, "rows", list, "data"))]
    elif data_path is None:
        raise Malformed("the data are not embedded (--certificate-data digest): give DATA, the file they came from")
    else:
        L, rows = read_csv(data_path, field(data, "labels", dict, "data"))
    if L < 1 or n < 1 or len(rows) != n or any(len(r) != d + 1 or r[0] not in (1, -1) for r in rows):
        raise Malformed(f"data: {len(rows)} rows, not {n} of a label ±1 and {d} numerators over L >= 1")
    found = digest(n, d, L, rows)
    audit.state(found == stated, f"data: SHA-256 of the canonical text of {n} samples × {d} features over "
                f"L = {L} is {stated}", f"it is {found}")
    if data_path is not None:
        with open(data_path, "rb") as handle:  # an OSError is the one line of a DATA that cannot be read
            found, stated = hashlib.sha256(handle.read()).hexdigest(), data.get("file_sha256")
        audit.state(found == stated, f"data: DATA {data_path} has the certificate's SHA-256 {stated}", f"it has {found}")
    return L, rows


def check_separator(s, where, samples, L, first, audit):
    """Margins, γ, R², β, ‖w*‖² and each note's bound of one separator; True when all hold."""
    w = vector(s, "weights", len(samples[0][1]), where)
    gamma, R_sq, beta, ws_sq = (rational(field(s, k, str, where), f"{where}.{k}") for k in ("gamma", "R_sq", "beta", "ws_sq"))
    M = math.lcm(*(c.denominator for c in w))
    W = [int(c * M) for c in w]
    margins = [y * sum(a * b for a, b in zip(z, W)) for y, z in samples]  # y·w·x~ = margin/(L·M)
    least = Fraction(min(margins), L * M)
    ok = audit.state(gamma > 0 and least == gamma, f"{where}: y_i·w*·x~_i >= γ = {gamma} > 0 for all {len(samples)} "
                     "samples, with equality at one (separable with margin γ)", f"the least margin is {least}")
    norms = [sum(a * a for a in z) for _, z in samples]
    ok &= audit.state(Fraction(max(norms), L * L) == R_sq, f"{where}: R² = max_i ‖x~_i‖² = {R_sq}")
    ok &= audit.state(Fraction(sum(norms), L * L) == beta, f"{where}: β = Σ_i ‖x~_i‖² = {beta}")
    ok &= audit.state(sum(c * c for c in w) == ws_sq, f"{where}: ‖w*‖² = {ws_sq}")
    b_sq = (w[0] if first else w[-1]) ** 2
    for name, text in field(s, "bounds", dict, where).items():
        value = rational(text, f"{where}.bounds.{name}")
        g2 = gamma * gamma
        if name in ("classic", "hard-limiter", "hard-limiter-plus"):  # (R/γ)²·‖w‖², β²·‖w0‖²/α²
            found, form = R_sq * ws_sq / g2, "R²·‖w*‖²/γ²"
        elif name == "unit-ball":  # 1/γ'² with γ' the margin after ‖w*‖ = 1 and ‖x~‖ <= 1
            found, form = 1 / (g2 / (R_sq * ws_sq)), "1/γ'², γ'² = γ²/(R²·‖w*‖²)"
        elif name == "sum-norm":  # β/D², D = γ/‖w*‖
            found, form = beta / (g2 / ws_sq), "β/D², D² = γ²/‖w*‖²"
        elif name == "split-bias" and ws_sq > b_sq:  # (α0² + 1)(1 + M²)/ρ² after ‖α*‖ = 1
            v_sq = ws_sq - b_sq
            found, form = (b_sq / v_sq + 1) * R_sq / (g2 / v_sq), "(α0² + 1)(1 + M²)/ρ², ρ² = γ²/‖v‖², α0² = b²/‖v‖²"
        else:
            raise Malformed(f"{where}.bounds: no note's bound is named {name!r}")
        ok &= audit.state(found == value, f"{where}: {name}'s bound {form} = {value}", f"it is {found}")
    return ok, w


def check_gordan(g, samples, audit):
    lam = vector(g, "lambda", len(samples), "gordan")
    audit.state(all(v >= 0 for v in lam), "gordan: λ_i >= 0 for every sample")
    audit.state(sum(lam) == 1, "gordan: Σ λ_i = 1", f"it is {sum(lam)}")
    total = [sum(v * y * z[j] for v, (y, z) in zip(lam, samples)) for j in range(len(samples[0][1]))]
    return audit.state(not any(total), "gordan: Σ λ_i·y_i·x~_i = 0 (no separator: the data are not separable)",
                       "it is [" + ", ".join(str(t) for t in total) + "]")


def wrong(score, y, tie):
    """A mistake under the convention's rule: the sign of y·score, and a score of 0 as the tie rule says."""
    if score == 0:
        return tie == "mistake" or (tie == "negative") != (y < 0)
    return y * score < 0


def check_run(run, separators, samples, L, coordinates, audit):
    conv = field(run, "convention", str, "run")
    if conv != coordinates:
        raise Malformed(f"run.convention={conv!r} but the vectors are in {coordinates!r}'s coordinates")
    _, _, tie, factor = CONVENTIONS[conv]
    mode, rate, step = field(run, "mode", str, "run"), rational(run.get("rate"), "run.rate"), rational(run.get("step"), "run.step")
    if mode not in ("online", "batch"):
        raise Malformed(f"run.mode={mode!r} is neither online nor batch")
    audit.state(step == factor * rate and rate > 0, f"run: {conv}'s step a = {factor}·η = {step}")
    n_updates, n_epochs = field(run, "n_updates", int, "run"), field(run, "n_epochs", int, "run")
    converged, d1 = field(run, "converged", bool, "run"), len(samples[0][1])
    final = vector(run, "final_weights", d1, "run")
    claims = field(run, "claims", dict, "run")
    ref = next((s for s in separators if s[0] == run.get("claims_separator")), None)
    if claims and ref is None:
        audit.state(False, f"run: its claims were checked against separator {run.get('claims_separator')!r}, "
                    "which is not among the separators verified above")
    least: dict[str, Fraction] = {}  # each claim's least slack

    def track(W, N):  # each claim's slack (rhs - lhs) at this update, w = a·W/L, kept when the least so far
        if ref:
            ww = step * Fraction(sum(p * q for p, q in zip(W, Ws)), L * M)
            w2 = step * step * Fraction(sum(p * p for p in W), L * L)
            for name, value in slacks(ww, w2, N, step, gamma, R_sq, beta, ws_sq, B).items():
                least[name] = min(value, least.get(name, value))
    if ref:
        _, sep, w = ref
        gamma, R_sq, beta, ws_sq = (rational(sep[k], k) for k in ("gamma", "R_sq", "beta", "ws_sq"))
        M = math.lcm(*(c.denominator for c in w))
        Ws, B = [int(c * M) for c in w], rational(sep["bounds"].get(conv, "0"), "bound")
    W, k, N, epoch, clean_epoch = [0] * d1, 0, 0, 0, False
    while epoch < n_epochs and not (k == n_updates and not converged):
        epoch += 1
        step_sum, made = [0] * d1, 0
        for y, z in samples:
            if wrong(sum(a * b for a, b in zip(W, z)), y, tie):
                made, N = made + 1, N + 1
                step_sum = [s + y * c for s, c in zip(step_sum, z)]
                if mode == "online":
                    W, step_sum, k = [a + b for a, b in zip(W, step_sum)], [0] * d1, k + 1
                    track(W, N)
                    if k == n_updates and not converged:
                        break
        if mode == "batch" and made:
            W, k = [a + b for a, b in zip(W, step_sum)], k + 1
            track(W, N)
        if not made:
            clean_epoch = True
            break
    clean = not any(wrong(sum(a * b for a, b in zip(W, z)), y, tie) for y, z in samples)
    audit.state((k, N, epoch, clean_epoch) == (n_updates, field(run, "n_mistakes", int, "run"), n_epochs, converged),
                f"run: replayed from w = 0, {mode}, it makes {n_updates} updates in {n_epochs} epochs and "
                + ("converges" if converged else "has not converged"),
                f"the replay made {k} updates ({N} mistakes) in {epoch} epochs, converged {clean_epoch}")
    ok = audit.state([step * Fraction(c, L) for c in W] == final, "run: its final weights are " + ", ".join(map(str, final[:4]))
                    + (f", ... ({len(final)} values)" if len(final) > 4 else ""))
    if converged:
        audit.state(ok and clean, f"run: the final weights classify every sample under {conv}'s tie rule")
    for name, text in claims.items():
        value = rational(text, f"run.claims.{name}")
        if name not in slacks(*[0] * 9):
            raise Malformed(f"run.claims: no claim is named {name!r}")
        audit.state(value >= 0 and least.get(name) == value, f"run: claim {name} holds at every update, its least "
                    f"slack {value} >= 0", f"the replay's least slack is {least.get(name)}")


def slacks(ww, w2, N, a, g, R2, b, s2, B):
    """rhs - lhs of each claim at an update, from w·w*, ‖w‖², N, a, γ, R², β, ‖w*‖² and the note's bound B."""
    return {"lower-bound": ww - N * a * g, "upper-bound": N * a * a * R2 - w2, "cauchy-schwarz": w2 * s2 - ww * ww,
            "mistake-bound": B - N, "mistake-bound-sum-batch": b * s2 - N * g * g}


def audit(cert, data_path=None):
    """The audit of a parsed certificate: its lines and the count of failed statements."""
    if field(cert, "certificate", str, "certificate") != "verify-perceptron" or cert.get("version") != 1:
        raise Malformed("not a verify-perceptron certificate of version 1")
    coordinates = field(cert, "coordinates", str, "certificate")
    if coordinates not in CONVENTIONS:
        raise Malformed(f"coordinates={coordinates!r} is no convention")
    first, bias_input, _, _ = CONVENTIONS[coordinates]
    if cert.get("bias") != {"position": "first" if first else "last", "input": bias_input}:
        raise Malformed(f"bias={cert.get('bias')!r} is not {coordinates}'s")
    result = Audit()
    L, rows = load_data(cert, data_path, result)
    # L·x~_i: the bias input (±1, first or last) scaled by L beside the numerators
    samples = [(r[0], [bias_input * L, *r[1:]] if first else [*r[1:], bias_input * L]) for r in rows]
    verified = []
    for i, s in enumerate(field(cert, "separators", list, "certificate")):
        name = field(s, "name", str, f"separators[{i}]")
        ok, w = check_separator(s, f"separator {name}", samples, L, first, result)
        verified += [(name, s, w)] if ok else []
    gordan = cert.get("gordan")
    not_separable = gordan is not None and check_gordan(gordan, samples, result)
    separable = field(cert, "separable", (bool, type(None)), "certificate")
    if separable is not None:
        proof = "a separator with margin γ > 0" if separable else "Gordan's λ"
        result.state(bool(verified) if separable else not_separable, f"verdict: the data are "
                     f"{'' if separable else 'not '}separable, proved by {proof} above")
    if cert.get("run") is not None:
        check_run(cert["run"], verified, samples, L, coordinates, result)
    return result


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (1, 2) or argv[0].startswith("-"):
        print("usage: python -m verify_perceptron.audit CERT [DATA]", file=sys.stderr)
        return 2
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # this process reads certificates' long integers, nothing else
    try:
        with open(argv[0], encoding="utf-8") as handle:
            result = audit(json.load(handle), argv[1] if len(argv) == 2 else None)
    except Exception as error:  # whatever the file holds, one line: a malformed certificate is never a traceback
        print(f"audit: {argv[0]}: malformed or unreadable: {error}".replace("\n", " "), file=sys.stderr)
        return 2
    total = len(result.lines)
    print("\n".join(result.lines + [f"{total - result.failed} of {total} statements hold"
                                     + ("" if result.failed else ": the certificate checks")]))
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())

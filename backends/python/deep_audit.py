"""Audit of the deep tree's expected values against onnx's reference evaluator.

Run by `cargo xtask deep-audit` with the venv of `cargo xtask backends setup reference`
(docs/deep.md, "Auditing the expected values"). Every element of every case is compared bit for
bit with what onnx.reference.ReferenceEvaluator (numpy and ml_dtypes underneath) gives for the
case's model and inputs. A difference must be explained by a rule of docs/semantics.md, and each
rule verifies its explanation element by element: it recomputes the reference's value from the
input the way the rule says the reference works (with the reference's own functions or
ml_dtypes), and our value from the input the way docs/semantics.md says it must be (with the
exact encoder below, written from §3.3 and §3.7, not from the kernels). A difference that no
rule verifies is unexplained and fails the audit.

Usage: deep_audit.py --tree DIR [--json OUT] [--workers N] [--strict-encoding]
       deep_audit.py --self-test --tree DIR --scratch DIR
"""

import argparse
import json
import math
import os
import shutil
import sys
import time
import traceback
import warnings
from fractions import Fraction

import ml_dtypes
import numpy as np
import onnx
from onnx import numpy_helper
from onnx.reference import ReferenceEvaluator
from onnx.reference.ops.op_cast import cast_to

TP = onnx.TensorProto
# numpy warns on NaN and out-of-range casts; the reference's results are what is audited.
warnings.filterwarnings("ignore", category=RuntimeWarning)

# name -> (code, bits); every type the deep tree uses.
TYPES = {
    "FLOAT": (TP.FLOAT, 32), "UINT8": (TP.UINT8, 8), "INT8": (TP.INT8, 8),
    "UINT16": (TP.UINT16, 16), "INT16": (TP.INT16, 16), "INT32": (TP.INT32, 32),
    "INT64": (TP.INT64, 64), "STRING": (TP.STRING, 0), "BOOL": (TP.BOOL, 8),
    "FLOAT16": (TP.FLOAT16, 16), "DOUBLE": (TP.DOUBLE, 64), "UINT32": (TP.UINT32, 32),
    "UINT64": (TP.UINT64, 64), "BFLOAT16": (TP.BFLOAT16, 16),
    "FLOAT8E4M3FN": (TP.FLOAT8E4M3FN, 8), "FLOAT8E4M3FNUZ": (TP.FLOAT8E4M3FNUZ, 8),
    "FLOAT8E5M2": (TP.FLOAT8E5M2, 8), "FLOAT8E5M2FNUZ": (TP.FLOAT8E5M2FNUZ, 8),
    "UINT4": (TP.UINT4, 4), "INT4": (TP.INT4, 4), "FLOAT4E2M1": (TP.FLOAT4E2M1, 4),
    "FLOAT8E8M0": (TP.FLOAT8E8M0, 8), "UINT2": (TP.UINT2, 2), "INT2": (TP.INT2, 2),
    "COMPLEX64": (TP.COMPLEX64, 64), "COMPLEX128": (TP.COMPLEX128, 128),
    "FLOAT6E2M3": (TP.FLOAT6E2M3, 6), "FLOAT6E3M2": (TP.FLOAT6E3M2, 6),
}
NAME_OF = {code: name for name, (code, _) in TYPES.items()}
# Types whose NaNs all match (any NaN matches any NaN); the small formats compare NaN codes.
NAN_ANY = {"FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16"}
IEEE = {"FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16"}
FLOAT8 = {"FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ"}
FLOAT6 = {"FLOAT6E2M3", "FLOAT6E3M2"}
FLOATING = IEEE | FLOAT8 | FLOAT6 | {"FLOAT4E2M1", "FLOAT8E8M0"}
SMALL_INT = {"INT4": (4, True), "UINT4": (4, False), "INT2": (2, True), "UINT2": (2, False)}
INTS = {"UINT8": (8, False), "INT8": (8, True), "UINT16": (16, False), "INT16": (16, True),
        "UINT32": (32, False), "INT32": (32, True), "UINT64": (64, False), "INT64": (64, True),
        **SMALL_INT}

# Sign/exponent/mantissa formats of docs/semantics.md §3.1: (E, M, bias, emin, emax, rmax).
FMT = {
    "FLOAT": (8, 23, 127, -126, 127, (1 << 24) - 1),
    "FLOAT16": (5, 10, 15, -14, 15, 2047),
    "BFLOAT16": (8, 7, 127, -126, 127, 255),
    "FLOAT8E4M3FN": (4, 3, 7, -6, 8, 14),
    "FLOAT8E4M3FNUZ": (4, 3, 8, -7, 7, 15),
    "FLOAT8E5M2": (5, 2, 15, -14, 15, 7),
    "FLOAT8E5M2FNUZ": (5, 2, 16, -15, 15, 7),
    "FLOAT4E2M1": (2, 1, 1, 0, 2, 3),
    "FLOAT6E2M3": (2, 3, 1, 0, 2, 15),
    "FLOAT6E3M2": (3, 2, 3, -2, 4, 7),
}


# ------------------------------------------------------------------------------------------
# Bits and values


def bits_of(arr, name):
    """The elements' bit patterns as a flat uint64 array (strings: a list of str)."""
    flat = np.asarray(arr).reshape(-1)
    if name == "STRING":
        return [v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in flat]
    if name in SMALL_INT or name == "FLOAT4E2M1" or name in FLOAT6:
        width = TYPES[name][1]
        return flat.view(np.uint8).astype(np.uint64) & ((1 << width) - 1)
    if name == "BOOL":
        return flat.astype(np.uint64)
    size = flat.dtype.itemsize
    if size == 16:
        pairs = flat.view(np.uint64).reshape(-1, 2)
        return np.array([int(lo) | (int(hi) << 64) for lo, hi in pairs], dtype=object)
    return flat.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size]).astype(
        np.uint64)


def is_nan_bits(bits, name):
    """Whether each code is a NaN of an IEEE type (bits: uint64 array)."""
    e, m = (11, 52) if name == "DOUBLE" else FMT[name][:2]
    exp_mask = ((1 << e) - 1) << m
    return ((bits & np.uint64(exp_mask)) == np.uint64(exp_mask)) & (
        (bits & np.uint64((1 << m) - 1)) != 0)


def value_of(x, name):
    """The exact value of one source element: ("nan", sign), ("inf", sign) or ("fin", sign,
    Fraction of the magnitude); strings are parsed as docs/semantics.md §3.9 says."""
    if name == "STRING":
        s = x.decode() if isinstance(x, bytes) else str(x)
        t = s.strip()
        low = t.lower()
        sign = 1 if low.startswith("-") else 0
        body = low.lstrip("+-")
        if body == "nan":
            return ("nan", sign)
        if body in ("inf", "infinity"):
            return ("inf", sign)
        f = Fraction(body)
        return ("fin", sign, f)
    if name == "BOOL":
        return ("fin", 0, Fraction(int(bool(x))))
    if name in INTS:
        v = int(x)
        return ("fin", 1 if v < 0 else 0, Fraction(abs(v)))
    f = float(x)
    if math.isnan(f):
        return ("nan", 1 if math.copysign(1.0, f) < 0 else 0)
    sign = 1 if math.copysign(1.0, f) < 0 else 0
    if math.isinf(f):
        return ("inf", sign)
    return ("fin", sign, Fraction(abs(f)))


def value_text(v):
    if v[0] != "fin":
        return ("-" if v[1] else "") + v[0]
    return ("-" if v[1] else "") + repr(float(v[2]))


def encode(v, fmt, saturate, version, trunc=False):
    """Code of value v in format fmt by docs/semantics.md §3.3: one rounding from the exact
    value (ties to even; toward zero when trunc), then overflow by the format's rule."""
    E, M, bias, emin, emax, rmax = FMT[fmt]
    width = 1 + E + M
    sbit = 1 << (width - 1)
    fnuz = fmt.endswith("FNUZ")
    kind, sign = v[0], v[1]
    if kind == "nan":
        if fmt in IEEE:
            return (sign * sbit) | (((1 << E) - 1) << M) | (1 << (M - 1))
        if fnuz:
            return 0x80
        if fmt == "FLOAT8E4M3FN":
            return 0x7F | (sign << 7)
        if fmt == "FLOAT8E5M2":
            return (0x7F if version <= 23 else 0x7E) | (sign << 7)
        if fmt == "FLOAT4E2M1":
            return 0x7 if version <= 23 else (0x0 if sign else 0x8)
        if fmt in FLOAT6:
            # §3.12: +NaN -> 0x20 (-0), -NaN -> 0x00, the reference's (ml_dtypes) codes.
            return 0x0 if sign else 0x20
    if kind == "fin":
        a = v[2]
        if a == 0:
            return 0 if fnuz else sign * sbit
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        ep = max(e, emin)
        q = ep - M
        r_exact = a / (Fraction(2) ** q)
        r = r_exact.numerator // r_exact.denominator
        rem = r_exact - r
        if not trunc and (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and r % 2 == 1)):
            r += 1
        if r == 1 << (M + 1):
            r = 1 << M
            ep += 1
        if r == 0:
            return 0 if fnuz else sign * sbit
        overflow = ep > emax or (ep == emax and r > rmax)
        if not overflow:
            if r >= 1 << M:
                code = ((ep + bias) << M) | (r - (1 << M))
            else:
                code = r
            if fnuz and code == 0:
                return 0
            return code | (sign * sbit)
    # Overflow, infinities included (§3.3 step 6).
    if fmt in IEEE:
        if trunc and kind == "fin":  # truncation never reaches Inf from a finite value
            return (sign * sbit) | ((((1 << E) - 2) << M) | ((1 << M) - 1))
        return (sign * sbit) | (((1 << E) - 1) << M)
    maxcode = {"FLOAT8E4M3FN": 0x7E, "FLOAT8E4M3FNUZ": 0x7F, "FLOAT8E5M2": 0x7B,
               "FLOAT8E5M2FNUZ": 0x7F, "FLOAT4E2M1": 0x7, "FLOAT6E2M3": 0x1F,
               "FLOAT6E3M2": 0x1F}[fmt]
    if fmt == "FLOAT4E2M1" or fmt in FLOAT6:
        # These saturate whatever `saturate` says (§3.3 step 6, §3.12).
        return maxcode | (sign << (width - 1))
    if fnuz and kind == "inf" and version <= 23 and not saturate:
        return 0x80
    if saturate:
        return maxcode | (sign << 7)
    if fmt == "FLOAT8E5M2":
        return 0x7C | (sign << 7)
    if fnuz:
        return 0x80
    return 0x7F | (sign << 7)


def e8m0_page(v, saturate, mode):
    """FLOAT8E8M0 by docs/semantics.md §3.7 steps 2 to 6, from value v (its step 1, the
    rounding to FLOAT, is the caller's)."""
    if v[0] == "nan":
        return 0xFF
    if v[0] == "inf":
        return 0xFE if saturate else 0xFF
    a = v[2]
    if a > Fraction(2) ** 127:
        return 0xFE if saturate else 0xFF
    if a < Fraction(1, 2 ** 127):
        return 0x00 if saturate else 0xFF
    k = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** k > a:
        k -= 1
    code = k + 127
    p = Fraction(2) ** k
    if mode == "up" and a != p:
        code += 1
    elif mode == "nearest" and a >= p * Fraction(3, 2):
        code += 1
    return min(code, 0xFE)


def to_f32(v):
    """v rounded once to FLOAT (§3.3), as a value."""
    return decode_value(encode(v, "FLOAT", True, 99), "FLOAT")


def decode_value(code, fmt):
    E, M, bias, emin, *_ = FMT[fmt]
    width = 1 + E + M
    sign = (code >> (width - 1)) & 1
    f = (code >> M) & ((1 << E) - 1)
    m = code & ((1 << M) - 1)
    if f == (1 << E) - 1 and fmt in IEEE:
        return ("nan", sign) if m else ("inf", sign)
    if f == 0:
        return ("fin", sign, Fraction(2) ** emin * Fraction(m, 1 << M))
    return ("fin", sign, Fraction(2) ** (f - bias) * (1 + Fraction(m, 1 << M)))


def decoded(b, name):
    """One element's code, decoded for people."""
    if name == "STRING":
        return repr(b)
    b = int(b)
    if name == "BOOL":
        return str(bool(b))
    if name in INTS:
        width, signed = INTS[name]
        return str(b - (1 << width) if signed and b >> (width - 1) else b)
    if name == "DOUBLE":
        return repr(np.uint64(b).view(np.float64).item())
    if name == "FLOAT8E8M0":
        return "NaN" if b == 0xFF else f"2^{b - 127}"
    v = decode_value(b, name)
    if fmt_nan(b, name):
        return "NaN"
    return value_text(v)


def fmt_nan(b, name):
    if name in ("FLOAT8E4M3FN",):
        return b & 0x7F == 0x7F
    if name in ("FLOAT8E4M3FNUZ", "FLOAT8E5M2FNUZ"):
        return b == 0x80
    if name == "FLOAT8E5M2":
        return b & 0x7F > 0x7C
    return False


def hexbits(b, name):
    if name == "STRING":
        return repr(b)
    width = TYPES[name][1]
    return f"0x{int(b):0{max(1, (width + 3) // 4)}X}"


def source_text(x, name):
    if name == "STRING":
        return repr(x.decode() if isinstance(x, bytes) else str(x))
    if name == "BOOL":
        return str(bool(x))
    if name in INTS:
        return str(int(x))
    arr = np.asarray([x], dtype=x.dtype if hasattr(x, "dtype") else None)
    return f"{hexbits(bits_of(arr, name)[0], name)} ({value_text(value_of(x, name))})"


# ------------------------------------------------------------------------------------------
# The rules. Each takes the element's context and returns whether it verifies the difference.


class Ctx:
    """One differing element."""

    def __init__(self, case, frm, to, x, ours, ref):
        self.case = case
        self.op = case["op"]
        self.version = case["version"]
        self.frm, self.to = frm, to
        attrs = dict(a.split("=", 1) for a in case.get("attributes", []))
        self.saturate = attrs.get("saturate", "1") == "1"
        self.round_mode = attrs.get("round_mode", "up").strip('"')
        self.x, self.ours, self.ref = x, ours, ref
        self.as_cast = bool(case.get("_as_cast"))
        self.v = value_of(x, frm) if x is not None else None

    def ref_cast(self, arr, to=None):
        """The reference's own cast function (onnx.reference.ops.op_cast.cast_to) on arr,
        with the case's attributes (CastLike: without round_mode, as the reference's CastLike
        passes none)."""
        mode = self.round_mode if self.op == "Cast" or self.as_cast else "up"
        sat = self.saturate if self.version >= 19 else True
        out = cast_to(arr, TYPES[to or self.to][0], sat, mode)
        return bits_of(out, to or self.to)[0]

    def ours_exact(self, v, trunc_bf16=None):
        """Our value by docs/semantics.md from value v (rounded once)."""
        to = self.to
        if to == "FLOAT8E8M0":
            return e8m0_page(v, self.saturate, self.round_mode)
        if to in FMT:
            trunc = to == "BFLOAT16" and self.version <= 23 if trunc_bf16 is None else trunc_bf16
            return encode(v, to, self.saturate, self.version, trunc=trunc)
        return None


def f32_array(v):
    code = encode(v, "FLOAT", True, 99)
    return np.array([code], dtype=np.uint32).view(np.float32)


def rule_round_through_float32(c):
    """The reference rounds a DOUBLE, 64-bit (or 32-bit) integer or STRING source to FLOAT
    first and then rounds again into the target; we round once from the exact value."""
    if c.frm not in ("DOUBLE", "INT64", "UINT64", "INT32", "UINT32", "STRING"):
        return False
    if c.to not in FMT and c.to != "FLOAT8E8M0" or c.to == "FLOAT" or c.v is None:
        return False
    if c.v[0] != "fin" or (c.to == "BFLOAT16" and c.version <= 23):
        return False  # BFLOAT16 at <= 23: bfloat16-truncation-le23
    once = c.ours_exact(c.v)
    via = c.ours_exact(to_f32(c.v))
    if once == via or c.ours != once:
        return False
    if c.to == "FLOAT8E8M0":
        # The reference's E8M0 departs from the page (§3.7) too: its own function, from FLOAT.
        return c.ref == c.ref_cast(f32_array(c.v)) and c.ref == via
    # The reference's value is its own cast of the FLOAT value, and that is one rounding of
    # the FLOAT value by §3.3 (with ml_dtypes's NaN codes, those of version 24).
    f = to_f32(c.v)
    return c.ref == c.ref_cast(f32_array(c.v)) and (
        f[0] != "fin" or c.ref == encode(f, c.to, c.saturate, 24))


def rule_e8m0_reference(c):
    """FLOAT8E8M0: the reference's to_float8e8m0 tests the FLOAT exponent field in its own
    order and departs from the page's table (§3.7: ±Inf, zero, subnormals, above the max
    without saturation)."""
    if c.to != "FLOAT8E8M0" or c.v is None:
        return False
    f = f32_array(c.v) if c.v[0] == "fin" else np.array(
        [{"nan": np.nan, "inf": np.inf}[c.v[0]] * (-1 if c.v[1] else 1)], dtype=np.float32)
    ours_ok = c.ours in (e8m0_page(c.v, c.saturate, c.round_mode),
                         e8m0_page(value_of(f[0], "FLOAT"), c.saturate, c.round_mode))
    return ours_ok and c.ref == c.ref_cast(f)


def rule_bf16_truncation(c):
    """BFLOAT16 at versions 23 and earlier: we truncate (the official data does, §3.2); the
    reference rounds half to even. A DOUBLE, integer or STRING source may be truncated from
    its value or from its FLOAT rounding (which we do today; §3.2 speaks of FLOAT only), and
    the reference may round from either."""
    if c.to != "BFLOAT16" or c.version > 23 or c.v is None:
        return False
    ours_ok = c.ours in (encode(c.v, "BFLOAT16", True, c.version, trunc=True),
                         encode(to_f32(c.v), "BFLOAT16", True, c.version, trunc=True)
                         if c.v[0] == "fin" else None)
    ref_ok = c.ref in (encode(c.v, "BFLOAT16", True, 99),
                       encode(to_f32(c.v), "BFLOAT16", True, 99) if c.v[0] == "fin" else None)
    return ours_ok and ref_ok


def rule_nan_codes_le23(c):
    """NaN at versions 23 and earlier: our codes are the data's of those opsets (FLOAT4E2M1
    0x7, E5M2 0x7F/0xFF, a decoded FNUZ NaN positive); the reference uses ml_dtypes's at every
    version, the codes of 24 and later (0x8/0x0, 0x7E/0xFE, a decoded FNUZ NaN negative).
    Not for a cast to the same type, which the reference returns unchanged."""
    if c.v is None or c.v[0] != "nan" or c.version > 23 or c.frm == c.to:
        return False
    if c.to not in FMT:
        return False
    fnuz = c.frm.endswith("FNUZ")
    ours = encode(("nan", 0 if fnuz else c.v[1]), c.to, c.saturate, c.version)
    ref = encode(("nan", 1 if fnuz else c.v[1]), c.to, c.saturate, 24)
    return c.ours == ours and c.ref == ref


def rule_string_to_bool(c):
    """STRING into BOOL: we read the text as a number (§3.9, §3.10: true when nonzero); the
    reference's numpy takes any non-empty string as true ("0" is true)."""
    if c.frm != "STRING" or c.to != "BOOL" or c.v is None or c.v[0] != "fin":
        return False
    text = c.x.decode() if isinstance(c.x, bytes) else str(c.x)
    return c.ours == int(c.v[2] != 0) and c.ref == int(len(text) > 0)


def rule_small_int_fraction(c):
    """Floating sources into INT4/UINT4/INT2/UINT2: we round half to even (§3.8, the
    technical notes); the reference (ml_dtypes) drops the fraction toward zero."""
    if c.to not in SMALL_INT or c.frm not in FLOATING or c.v is None or c.v[0] != "fin":
        return False
    width, signed = SMALL_INT[c.to]
    a = c.v[2]
    t = a.numerator // a.denominator
    rem = a - t
    n = t + (1 if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and t % 2) else 0)
    sign = -1 if c.v[1] else 1
    mask = (1 << width) - 1
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, mask)
    rne = sign * n
    ours = (min(max(rne, lo), hi) if c.version <= 23 else rne) & mask
    return c.ours == ours and c.ref == (sign * t) & mask and rem != 0


def reads_back(text, c):
    """Whether text reads back as the source value (in the source's precision)."""
    try:
        v = value_of(text, "STRING")
    except (ValueError, ZeroDivisionError):
        return False
    if c.frm in FMT:
        return v[0] == "fin" and encode(v, c.frm, True, 99) == encode(c.v, c.frm, True, 99)
    if c.frm == "DOUBLE":
        return v[0] == "fin" and float(v[2]) * (-1 if v[1] else 1) == float(c.x)
    return v == c.v


def rule_string_spelling(c):
    """Into STRING: both texts read back as the source value; only the spelling differs
    (§3.9, §3.11: the text of such values is the shortest decimal, positional)."""
    return c.to == "STRING" and c.v is not None and reads_back(c.ours, c) and reads_back(
        c.ref, c)


def rule_same_type_identity(c):
    """A cast to the same type: we return the input bit for bit (§3.10); the reference, under
    saturate=1, re-encodes the value through its saturating cast, so FLOAT8E5M2 ±Inf becomes
    ±max and a NaN takes the canonical code."""
    if c.frm != c.to or c.to not in FMT or c.x is None or c.v is None or not c.saturate:
        return False
    if c.ours != int(bits_of(np.asarray([c.x]), c.frm)[0]):
        return False
    return c.ref == encode(c.v, c.to, True, 24)


RULES = [
    ("same-type-identity", "§3.10", rule_same_type_identity),
    ("round-through-float32", "§3.3, §8.11", rule_round_through_float32),
    ("e8m0-reference-order", "§3.7, §8.5", rule_e8m0_reference),
    ("bfloat16-truncation-le23", "§3.2, §8.4, §8.11", rule_bf16_truncation),
    ("nan-code-le23", "§3.2, §8.2", rule_nan_codes_le23),
    ("small-int-fraction", "§3.8, §8.3", rule_small_int_fraction),
    ("string-spelling", "§3.9, §3.11", rule_string_spelling),
    ("string-to-bool", "§3.9, §3.10", rule_string_to_bool),
]
# Counted like a rule: CastLike cases with round_mode, which the reference's CastLike rejects,
# are checked as the Cast the CastLike page defines (§2.2).
CASTLIKE_AS_CAST = ("castlike-round-mode-as-cast", "§2.2, §8.6")
# Cast-1 names its target by a string (`to="FLOAT"`), which the reference's Cast_1 cannot look
# up; the same model with the type's code is what the Cast-1 page means (§2.1).
CAST1_AS_CODE = ("cast1-to-name-as-code", "§2.1")
# Concat-1's axis is optional with default 1 (§2.3); the reference requires it.
CONCAT1_AXIS = ("concat1-default-axis", "§2.3")
REWRITES = [CASTLIKE_AS_CAST, CAST1_AS_CODE, CONCAT1_AXIS]


def undefined_inputs(src, frm, to):
    """Indices of source elements whose cast to `to` the spec leaves undefined (§3.11):
    NaN, ±Inf and out-of-range values from a floating type into an integer type (for the 4-
    and 2-bit types the value rounded half to even, §3.8, otherwise truncated), and negative
    values, -0 and -Inf into FLOAT8E8M0 (NaN is defined)."""
    if frm not in FLOATING and not (to == "FLOAT8E8M0" and frm in INTS):
        return []
    if frm in INTS:
        if not INTS[frm][1]:
            return []
        return np.nonzero(src.astype(np.int64) < 0)[0].tolist()
    x = src.astype(np.float64)
    if to == "FLOAT8E8M0":
        return np.nonzero(np.signbit(x) & ~np.isnan(x))[0].tolist()
    if to not in INTS:
        return []
    width, signed = INTS[to]
    lo, hi = (-(2.0 ** (width - 1)), 2.0 ** (width - 1)) if signed else (0.0, 2.0 ** width)
    with np.errstate(invalid="ignore"):
        n = np.round(x) if to in SMALL_INT else np.trunc(x)
        bad = ~np.isfinite(x) | (n < lo) | (n >= hi)
    return np.nonzero(bad)[0].tolist()


def undefined_note(frm, to):
    return (f"undefined input the generator must not write: {frm} into {to} outside what the "
            f"spec defines (§3.11)")


def note(c):
    """A remark for an unexplained element, for the known open items (none today)."""
    del c
    return None


# ------------------------------------------------------------------------------------------
# One case


def load_tensor(path):
    t = TP()
    with open(path, "rb") as f:
        b = f.read()
    t.ParseFromString(b)
    return t, b


def castlike_as_cast(model):
    """The model with each CastLike node replaced by the Cast the page defines (§2.2)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    types = {v.name: v.type.tensor_type.elem_type for v in
             list(m.graph.input) + list(m.graph.output) + list(m.graph.value_info)}
    for init in m.graph.initializer:
        types[init.name] = init.data_type
    for node in m.graph.node:
        if node.op_type == "CastLike":
            to = types[node.input[1]]
            attrs = [a for a in node.attribute]
            del node.input[1:]
            node.op_type = "Cast"
            del node.attribute[:]
            node.attribute.extend(attrs)
            node.attribute.append(onnx.helper.make_attribute("to", to))
    return m


def rewritten(model, case):
    """A model the reference can run for a case it refuses, when the operator page makes the
    two the same: (line name, model) or None."""
    if any(n.op_type == "CastLike" and any(a.name == "round_mode" for a in n.attribute)
           for n in model.graph.node):
        return CASTLIKE_AS_CAST[0], castlike_as_cast(model)
    if case["op"] == "Cast" and case["version"] == 1:
        m = onnx.ModelProto()
        m.CopyFrom(model)
        for node in m.graph.node:
            for a in node.attribute:
                if (node.op_type == "Cast" and a.name == "to"
                        and a.type == onnx.AttributeProto.STRING):
                    code = TYPES[a.s.decode()][0]
                    a.type = onnx.AttributeProto.INT
                    a.ClearField("s")
                    a.i = code
        return CAST1_AS_CODE[0], m
    if case["op"] == "Concat" and case["version"] == 1:
        m = onnx.ModelProto()
        m.CopyFrom(model)
        for node in m.graph.node:
            if node.op_type == "Concat" and not any(a.name == "axis" for a in node.attribute):
                node.attribute.append(onnx.helper.make_attribute("axis", 1))
        return CONCAT1_AXIS[0], m
    return None


def source_values(model, feeds, case):
    """The first node's data input (flattened), from a graph input, an initializer or a
    Constant node."""
    graph = model.graph
    first = next((n for n in graph.node if n.op_type != "Constant"), None)
    if first is None or not first.input:
        return None
    name = first.input[0]
    if name in feeds:
        return feeds[name]
    for init in graph.initializer:
        if init.name == name:
            return numpy_helper.to_array(init)
    for node in graph.node:
        if node.op_type == "Constant" and name in node.output:
            for a in node.attribute:
                if a.name == "value":
                    return numpy_helper.to_array(a.t)
    return None


def error_text(e):
    """The innermost exception's type and first line (the evaluator wraps the operator's)."""
    while e.__cause__ is not None:
        e = e.__cause__
    first = (str(e).strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: {first}"[:200]


def audit_case(args):
    """One case's counts; a case the audit itself cannot read is one unexplained entry."""
    try:
        return audit_one(args)
    except Exception as e:  # noqa: BLE001
        case = args[1]
        return {"case": case["case"], "elements": 0, "agree": 0, "explained": {},
                "unexplained": [{"case": case["case"], "index": None, "output": None,
                                 "message": f"audit error: {type(e).__name__}: {e}"}],
                "unexplained_count": 1, "no_oracle": None, "encoding": [], "examples": {}}


def audit_one(args):
    tree, case = args
    out = {"case": case["case"], "elements": 0, "agree": 0, "explained": {},
           "unexplained": [], "unexplained_count": 0, "no_oracle": None, "encoding": [],
           "examples": {}}
    d = os.path.join(tree, "cases", case["case"])
    check_encoding = not case.get("shape", "").startswith("encoding-")
    with open(os.path.join(d, "model.onnx"), "rb") as f:
        mb = f.read()
    model = onnx.load_model_from_string(mb)
    if check_encoding and model.SerializeToString() != mb:
        out["encoding"].append("model.onnx")
    ds = os.path.join(d, "test_data_set_0")
    feeds, expected = {}, []
    names_in = [i.name for i in model.graph.input]
    k = 0
    while os.path.exists(os.path.join(ds, f"input_{k}.pb")):
        t, b = load_tensor(os.path.join(ds, f"input_{k}.pb"))
        if check_encoding and t.SerializeToString() != b:
            out["encoding"].append(f"test_data_set_0/input_{k}.pb")
        feeds[t.name or names_in[k]] = numpy_helper.to_array(t)
        k += 1
    k = 0
    while os.path.exists(os.path.join(ds, f"output_{k}.pb")):
        t, b = load_tensor(os.path.join(ds, f"output_{k}.pb"))
        if check_encoding and t.SerializeToString() != b:
            out["encoding"].append(f"test_data_set_0/output_{k}.pb")
        expected.append(t)
        k += 1
    how = None
    try:
        got = ReferenceEvaluator(model).run(None, feeds)
    except Exception as e:  # noqa: BLE001 - any refusal is a pair without an oracle
        first = error_text(e)
        got = None
        rewrite = rewritten(model, case)
        if rewrite is not None:
            how, fixed = rewrite
            try:
                got = ReferenceEvaluator(fixed).run(None, feeds)
                case = dict(case, _as_cast=how == CASTLIKE_AS_CAST[0])
            except Exception as e2:  # noqa: BLE001
                first = error_text(e2)
                got, how = None, None
        if got is None:
            n = sum(int(np.prod(t.dims)) if t.dims else 1 for t in expected)
            out["no_oracle"] = {"error": first, "elements": n}
            out["elements"] = n
            return out
    src = source_values(model, feeds, case)
    mid = case.get("shape", "")
    chain_mid = mid[len("chain-through-"):] if mid.startswith("chain-through-") else None
    for j, (t, r) in enumerate(zip(expected, got)):
        to = NAME_OF[t.data_type]
        e_arr = numpy_helper.to_array(t)
        eb = bits_of(e_arr, to)
        try:
            r_arr = np.asarray(r)
            if to != "STRING" and r_arr.dtype != e_arr.dtype:
                raise TypeError(f"reference gave dtype {r_arr.dtype}, expected {e_arr.dtype}")
            if r_arr.shape != e_arr.shape:
                raise TypeError(f"reference gave shape {r_arr.shape}, expected {e_arr.shape}")
            rb = bits_of(r_arr, to)
        except TypeError as err:
            out["elements"] += len(eb)
            out["unexplained_count"] += len(eb)
            out["unexplained"].append({"case": case["case"], "output": j, "index": None,
                                       "message": str(err)})
            continue
        n = len(eb)
        out["elements"] += n
        if to == "STRING":
            diff = [i for i in range(n) if eb[i] != rb[i]]
        else:
            neq = eb != rb
            if to in NAN_ANY:
                neq &= ~(is_nan_bits(eb, to) & is_nan_bits(rb, to))
            diff = np.nonzero(neq)[0].tolist()
        flat_src = None if src is None else np.asarray(src).reshape(-1)
        # Inputs whose result the spec leaves undefined are never written (§3.11): such an
        # element is unexplained whatever the two answers, so that the generator is fixed.
        undefined = []
        if (chain_mid is None and case["op"] != "Concat" and flat_src is not None
                and len(flat_src) == n):
            undefined = undefined_inputs(flat_src, case["from"], to)
        if undefined:
            bad = set(undefined)
            for i in undefined:
                out["unexplained_count"] += 1
                why = undefined_note(case["from"], to)
                if len(out["unexplained"]) < 20:
                    ex = example(case, i, flat_src[i], case["from"], to, eb[i], rb[i])
                    ex["output"] = j
                    ex["note"] = why
                    out["unexplained"].append(ex)
                else:
                    out.setdefault("noted", {})
                    out["noted"][why] = out["noted"].get(why, 0) + 1
            diff = [i for i in diff if i not in bad]
        out["agree"] += n - len(undefined) - len(diff)
        if not diff:
            continue
        for i in diff:
            x = None
            frm = case["from"]
            if case["op"] != "Concat" and flat_src is not None and len(flat_src) == n:
                x = flat_src[i]
            ours, ref = eb[i], rb[i]
            ours_i = ours if to == "STRING" else int(ours)
            ref_i = ref if to == "STRING" else int(ref)
            rule = None
            c = None
            if x is not None:
                try:
                    if chain_mid is not None:
                        # The second node widens exactly, so the first decides: judge the
                        # pair (from, middle) on the codes narrowed back.
                        back = lambda b: bits_of(  # noqa: E731
                            cast_to(np.asarray([b], dtype=np.uint64).view(np.float64)
                                    if to == "DOUBLE" else
                                    np.asarray([b], dtype=np.uint32).view(np.float32),
                                    TYPES[chain_mid][0], True), chain_mid)[0]
                        c = Ctx(case, frm, chain_mid, x, int(back(ours_i)), int(back(ref_i)))
                    else:
                        c = Ctx(case, frm, to, x, ours_i, ref_i)
                    for name, _, pred in RULES:
                        if pred(c):
                            rule = name
                            break
                except Exception:  # noqa: BLE001 - a rule that cannot decide does not explain
                    rule = None
            if rule is not None:
                out["explained"][rule] = out["explained"].get(rule, 0) + 1
                if rule not in out["examples"]:
                    out["examples"][rule] = example(case, i, x, frm, to, ours, ref)
                continue
            out["unexplained_count"] += 1
            if len(out["unexplained"]) < 20:
                ex = example(case, i, x, frm, to, ours, ref)
                ex["output"] = j
                if c is not None and note(c):
                    ex["note"] = note(c)
                out["unexplained"].append(ex)
            elif c is not None and note(c):
                out.setdefault("noted", {})
                key = note(c)
                out["noted"][key] = out["noted"].get(key, 0) + 1
    if how is not None:
        out["explained_case"] = how
    return out


def example(case, i, x, frm, to, ours, ref):
    cls = next((r["class"] for r in case.get("classes", []) if r["start"] <= i < r["end"]),
               None)
    return {
        "case": case["case"], "index": int(i), "class": cls,
        "input": None if x is None else source_text(x, frm),
        "ours": f"{hexbits(ours, to)} ({decoded(ours, to)})",
        "reference": f"{hexbits(ref, to)} ({decoded(ref, to)})",
    }


# ------------------------------------------------------------------------------------------
# The tree


def audit(tree, workers, only=None):
    with open(os.path.join(tree, "index.json")) as f:
        index = json.load(f)
    cases = index["cases"]
    if only is not None:
        unknown = sorted(set(only) - {c["case"] for c in cases})
        if unknown:
            raise SystemExit(f"deep-audit: no such case in {tree}: {', '.join(unknown)}")
        cases = [c for c in cases if c["case"] in only]
    jobs = [(tree, c) for c in cases]
    start = time.time()
    if workers > 1:
        import multiprocessing
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(audit_case, jobs, chunksize=16)
    else:
        results = [audit_case(j) for j in jobs]
    summary = {
        "tree": os.path.abspath(tree), "onnx": onnx.__version__,
        "ml_dtypes": ml_dtypes.__version__, "numpy": np.__version__,
        "cases": len(cases), "elements": 0, "agree": 0, "explained": 0, "no_oracle": 0,
        "unexplained": 0, "rules": [], "no_oracle_pairs": [], "unexplained_examples": [],
        "unexplained_notes": {}, "encoding_differs": [], "seconds": 0.0,
    }
    rules = {name: {"rule": name, "section": sec, "elements": 0, "example": None}
             for name, sec, _ in RULES}
    for name, sec in REWRITES:
        rules[name] = {"rule": name, "section": sec, "elements": 0, "cases": 0,
                       "example": None}
    no_oracle = {}
    by_case = {c["case"]: c for c in cases}
    for r in results:
        summary["elements"] += r["elements"]
        summary["agree"] += r["agree"]
        for name, n in r["explained"].items():
            summary["explained"] += n
            rules[name]["elements"] += n
            if rules[name]["example"] is None:
                rules[name]["example"] = r["examples"][name]
        if r.get("explained_case"):
            rc = rules[r["explained_case"]]
            rc["cases"] += 1
            rc["elements"] += r["elements"]
            if rc["example"] is None:
                rc["example"] = {"case": r["case"]}
        summary["unexplained"] += r["unexplained_count"]
        for ex in r["unexplained"]:
            if ex.get("note"):
                summary["unexplained_notes"][ex["note"]] = summary["unexplained_notes"].get(
                    ex["note"], 0) + 1
        for k, n in r.get("noted", {}).items():
            summary["unexplained_notes"][k] = summary["unexplained_notes"].get(k, 0) + n
        summary["unexplained_examples"].extend(r["unexplained"])
        if r["no_oracle"]:
            c = by_case[r["case"]]
            key = (c["op"], c["version"], c["from"], c["to"], r["no_oracle"]["error"])
            e = no_oracle.setdefault(key, {"op": c["op"], "version": c["version"],
                                           "from": c["from"], "to": c["to"],
                                           "error": r["no_oracle"]["error"],
                                           "cases": 0, "elements": 0})
            e["cases"] += 1
            e["elements"] += r["no_oracle"]["elements"]
            summary["no_oracle"] += r["no_oracle"]["elements"]
        for f in r["encoding"]:
            summary["encoding_differs"].append(f"{r['case']}/{f}")
    summary["rules"] = list(rules.values())
    summary["no_oracle_pairs"] = sorted(no_oracle.values(), key=lambda e: (
        e["op"], e["version"], e["from"], e["to"]))
    summary["encoding_files_differ"] = len(summary["encoding_differs"])
    summary["encoding_differs"] = summary["encoding_differs"][:50]
    summary["seconds"] = round(time.time() - start, 1)
    return summary


def print_table(s, out=sys.stdout):
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"deep-audit: {s['tree']} against onnx {s['onnx']} reference evaluator "
      f"(ml_dtypes {s['ml_dtypes']}, numpy {s['numpy']})")
    p("")
    p(f"{'rule':32} {'section':18} {'elements':>10}  example")
    rewrites = {name for name, _ in REWRITES}
    for r in s["rules"]:
        if r["rule"] == REWRITES[0][0]:
            p("models the reference refuses, run in the form the operator page makes equal "
              "(their elements are in the totals as agreeing or explained):")
        ex = r["example"]
        if ex is None:
            text = "-"
        elif r["rule"] in rewrites:
            text = f"{r.get('cases', 0)} cases, e.g. {ex['case']}"
        else:
            text = (f"{ex['case']}[{ex['index']}]: {ex['input']} -> ours {ex['ours']}, "
                    f"reference {ex['reference']}")
        p(f"{r['rule']:32} {r['section']:18} {r['elements']:>10}  {text}")
    p("")
    if s["no_oracle_pairs"]:
        p("no oracle (the reference raises):")
        for e in s["no_oracle_pairs"]:
            p(f"  {e['op']}-{e['version']} {e['from']} -> {e['to']}: {e['cases']} cases, "
              f"{e['elements']} elements: {e['error']}")
        p("")
    p(f"cases {s['cases']}, elements {s['elements']}: agreeing {s['agree']}, explained "
      f"{s['explained']}, no oracle {s['no_oracle']}, unexplained {s['unexplained']}")
    p(f"encoding: {s['encoding_files_differ']} files that onnx re-serializes to other bytes"
      + (f" (first: {s['encoding_differs'][0]})" if s["encoding_differs"] else ""))
    for k, n in s["unexplained_notes"].items():
        p(f"unexplained, known open item: {n} elements: {k}")
    if s["unexplained"]:
        p("first unexplained elements:")
        # Those without a known open item first: they are the ones to look at.
        listed = sorted(s["unexplained_examples"], key=lambda e: bool(e.get("note")))
        for ex in listed[:10]:
            if ex.get("index") is None:
                p(f"  {ex['case']} output {ex.get('output')}: {ex.get('message')}")
            else:
                p(f"  {ex['case']}[{ex['index']}] ({ex.get('class') or 'no class'}): input "
                  f"{ex['input']}: ours {ex['ours']}, "
                  f"reference {ex['reference']}" + ("  [open item]" if ex.get("note")
                                                    else ""))
    p(f"time: {s['seconds']} s")


# ------------------------------------------------------------------------------------------
# Self-test: a planted wrong value must be caught, an untouched tree must pass.

SELF_TEST_CASES = [
    "cast13_FLOAT_to_DOUBLE",                    # agrees everywhere; the planted element
    "cast13_FLOAT_to_BFLOAT16",                  # bfloat16-truncation-le23
    "cast24_DOUBLE_to_FLOAT8E4M3FN_saturate1",  # round-through-float32
    "cast25_FLOAT_to_INT4",                      # small-int-fraction
    "cast24_FLOAT_to_FLOAT8E8M0_saturate0_round_modedown",  # e8m0-reference-order
    "cast23_FLOAT_to_FLOAT4E2M1",                # nan-code-le23
    "castlike24_FLOAT_to_FLOAT8E8M0_saturate0_round_modedown",  # run as Cast
    "cast21_INT4_to_UINT4",                      # no oracle: the reference raises
    "concat13_FLOAT_rank2_axis0_n3",
    "concat13_signed-zeros_FLOAT16_rank1_axis0_n6",  # -0.0 in inputs of unequal sizes
    "concat13_encoding-zero-omitted_FLOAT_rank2_axis0_n2",  # axis=0 without its i
    "cast28_encoding-typed-fields-initializer_FLOAT16_to_FLOAT8E5M2_saturate1",  # int32_data
    "cast28_placed-17_FLOAT_to_FLOAT16",        # one element per class, repeated
]
# Planted wrong values: one element where we agree with the reference (FLOAT -> DOUBLE is
# exact), and, for each of these rules, the element the clean run gives as its example (a wrong
# value where a rule explains the difference must not be explained away).
AGREEING = ("cast13_FLOAT_to_DOUBLE", 5)
PLANTED_RULES = ["bfloat16-truncation-le23", "round-through-float32", "small-int-fraction",
                 "e8m0-reference-order"]


def self_test(tree, scratch):
    with open(os.path.join(tree, "index.json")) as f:
        index = json.load(f)
    names = {c["case"] for c in index["cases"]}
    chosen = [n for n in SELF_TEST_CASES if n in names]
    missing = [n for n in SELF_TEST_CASES if n not in names]
    if missing:
        print(f"self-test: the tree lacks {missing}; chosen by name, update SELF_TEST_CASES",
              file=sys.stderr)
        return 1
    small = os.path.join(scratch, "tree")
    if os.path.exists(small):
        shutil.rmtree(small)
    os.makedirs(os.path.join(small, "cases"))
    for n in chosen:
        shutil.copytree(os.path.join(tree, "cases", n), os.path.join(small, "cases", n))
    sub = dict(index)
    sub["cases"] = [c for c in index["cases"] if c["case"] in chosen]
    with open(os.path.join(small, "index.json"), "w") as f:
        json.dump(sub, f)
    clean = audit(small, 1)
    print_table(clean)
    failures = []
    if clean["unexplained"]:
        failures.append(f"the untouched tree has {clean['unexplained']} unexplained elements")
    plants = [AGREEING]
    for rule in PLANTED_RULES + ["nan-code-le23"]:
        row = next(r for r in clean["rules"] if r["rule"] == rule)
        if not row["elements"]:
            failures.append(f"rule {rule} explained nothing in the self-test tree")
        elif rule in PLANTED_RULES:
            plants.append((row["example"]["case"], row["example"]["index"]))
    if not clean["no_oracle"]:
        failures.append("no case of the self-test tree was counted as having no oracle")
    # Plant: flip bit 1 of each (bit 0 can turn a truncated BFLOAT16 into the reference's
    # rounded value; for the 2-bit types, whose bit 1 is the sign, bit 0).
    for case_name, index in plants:
        path = os.path.join(small, "cases", case_name, "test_data_set_0", "output_0.pb")
        t, _ = load_tensor(path)
        arr = numpy_helper.to_array(t).copy()
        flat = arr.reshape(-1)
        view = flat.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[
            flat.dtype.itemsize])
        view[index] ^= 1 if flat.dtype in (ml_dtypes.int2, ml_dtypes.uint2) else 2
        planted = numpy_helper.from_array(arr, t.name)
        with open(path, "wb") as f:
            f.write(planted.SerializeToString())
    bad = audit(small, 1)
    print("\nafter flipping a bit of "
          + ", ".join(f"{c}[{i}]" for c, i in plants) + ":")
    print_table(bad)
    for case_name, index in plants:
        if not any(e.get("case") == case_name and e.get("index") == index
                   for e in bad["unexplained_examples"]):
            failures.append(f"the planted element {case_name}[{index}] was not caught")
    if bad["unexplained"] != len(plants):
        failures.append(f"{bad['unexplained']} unexplained elements after planting "
                        f"{len(plants)}")
    for f in failures:
        print(f"self-test FAILED: {f}", file=sys.stderr)
    if not failures:
        print("self-test passed: the untouched cases pass, and each planted element is "
              "caught by name")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--json")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--strict-encoding", action="store_true")
    ap.add_argument("--case", action="append", help="only these cases")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--scratch")
    a = ap.parse_args()
    if a.self_test:
        return self_test(a.tree, a.scratch)
    s = audit(a.tree, a.workers, set(a.case) if a.case else None)
    s["strict_encoding"] = a.strict_encoding
    print_table(s)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(s, f, indent=1)
            f.write("\n")
        print(f"wrote {a.json}")
    failed = s["unexplained"] > 0 or (a.strict_encoding and s["encoding_files_differ"] > 0)
    if s["unexplained"]:
        print(f"deep-audit FAILED: {s['unexplained']} unexplained elements", file=sys.stderr)
    if a.strict_encoding and s["encoding_files_differ"]:
        print(f"deep-audit FAILED: {s['encoding_files_differ']} files re-serialize to other "
              "bytes (--strict-encoding)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(1)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(2)

"""ml_dtypes as the converter under test of `onnx-conformance vectors check` (docs/vectors.md,
"ml_dtypes as observed").

Reads the files of `onnx-conformance vectors export` whose pair ml_dtypes converts (FLOAT and
DOUBLE into the float8 types, FLOAT4E2M1, the float6 types and BFLOAT16, and those types back
into FLOAT), and writes each with ml_dtypes' output appended as the observed column, the other
files left out. Check the result with `onnx-conformance vectors check OUT/*.txt`.

ml_dtypes has no `saturate` attribute: its casts never saturate, so the `saturate=1` files
differ beyond the range by design (docs/semantics.md §3.3, step 6), and it converts DOUBLE through
FLOAT (§3.12, double rounding).

Usage: vectors_ml_dtypes.py IN_DIR OUT_DIR
"""

import os
import re
import sys

import ml_dtypes
import numpy as np

NARROW = {
    "FLOAT8E4M3FN": ml_dtypes.float8_e4m3fn,
    "FLOAT8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "FLOAT8E5M2": ml_dtypes.float8_e5m2,
    "FLOAT8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "FLOAT4E2M1": ml_dtypes.float4_e2m1fn,
    "FLOAT6E2M3": ml_dtypes.float6_e2m3fn,
    "FLOAT6E3M2": ml_dtypes.float6_e3m2fn,
    "BFLOAT16": ml_dtypes.bfloat16,
}
WIDE = {"FLOAT": (np.float32, np.uint32), "DOUBLE": (np.float64, np.uint64)}
# A quoted column, or any run of non-space characters.
COLUMN = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')


def header(lines):
    """The `# key value` lines before the first element, as a dict."""
    out = {}
    for line in lines:
        if not line.startswith("#"):
            break
        key, _, value = line[1:].strip().partition(" ")
        out.setdefault(key, value.strip())
    return out


def bits_of(dtype):
    """The unsigned integer type as wide as `dtype`'s storage."""
    return {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dtype).itemsize]


def convert(src, dst, codes):
    """ml_dtypes' codes of `codes` of type `src` cast to `dst`, as hex of the target width."""
    if src in WIDE:
        fty, uty = WIDE[src]
        x = np.array(codes, dtype=uty).view(fty)
        to = NARROW[dst]
        out = x.astype(to).view(bits_of(to)).astype(np.uint64)
        width = 4 if dst == "BFLOAT16" else 2
        # float4 and float6 sit in the low bits of their byte.
        if dst == "FLOAT4E2M1":
            width = 1
        return [format(int(c), "0%dx" % width) for c in out]
    frm = NARROW[src]
    x = np.array(codes, dtype=bits_of(frm)).view(frm)
    out = x.astype(np.float32).view(np.uint32)
    return [format(int(c), "08x") for c in out]


def covered(src, dst):
    return (src in WIDE and dst in NARROW) or (src in NARROW and dst == "FLOAT")


def main(src_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    written = 0
    for name in sorted(os.listdir(src_dir)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(src_dir, name)) as f:
            lines = f.read().splitlines()
        h = header(lines)
        if not covered(h.get("from"), h.get("to")):
            continue
        body = [(i, COLUMN.findall(l)) for i, l in enumerate(lines) if l and not l.startswith("#")]
        observed = convert(h["from"], h["to"], [int(cols[0], 16) for _, cols in body])
        for (i, _), o in zip(body, observed):
            lines[i] = "%s %s" % (lines[i], o)
        with open(os.path.join(out_dir, name), "w") as f:
            f.write("\n".join(lines) + "\n")
        written += 1
    print("wrote %d files with ml_dtypes %s as observed into %s" % (written, ml_dtypes.__version__, out_dir))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

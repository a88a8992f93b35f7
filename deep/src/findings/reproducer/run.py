#!/usr/bin/env python3
"""Runs this reproducer's model.onnx on test_data_set_0 and prints every output element: its
input, the expected value (output_0.pb) and the runtime's, each as bits and decoded, marking
the elements that differ. Written by `cargo xtask deep` (onnx-conformance, docs/deep.md).

Needs onnx and numpy. Runs onnxruntime when it can be imported, else onnx.reference; choose
with --runtime onnxruntime|reference. Exit status 0 when every element matches, 1 when one
differs or the runtime fails. NaNs of the floating types match any NaN of their type.
"""

import argparse
import glob
import math
import os
import struct
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))

# TensorProto data types by number (older onnx releases lack the newer names).
STRING, BOOL, FLOAT, DOUBLE = 8, 9, 1, 11
NAMES = {
    1: "FLOAT", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32", 7: "INT64",
    8: "STRING", 9: "BOOL", 10: "FLOAT16", 11: "DOUBLE", 12: "UINT32", 13: "UINT64",
    16: "BFLOAT16", 17: "FLOAT8E4M3FN", 18: "FLOAT8E4M3FNUZ", 19: "FLOAT8E5M2",
    20: "FLOAT8E5M2FNUZ", 21: "UINT4", 22: "INT4", 23: "FLOAT4E2M1", 24: "FLOAT8E8M0",
    25: "UINT2", 26: "INT2", 27: "FLOAT6E2M3", 28: "FLOAT6E3M2",
}
WIDTH = {
    1: 32, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32, 7: 64, 9: 8, 10: 16, 11: 64, 12: 32, 13: 64,
    16: 16, 17: 8, 18: 8, 19: 8, 20: 8, 21: 4, 22: 4, 23: 4, 24: 8, 25: 2, 26: 2, 27: 6, 28: 6,
}
SIGNED = {3, 5, 6, 7, 22, 26}
# The small floats (docs/semantics.md section 3.1): exponent bits, mantissa bits, bias, and
# which codes are special: "ieee" (exponent all ones: Inf or NaN), "fn" (exponent and mantissa
# all ones: NaN), "fnuz" (0x80 is the only NaN, no -0), "none" (no special code).
SMALL_FLOATS = {
    10: (5, 10, 15, "ieee"),
    16: (8, 7, 127, "ieee"),
    17: (4, 3, 7, "fn"),
    18: (4, 3, 8, "fnuz"),
    19: (5, 2, 15, "ieee"),
    20: (5, 2, 16, "fnuz"),
    23: (2, 1, 1, "none"),
    27: (2, 3, 1, "none"),
    28: (3, 2, 3, "none"),
}
FLOATING = {FLOAT, DOUBLE, 10, 16, 17, 18, 19, 20, 23, 27, 28}


def count(tensor):
    n = 1
    for d in tensor.dims:
        n *= d
    return n


def codes(tensor):
    """The elements of a TensorProto as unsigned codes (strings as text), unpacked."""
    n = count(tensor)
    dt = tensor.data_type
    if dt == STRING:
        return [s.decode("utf-8", "replace") for s in tensor.string_data][:n]
    width = WIDTH[dt]
    if tensor.raw_data:
        raw = tensor.raw_data
    elif dt == FLOAT:
        raw = struct.pack(f"<{len(tensor.float_data)}f", *tensor.float_data)
    elif dt == DOUBLE:
        raw = struct.pack(f"<{len(tensor.double_data)}d", *tensor.double_data)
    elif dt == 7:
        raw = struct.pack(f"<{len(tensor.int64_data)}q", *tensor.int64_data)
    elif dt in (12, 13):
        raw = b"".join((v & (2**width - 1)).to_bytes(width // 8, "little") for v in tensor.uint64_data)
    elif width == 6:
        # The float6 types keep one code per int32_data entry (bits 6-31 zero).
        return [v & 0x3F for v in tensor.int32_data][:n]
    else:
        # int32_data holds one entry per element, or per packed byte for 4- and 2-bit types.
        step = max(width, 8)
        raw = b"".join((v & (2**step - 1)).to_bytes(step // 8, "little") for v in tensor.int32_data)
    if width >= 8:
        size = width // 8
        return [int.from_bytes(raw[i * size:(i + 1) * size], "little") for i in range(n)]
    # Sub-byte types: one little-endian bit stream, element i at bits width*i and up.
    stream, mask = int.from_bytes(raw, "little"), 2**width - 1
    return [(stream >> (i * width)) & mask for i in range(n)]


def value(dt, code):
    """A code decoded: a float, an int, a bool or the text."""
    if dt == STRING:
        return code
    if dt == FLOAT:
        return struct.unpack("<f", code.to_bytes(4, "little"))[0]
    if dt == DOUBLE:
        return struct.unpack("<d", code.to_bytes(8, "little"))[0]
    if dt == 24:  # FLOAT8E8M0: 2^(c - 127), 0xFF is NaN
        return math.nan if code == 0xFF else math.ldexp(1.0, code - 127)
    if dt in SMALL_FLOATS:
        e, m, bias, special = SMALL_FLOATS[dt]
        bits = 1 + e + m
        sign = -1.0 if code >> (bits - 1) else 1.0
        field, mant = (code >> m) & (2**e - 1), code & (2**m - 1)
        if special == "ieee" and field == 2**e - 1:
            return sign * math.inf if mant == 0 else math.nan
        if special == "fn" and field == 2**e - 1 and mant == 2**m - 1:
            return math.nan
        if special == "fnuz" and code == 1 << (bits - 1):
            return math.nan
        if field == 0:
            return sign * math.ldexp(mant, 1 - bias - m)
        return sign * math.ldexp(2**m + mant, field - bias - m)
    if dt == BOOL:
        return code != 0
    width = WIDTH[dt]
    if dt in SIGNED and code >> (width - 1):
        return code - 2**width
    return code


def show(dt, code):
    if dt == STRING:
        return repr(code)
    digits = max(1, (WIDTH[dt] + 3) // 4)
    return f"0x{code:0{digits}x} ({value(dt, code)!r})"


def same(dt, a, b):
    if a == b:
        return True
    if dt in FLOATING:
        x, y = value(dt, a), value(dt, b)
        return isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y)
    return False


# Above this many elements, only those that differ are printed (unless --all).
SHOWN = 40


def data_input(model, feeds, n):
    """The tensor the output's elements come from, when it has as many elements: the first fed
    input, else the first initializer, else a Constant node's value (the constant cases)."""
    candidates = list(feeds.values()) + list(model.graph.initializer)
    for node in model.graph.node:
        if node.op_type == "Constant":
            candidates += [a.t for a in node.attribute if a.name == "value"]
    return next((t for t in candidates if count(t) == n), None)


def run_onnxruntime(model_path, model, inputs):
    import ctypes

    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    sess = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
    names = [o.name for o in model.graph.output]
    by_name = {name.lower(): code for name, code in onnx.TensorProto.DataType.items()}
    if any(t.data_type == STRING for t in inputs.values()):
        feeds = {k: onnx.numpy_helper.to_array(t) for k, t in inputs.items()}
        return "onnxruntime " + ort.__version__, to_protos(names, sess.run(names, feeds))
    feeds = {}
    for k, t in inputs.items():
        v = ort.OrtValue.ortvalue_from_shape_and_type(list(t.dims), t.data_type)
        raw = t.raw_data or onnx.numpy_helper.from_array(onnx.numpy_helper.to_array(t)).raw_data
        if raw:
            ctypes.memmove(v.data_ptr(), raw, len(raw))
        feeds[k] = v
    protos = []
    for name, v in zip(names, sess.run_with_ort_values(names, feeds)):
        elem = v.data_type()[len("tensor("):-1]
        t = onnx.TensorProto(name=name, data_type=by_name[elem], dims=v.shape())
        if t.data_type == STRING:
            t.string_data.extend(s.encode("utf-8") for s in v.numpy().reshape(-1))
        else:
            size = v.tensor_size_in_bytes()
            t.raw_data = ctypes.string_at(v.data_ptr(), size) if size else b""
        protos.append(t)
    return "onnxruntime " + ort.__version__, protos


def run_reference(model_path, model, inputs):
    from onnx.reference import ReferenceEvaluator

    ev = ReferenceEvaluator(model)
    feeds = {k: onnx.numpy_helper.to_array(t) for k, t in inputs.items()}
    names = [o.name for o in model.graph.output]
    return "onnx.reference " + onnx.__version__, to_protos(names, ev.run(names, feeds))


def to_protos(names, arrays):
    """The outputs as TensorProtos; numpy's object arrays (strings) as string_data."""
    protos = []
    for name, a in zip(names, arrays):
        a = np.asarray(a)
        if a.dtype == object:
            t = onnx.TensorProto(name=name, data_type=STRING, dims=a.shape)
            t.string_data.extend(str(s).encode("utf-8") for s in a.reshape(-1))
            protos.append(t)
        else:
            protos.append(onnx.numpy_helper.from_array(a, name))
    return protos


def main():
    parser = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--runtime", choices=["onnxruntime", "reference"], default=None)
    parser.add_argument("--all", action="store_true",
                        help=f"print every element (by default, above {SHOWN} elements, only those that differ)")
    args = parser.parse_args()
    runtime = args.runtime
    if runtime is None:
        try:
            import onnxruntime  # noqa: F401

            runtime = "onnxruntime"
        except ImportError:
            runtime = "reference"
    model_path = os.path.join(HERE, "model.onnx")
    model = onnx.load(model_path)
    data = os.path.join(HERE, "test_data_set_0")
    feeds = {}
    for k, path in enumerate(sorted(glob.glob(os.path.join(data, "input_*.pb")))):
        t = onnx.load_tensor(path)
        feeds[model.graph.input[k].name if k < len(model.graph.input) else t.name] = t
    expected = onnx.load_tensor(os.path.join(data, "output_0.pb"))
    run = run_onnxruntime if runtime == "onnxruntime" else run_reference
    try:
        label, outputs = run(model_path, model, feeds)
    except Exception as e:  # noqa: BLE001 - the failure is what the reproducer shows
        print(f"{runtime} failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return 1
    actual = outputs[0]
    edt, adt = expected.data_type, actual.data_type
    print(f"model.onnx: {model.graph.name}, run with {label}")
    if adt != edt or list(actual.dims) != list(expected.dims):
        print(f"output is {NAMES.get(adt, adt)} {list(actual.dims)}, "
              f"expected {NAMES.get(edt, edt)} {list(expected.dims)}")
        return 1
    exp, act = codes(expected), codes(actual)
    source = data_input(model, feeds, len(exp))
    src = codes(source) if source is not None else None
    sdt = source.data_type if source is not None else None
    every = args.all or len(exp) <= SHOWN
    print(f"{'elem':>4}  {'input':<28} {'expected':<28} {'actual':<28}")
    differ = 0
    for i, (e, a) in enumerate(zip(exp, act)):
        mark = "" if same(edt, e, a) else "  <- differs"
        differ += bool(mark)
        if mark or every:
            shown_in = show(sdt, src[i]) if src is not None else "-"
            print(f"{i:>4}  {shown_in:<28} {show(edt, e):<28} {show(adt, a):<28}{mark}")
    print(f"{differ} of {len(exp)} elements differ")
    if not every:
        print(f"(only the elements that differ are shown; --all shows all {len(exp)})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

"""Times onnxruntime on the cases of `cargo bench --bench kernels -- --json` and prints one
table beside our figures. Run by `cargo xtask bench-compare`; needs onnxruntime, numpy, onnx,
ml_dtypes (the xtask installs them in a private virtual environment)."""

import argparse
import json
import platform
import time

import ml_dtypes
import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper

# ONNX element types that numpy has natively; the rest go in as raw codes.
NUMPY = {1: np.float32, 6: np.int32, 7: np.int64, 10: np.float16, 11: np.float64}
RAW = {16: np.uint16, 17: np.uint8, 19: np.uint8, 22: np.uint8, 23: np.uint8}


def wide(rng, n):
    """±m·2^e, m in [1, 2), e in [-12, 12]: the `Wide` generator of the Rust side."""
    sign = np.where(rng.integers(0, 2, n) == 0, 1.0, -1.0)
    return sign * (1.0 + rng.random(n)) * np.exp2(rng.integers(-12, 13, n))


def make_input(rng, elem, shape, gen):
    """An OrtValue of ONNX type `elem` and `shape`, values drawn like the Rust side."""
    n = int(np.prod(shape))
    if gen == "text":
        return np.array([str(v) for v in wide(rng, n).astype(np.float32)], dtype=object)
    if gen == "int":
        info = np.iinfo(NUMPY[elem])
        x = rng.integers(info.min, info.max, n, dtype=NUMPY[elem], endpoint=True)
    elif gen == "bits":
        # float8 codes, or int4 packed two per byte (ORT reads the first n/2 bytes).
        x = rng.integers(0, 256, n, dtype=np.uint8)
    else:
        x = wide(rng, n) if gen == "wide" else rng.random(n) * 20.0 - 10.0
        if elem == 11:
            x = x * (1.0 + rng.random(n) * 1e-9)
        elif elem == 16:
            x = x.astype(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)
        else:
            x = x.astype(NUMPY[elem])
    x = np.ascontiguousarray(x.reshape(shape))
    if elem in RAW:
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(x, elem)
    return ort.OrtValue.ortvalue_from_numpy(x)


def build(case):
    """The single-node model of a case, its input names and their OrtValues."""
    rng = np.random.default_rng(1)
    shape, elem = case["shape"], case["from"]
    if case["op"] == "Cast":
        names = ["X"]
        attrs = {"to": case["to"]}
        if "saturate" in case:
            attrs["saturate"] = case["saturate"]
        node = helper.make_node("Cast", names, ["Y"], **attrs)
        out_shape = shape
    else:
        names = [f"X{i}" for i in range(case["count"])]
        node = helper.make_node("Concat", names, ["Y"], axis=case["axis"])
        out_shape = list(shape)
        out_shape[case["axis"]] *= case["count"]
    inputs = [helper.make_tensor_value_info(x, elem, shape) for x in names]
    output = helper.make_tensor_value_info("Y", case["to"], out_shape)
    graph = helper.make_graph([node], "bench", inputs, [output])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", case["opset"])], ir_version=11
    )
    values = [make_input(rng, elem, shape, case["gen"]) for _ in names]
    return model.SerializeToString(), names, values


def time_ort(model, names, values, threads, repeat):
    """Best wall time of one Run (session reused, inputs bound once), or a reason string."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = threads
    try:
        sess = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - any failure to load is reported, not fatal
        return "n/a (no kernel)" if "NOT_IMPLEMENTED" in str(e) else f"n/a ({str(e)[:60]})"
    if any(isinstance(v, np.ndarray) for v in values):
        # String tensors cannot be bound; the plain run converts the output, a small cost
        # beside string formatting and parsing.
        feed = dict(zip(names, values))
        return best_of(repeat, lambda: sess.run(["Y"], feed))
    binding = sess.io_binding()
    for name, value in zip(names, values):
        binding.bind_ortvalue_input(name, value)

    def once():
        binding.bind_output("Y", "cpu")
        sess.run_with_iobinding(binding)
        binding.clear_binding_outputs()

    return best_of(repeat, once)


def best_of(repeat, f):
    """Best wall time of `repeat` calls after one untimed warm-up call."""
    f()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def fmt(x, digits=3):
    return f"{x:.{digits}g}" if isinstance(x, float) else x


def row(case, ort1, ortn):
    """One markdown table row."""
    name, elems, nbytes = case["name"], case["elements"], case.get("bytes")
    ours = case.get("seconds")
    memcpy = case.get("memcpy_seconds")

    def rate(s):
        if not isinstance(s, float):
            return s
        rate = elems / s
        g = f"{fmt(rate / 1e9)} Gelem/s" if rate >= 1e8 else f"{fmt(rate / 1e6)} Melem/s"
        return g + (f" ({fmt(nbytes / s / 1e9)} GB/s)" if nbytes else "")

    def ratio(a, b):
        return f"{b / a:.2f}x" if isinstance(a, float) and isinstance(b, float) else "-"

    cells = [
        name,
        rate(ours) if ours else "skipped (not implemented)",
        rate(ort1),
        rate(ortn),
        f"{fmt(nbytes / memcpy / 1e9)} GB/s" if memcpy else "-",
        ratio(ours, ort1),
        ratio(ours, memcpy),
    ]
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True, help="JSON lines from the kernels bench")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with open(args.ours, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.startswith("{")]
    rows = []
    for case in cases:
        model, names, values = build(case)
        ort1 = time_ort(model, names, values, 1, args.repeat)
        ortn = time_ort(model, names, values, 0, args.repeat)
        rows.append(row(case, ort1, ortn))
        print(f"  timed {case['name']}", flush=True)
    print()
    print(
        f"onnxruntime {ort.__version__}, numpy {np.__version__}, onnx {onnx.__version__}, "
        f"python {platform.python_version()}; best of {args.repeat}; "
        "GB/s = input + output bytes, int4/float4 counted packed (half a byte)"
    )
    print()
    print("| operation | ours, 1 thread | onnxruntime 1t | onnxruntime default threads "
          "| memcpy, same bytes | ours / ort 1t | ours / memcpy |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()

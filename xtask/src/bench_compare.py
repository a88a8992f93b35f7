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
RAW = {16: np.uint16, 17: np.uint8, 19: np.uint8, 22: np.uint8, 23: np.uint8, 24: np.uint8}


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


def cpu():
    """CPU model and its SIMD-related flags, from /proc/cpuinfo (Linux) or platform."""
    model, flags = platform.processor() or platform.machine(), []
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name":
                    model = value.strip()
                elif key.strip() == "flags":
                    flags = value.split()
                    break
    except OSError:
        pass
    simd = ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512", "amx", "avx_vnni", "avx10")
    wanted = sorted(f for f in flags if f.startswith(simd))
    return f"{model}; flags: {' '.join(wanted) or 'unknown'}"


def gelem(case, seconds):
    """Gelem/s, or None where there is no time."""
    return case["elements"] / seconds / 1e9 if isinstance(seconds, float) else None


def gbs(nbytes, seconds):
    return nbytes / seconds / 1e9 if nbytes and isinstance(seconds, float) else None


def record(case, ort1, ortn):
    """One row of the --json output."""
    nbytes = case.get("bytes")
    return {
        "operation": case["name"],
        "ours_1t": gelem(case, case.get("seconds_1t")),
        "ours_mt": gelem(case, case.get("seconds_mt")),
        "ort_1t": gelem(case, ort1),
        "ort_mt": gelem(case, ortn),
        "ours_mt_gbs": gbs(nbytes, case.get("seconds_mt")),
        "memcpy_1t_gbs": gbs(nbytes, case.get("memcpy_1t_seconds")),
        "memcpy_mt_gbs": gbs(nbytes, case.get("memcpy_mt_seconds")),
    }


def row(rec, ort1, ortn):
    """One markdown table row; `ort1`/`ortn` give the reason where onnxruntime has no time."""

    def rate(g):
        if g is None:
            return None
        return f"{fmt(g)} Gelem/s" if g >= 0.1 else f"{fmt(g * 1e3)} Melem/s"

    def ratio(a, b):
        return f"{a / b:.2f}x" if a is not None and b is not None else "-"

    def gb(x):
        return f"{fmt(x)} GB/s" if x is not None else "-"

    cells = [
        rec["operation"],
        rate(rec["ours_1t"]) or "skipped (not implemented)",
        rate(rec["ours_mt"]) or "-",
        rate(rec["ort_1t"]) or ort1,
        rate(rec["ort_mt"]) or ortn,
        gb(rec["ours_mt_gbs"]),
        gb(rec["memcpy_1t_gbs"]),
        gb(rec["memcpy_mt_gbs"]),
        ratio(rec["ours_1t"], rec["ort_1t"]),
        ratio(rec["ours_mt"], rec["ort_mt"]),
        ratio(rec["ours_mt_gbs"], rec["memcpy_mt_gbs"]),
    ]
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True, help="JSON lines from the kernels bench")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", help="also write the rows here as JSON")
    args = ap.parse_args()
    with open(args.ours, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.startswith("{")]
    meta = next((x for x in lines if x.get("meta")), {})
    cases = [x for x in lines if not x.get("meta")]
    records, rows = [], []
    for case in cases:
        model, names, values = build(case)
        ort1 = time_ort(model, names, values, 1, args.repeat)
        ortn = time_ort(model, names, values, 0, args.repeat)
        rec = record(case, ort1, ortn)
        records.append(rec)
        rows.append(row(rec, ort1, ortn))
        print(f"  timed {case['name']}", flush=True)
    threads = meta.get("threads", "?")
    print()
    print(f"CPU: {cpu()}")
    print(
        f"ours: SIMD level {meta.get('simd', '?')} (CPU has {meta.get('detected', '?')}), "
        f"all threads = {threads}; onnxruntime {ort.__version__}, numpy {np.__version__}, "
        f"onnx {onnx.__version__}, ml_dtypes {ml_dtypes.__version__}, "
        f"python {platform.python_version()}; best of {args.repeat}; "
        "GB/s = input + output bytes, int4/float4 counted packed (half a byte)"
    )
    print()
    print(
        "| operation | ours 1t | ours all threads | onnxruntime 1t | onnxruntime default "
        "threads | ours all threads, GB/s | memcpy 1t | memcpy all threads "
        "| ours / ort 1t | ours / ort, all threads | ours / memcpy, all threads |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"cpu": cpu(), "simd": meta.get("simd"), "threads": meta.get("threads"),
                       "onnxruntime": ort.__version__, "rows": records}, f, indent=1)
            f.write("\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()

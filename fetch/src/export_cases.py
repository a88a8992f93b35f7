"""Writes onnx's node-test cases to files, for `cargo xtask fetch-tests --generate`.

usage: python export_cases.py OUT_DIR PREFIX[,PREFIX...]

Runs onnx's own case generators (onnx.backend.test.case.node), keeps the cases whose name
starts with one of the prefixes, and writes each as OUT_DIR/node/<case>/model.onnx plus
test_data_set_<i>/{input,output}_<j>.pb, the layout of the data the wheels used to ship.
Also writes OUT_DIR/generated.json with the versions of the packages that produced the data.
"""

import importlib.metadata
import inspect
import json
import os
import platform
import sys
import warnings

import numpy
import onnx
from onnx import TensorProto, numpy_helper
from onnx.backend.test.case import node as node_cases


def version_of(package):
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def all_cases():
    # Older onnx releases take no argument; newer ones filter by op_type when given one.
    if inspect.signature(node_cases.collect_testcases).parameters:
        return node_cases.collect_testcases(None)
    return node_cases.collect_testcases()


def tensor_bytes(value, value_info, where):
    if not value_info.type.HasField("tensor_type"):
        raise SystemExit(f"{where}: only tensor values are supported by this exporter")
    if isinstance(value, TensorProto):
        return value.SerializeToString()
    return numpy_helper.from_array(value, value_info.name).SerializeToString()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def export(case, out_dir):
    case_dir = os.path.join(out_dir, "node", case.name)
    os.makedirs(case_dir)
    write(os.path.join(case_dir, "model.onnx"), case.model.SerializeToString())
    graph = case.model.graph
    for i, (inputs, outputs) in enumerate(case.data_sets):
        set_dir = os.path.join(case_dir, f"test_data_set_{i}")
        os.makedirs(set_dir)
        for kind, values, infos in (("input", inputs, graph.input), ("output", outputs, graph.output)):
            for j, value in enumerate(values):
                where = f"{case.name} {kind} {j}"
                write(os.path.join(set_dir, f"{kind}_{j}.pb"), tensor_bytes(value, infos[j], where))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    out_dir, prefixes = sys.argv[1], tuple(sys.argv[2].split(","))
    # Generating every operator's cases trips numpy warnings (log(0) and the like) in
    # operators we do not export; they say nothing about the chosen cases.
    warnings.simplefilter("ignore", RuntimeWarning)
    chosen = [c for c in all_cases() if c.kind == "node" and c.name.startswith(prefixes)]
    for case in sorted(chosen, key=lambda c: c.name):
        export(case, out_dir)
    versions = {
        "onnx": onnx.__version__,
        "numpy": numpy.__version__,
        "ml_dtypes": version_of("ml_dtypes"),
        "protobuf": version_of("protobuf"),
        "python": platform.python_version(),
        "prefixes": list(prefixes),
        "cases": len(chosen),
    }
    with open(os.path.join(out_dir, "generated.json"), "w") as f:
        json.dump(versions, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"exported {len(chosen)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()

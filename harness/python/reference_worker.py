"""Protocol-1 worker over onnx.reference.ReferenceEvaluator."""

# First: importing worker_loop moves file descriptor 1 away from the protocol stream.
from worker_loop import serve, stage

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

evaluators = {}


def evaluator(path):
    e = evaluators.get(path)
    if e is None:
        e = ReferenceEvaluator(onnx.load(path))
        evaluators[path] = e
    return e


def to_tensor_proto(value, name, code):
    t = numpy_helper.from_array(value, name)
    if t.data_type != code and code is not None:
        # numpy lacks most small formats: ml_dtypes arrays carry them, plain ones do not.
        raise ValueError(f"output '{name}' came back as data_type {t.data_type}, graph says {code}")
    return t


def run_case(request):
    ev = stage("load", evaluator, request["model"])
    declared = {o.name: o.type.tensor_type.elem_type for o in ev.proto_.graph.output}
    feeds = {}
    for inp in request["inputs"]:
        tensor = stage("input", onnx.load_tensor, inp["path"])
        feeds[inp["name"]] = stage("input", numpy_helper.to_array, tensor)
    names = [o["name"] for o in request["outputs"]]
    results = stage("run", ev.run, names, feeds)
    for o, value in zip(request["outputs"], results):
        proto = stage("output", to_tensor_proto, value, o["name"], declared.get(o["name"]))
        stage("output", onnx.save_tensor, proto, o["path"])


if __name__ == "__main__":
    # The evaluator is onnx itself: it knows the IR version and default-domain opset it
    # implements, so a case newer than the installed onnx is judged `predates`.
    serve(
        "onnx-reference",
        onnx.__version__,
        run_case,
        max_ir_version=onnx.IR_VERSION,
        max_opset={"": onnx.defs.onnx_opset_version()},
    )

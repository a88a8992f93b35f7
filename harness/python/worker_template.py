"""Protocol-1 worker "{{NAME}}", written by `{{WRITTEN_BY}}`.

The protocol: docs/worker-protocol.md of onnx-conformance. As written, it runs onnx's reference
evaluator (onnx.reference.ReferenceEvaluator), so it works out of the box; replace the spots
marked `# TODO: your runtime` with your runtime's calls. Check it step by step with
`{{CHECK}}`.
"""

import os
import sys

# worker_loop.py is the protocol loop every worker of onnx-conformance shares (standard
# library only). It is found from this file's own location, so keep the two where
# they were written, or fix the path below.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "{{WORKER_LOOP_DIR}}"))

# First, before the runtime: importing worker_loop moves file descriptor 1 away from the
# protocol stream, so a runtime that prints to stdout cannot corrupt it. Your own logging
# goes to stderr, which the harness quotes when a data set fails.
from worker_loop import load, serve, stage  # noqa: E402

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402  TODO: your runtime (import it)

# TODO: your runtime: its name and version, as every trial record and the scoreboard show
# them (say there anything that changes results, such as a precision setting).
RUNTIME = "{{NAME}}"
VERSION = "onnx-reference " + onnx.__version__

# TODO: your runtime: the exception classes it raises to say "not implemented" or "unsupported"
# (an unknown type, operator or attribute). At load, one of them is a refusal (`unsupported`);
# any other exception on a model onnx.checker accepts is the loader failing on a valid model
# (`"kind": "load-error"`, an error), and on a model it rejects, a refusal.
REFUSALS = (NotImplementedError,)

# TODO: your runtime: the newest IR version and default-domain opset it supports, when it
# knows (a newer case is then judged `predates`, not sent); None leaves them unsaid.
MAX_IR_VERSION = onnx.IR_VERSION
MAX_OPSET = {"": onnx.defs.onnx_opset_version()}

# TODO: your runtime: the most elements per tensor it takes in one data set when
# `onnx-conformance vectors run` feeds a large level in chunks (docs/vectors.md); None: the
# harness's default, 2^20.
MAX_ELEMENTS = None

# TODO: your runtime: the ways it can run a model whose kernels differ (graph optimizations
# on and off, one thread or a pool, a precision), the default first; the deep suite judges
# each apart. worker_loop.configuration(CONFIGURATIONS) says which one to set up in this
# process. None: one way only.
CONFIGURATIONS = None


def load_model(path):
    """The model at path, ready to run. TODO: your runtime (create its session here).

    It is loaded again for every data set: cache it by path only if a session keeps no state
    from one run to the next (docs/worker-protocol.md, One data set).
    """
    return ReferenceEvaluator(onnx.load(path))


def run_model(session, names, feeds):
    """The outputs called names, in that order, for feeds (input name to numpy array).

    TODO: your runtime (run its session here). numpy lacks the small formats (float8, int4 and
    the like): onnx's numpy_helper gives them as ml_dtypes arrays; feed your runtime its own
    tensors from the TensorProto files instead if it takes raw bytes.
    """
    return session.run(names, feeds)


def to_tensor_proto(value, name):
    """An output as a TensorProto: the element type the runtime produced, never converted."""
    return numpy_helper.from_array(value, name)


def run_case(request):
    session = load(load_model, request["model"], refusals=REFUSALS)
    feeds = {}
    for inp in request["inputs"]:
        tensor = stage("input", onnx.load_tensor, inp["path"])
        feeds[inp["name"]] = stage("input", numpy_helper.to_array, tensor)
    names = [o["name"] for o in request["outputs"]]
    results = stage("run", run_model, session, names, feeds)
    for o, value in zip(request["outputs"], results):
        proto = stage("output", to_tensor_proto, value, o["name"])
        stage("output", onnx.save_tensor, proto, o["path"])


if __name__ == "__main__":
    serve(RUNTIME, VERSION, run_case, max_ir_version=MAX_IR_VERSION, max_opset=MAX_OPSET,
          configurations=CONFIGURATIONS, max_elements=MAX_ELEMENTS)

"""Protocol-1 worker over any onnx.backend.base.Backend: `onnx_backend_worker.py MODULE[:CLASS]`.

The runtime is reached through onnx's own backend API, as onnx's BackendTest reaches it:
`prepare(model, device)` once per model, then `rep.run(inputs)` per data set. MODULE is imported
from the interpreter running this script; CLASS, when given, is an attribute of it (a subclass
of onnx.backend.base.Backend); without CLASS the module itself is the backend, as
`onnxruntime.backend` is (it exposes `prepare` and `supports_device` as functions).

Stages as docs/worker-protocol.md defines them: at load, NotImplementedError and onnx's
BackendIsNotSupposedToImplementIt are refusals (`unsupported`); any other exception from
`prepare` is a refusal when onnx.checker rejects the model, else a `load-error`. A backend
whose supports_device("CPU") is false refuses every model.
"""

import importlib
import sys

# First: importing worker_loop moves file descriptor 1 away from the protocol stream.
from worker_loop import StageError, load, probe_limits, serve, stage

DEVICE = "CPU"


def usage(message):
    sys.stderr.write(f"onnx_backend_worker.py: {message}\n")
    sys.stderr.write("usage: onnx_backend_worker.py MODULE[:CLASS]\n")
    sys.exit(2)


try:
    import onnx  # noqa: E402
    from onnx import numpy_helper  # noqa: E402
except ImportError as e:
    usage(
        f"{sys.executable} cannot import onnx ({e}): install onnx beside your runtime, or "
        "give a Python that has both (--python, or ONNX_CONFORMANCE_PYTHON under cargo test)"
    )


def backend_of(spec):
    """The backend MODULE[:CLASS] names: the class, or the module itself."""
    module_name, _, class_name = spec.partition(":")
    if not module_name:
        usage(f"{spec!r} names no module")
    try:
        module = importlib.import_module(module_name)
    except Exception as e:  # noqa: BLE001 - any import failure is the user's setup
        usage(f"cannot import {module_name!r} with {sys.executable}: {type(e).__name__}: {e}")
    if class_name:
        backend = getattr(module, class_name, None)
        if backend is None:
            usage(f"module {module_name!r} has no attribute {class_name!r}")
    else:
        backend = module
    missing = [name for name in ("prepare", "supports_device") if not callable(getattr(backend, name, None))]
    if missing:
        what = f"{module_name}:{class_name}" if class_name else f"module {module_name}"
        usage(
            f"{what} is not an onnx.backend.base.Backend: it has no {' or '.join(missing)} "
            "(give MODULE:CLASS to name the Backend class inside a module)"
        )
    return backend


def version_of(module_name):
    """The version of the distribution that provides MODULE, else of its top package."""
    top = module_name.split(".")[0]
    try:
        from importlib import metadata  # noqa: PLC0415

        for dist in metadata.packages_distributions().get(top, []):
            return metadata.version(dist)
    except Exception:  # noqa: BLE001, S110 - no metadata is no version
        pass
    return str(getattr(sys.modules.get(top), "__version__", "unknown"))


def refusal_classes():
    # unittest.SkipTest: what onnx's BackendTest reports as a skipped case (onnxruntime.backend
    # raises it for a model outside the opsets it supports).
    import unittest  # noqa: PLC0415

    classes = [NotImplementedError, unittest.SkipTest, NamedRefusal]
    try:
        from onnx.backend.test.runner import BackendIsNotSupposedToImplementIt  # noqa: PLC0415

        classes.append(BackendIsNotSupposedToImplementIt)
    except Exception:  # noqa: BLE001, S110 - an onnx without it has no such refusal
        pass
    return tuple(classes)


# A runtime's own "not implemented" or "unsupported" exception: the backend API names no class
# for a refusal beyond NotImplementedError, and runtimes raise their own (onnxruntime's
# NotImplemented for a missing kernel), so a class of that name anywhere in the exception's
# MRO is taken as one.
REFUSAL_NAMES = ("NotImplemented", "NotSupported", "Unsupported")


class _ByName(type):
    """isinstance(e, NamedRefusal) is true when e's class, or a base of it, is named like a
    refusal: the form worker_loop.load takes its refusals in."""

    def __instancecheck__(cls, instance):
        return any(
            any(word in klass.__name__ for word in REFUSAL_NAMES)
            for klass in type(instance).__mro__
        )


NamedRefusal = _ByName("NamedRefusal", (Exception,), {})


class Worker:
    def __init__(self, backend):
        self.backend = backend
        self.refusals = refusal_classes()
        # Only the model of the latest request stays prepared: a case's data sets come one
        # after the other, and a backend's prepared models may hold threads (onnxruntime's
        # sessions keep a spinning pool each: kept for every model, they slowed the official
        # run from about 30 s to 87 s on 2 cores).
        self.prepared = (None, None)
        self.supported = bool(backend.supports_device(DEVICE))

    def prepare(self, path):
        held, rep = self.prepared
        if held != path:
            self.prepared = (None, None)
            if not self.supported:
                raise NotImplementedError(f"the backend's supports_device({DEVICE!r}) is false")
            rep = self.backend.prepare(onnx.load(path), DEVICE)
            self.prepared = (path, rep)
        return rep

    def run_case(self, request):
        rep = load(self.prepare, request["model"], refusals=self.refusals)
        model = onnx.load(request["model"], load_external_data=False)
        declared = {o.name: o.type.tensor_type.elem_type for o in model.graph.output}
        order = [i.name for i in model.graph.input]
        given = {}
        for inp in request["inputs"]:
            tensor = stage("input", onnx.load_tensor, inp["path"])
            given[inp["name"]] = stage("input", numpy_helper.to_array, tensor)
        # onnx's backend API takes the inputs as a list in the graph's order (or a dict, which
        # not every backend accepts): the list is what BackendTest passes.
        inputs = [given[name] for name in order if name in given]
        results = stage("run", rep.run, inputs)
        names = [o["name"] for o in request["outputs"]]
        values = results_by_name(results, names)
        for o in request["outputs"]:
            value = values.get(o["name"])
            if value is None:
                raise StageError("output", f"the backend returned no output {o['name']!r}")
            proto = stage("output", to_tensor_proto, value, o["name"], declared.get(o["name"]))
            stage("output", onnx.save_tensor, proto, o["path"])


def results_by_name(results, names):
    """rep.run's outputs (a namedtuple, a list or a dict) by output name, in the graph's order."""
    if isinstance(results, dict):
        return dict(results)
    if hasattr(results, "_asdict"):
        by_field = results._asdict()
        if all(n in by_field for n in names):
            return dict(by_field)
    return dict(zip(names, list(results)))


# The types numpy lacks, whose element is one unsigned integer of this many bytes: a backend
# may hand them back as that integer's bits (onnxruntime.backend returns float8 as uint8).
BITS_IN_UNSIGNED = {
    onnx.TensorProto.BFLOAT16: 2,
    onnx.TensorProto.FLOAT8E4M3FN: 1,
    onnx.TensorProto.FLOAT8E4M3FNUZ: 1,
    onnx.TensorProto.FLOAT8E5M2: 1,
    onnx.TensorProto.FLOAT8E5M2FNUZ: 1,
}
for _name in ("FLOAT8E8M0",):
    if hasattr(onnx.TensorProto, _name):
        BITS_IN_UNSIGNED[getattr(onnx.TensorProto, _name)] = 1


def to_tensor_proto(value, name, code):
    import numpy as np  # noqa: PLC0415 - onnx depends on it

    width = BITS_IN_UNSIGNED.get(code)
    array = np.asarray(value)
    if width and array.dtype.kind == "u" and array.dtype.itemsize == width:
        # The declared type's bits in an unsigned integer: taken as those bits, never as
        # numbers (a runtime that returned numbers then shows as a value mismatch).
        t = onnx.TensorProto(name=name, data_type=code, dims=array.shape)
        t.raw_data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        return t
    t = numpy_helper.from_array(value, name)
    if code and t.data_type != code:
        raise ValueError(
            f"output '{name}' came back as data_type {onnx.TensorProto.DataType.Name(t.data_type)}, "
            f"the graph declares {onnx.TensorProto.DataType.Name(code)}"
        )
    return t


def main():
    if len(sys.argv) != 2:
        usage("give the backend as one argument")
    spec = sys.argv[1]
    backend = backend_of(spec)
    worker = Worker(backend)

    def loads(model_bytes):
        worker.backend.prepare(onnx.load_from_string(model_bytes), DEVICE)
        return True

    # The backend API has no call that says what it loads: its limits are found by preparing
    # tiny models, so a case newer than the runtime is `predates`, not a load error.
    max_ir_version, max_opset = probe_limits(loads) if worker.supported else (None, None)
    serve(
        f"onnx-backend:{spec}",
        version_of(spec.partition(":")[0]),
        worker.run_case,
        max_ir_version=max_ir_version,
        max_opset=max_opset,
    )


if __name__ == "__main__":
    main()

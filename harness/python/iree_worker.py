"""Protocol-1 worker over IREE: each model imported (iree.compiler's ONNX importer), compiled
for the llvm-cpu target at load, and run on the local-task driver (iree.runtime)."""

import sys

# First: importing worker_loop moves file descriptor 1 away from the protocol stream.
from worker_loop import StageError, load, serve, stage, type_name, untyped_boundary

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import iree.compiler as ireec  # noqa: E402
import iree.runtime as ireert  # noqa: E402
from iree.compiler import version as iree_version  # noqa: E402
from iree.compiler.extras import onnx_importer  # noqa: E402

E = ireert.HalElementType
# TensorProto data type -> (IREE element type, numpy type of the same width that carries its
# bits). Only types the ONNX importer maps (onnx_importer.ELEM_TYPE_TO_IR_TYPE_CB) and the
# runtime holds byte-aligned; a model with any other type at its boundary is refused at load.
ELEMENT = {
    onnx.TensorProto.FLOAT: (E.FLOAT_32, np.uint32),
    onnx.TensorProto.UINT8: (E.UINT_8, np.uint8),
    onnx.TensorProto.INT8: (E.SINT_8, np.uint8),
    onnx.TensorProto.UINT16: (E.UINT_16, np.uint16),
    onnx.TensorProto.INT16: (E.SINT_16, np.uint16),
    onnx.TensorProto.INT32: (E.SINT_32, np.uint32),
    onnx.TensorProto.INT64: (E.SINT_64, np.uint64),
    onnx.TensorProto.BOOL: (E.BOOL_8, np.uint8),
    onnx.TensorProto.FLOAT16: (E.FLOAT_16, np.uint16),
    onnx.TensorProto.DOUBLE: (E.FLOAT_64, np.uint64),
    onnx.TensorProto.UINT32: (E.UINT_32, np.uint32),
    onnx.TensorProto.UINT64: (E.UINT_64, np.uint64),
    onnx.TensorProto.BFLOAT16: (E.BFLOAT_16, np.uint16),
    onnx.TensorProto.FLOAT8E4M3FN: (E.FLOAT_8_E4M3_FN, np.uint8),
    onnx.TensorProto.FLOAT8E4M3FNUZ: (E.FLOAT_8_E4M3_FNUZ, np.uint8),
    onnx.TensorProto.FLOAT8E5M2: (E.FLOAT_8_E5M2, np.uint8),
    onnx.TensorProto.FLOAT8E5M2FNUZ: (E.FLOAT_8_E5M2_FNUZ, np.uint8),
}
# What comes back: an output's element type read from the runtime, mapped to onnx's type
# (signless integers, which the compiler may emit, read as the graph declared them).
ONNX_OF = {int(element): code for code, (element, _) in ELEMENT.items()}
SIGNLESS = {int(E.INT_8): 8, int(E.INT_16): 16, int(E.INT_32): 32, int(E.INT_64): 64}

# Generic x86-64/aarch64 code, so that the values judged do not depend on the host's vector
# unit; DOUBLE kept DOUBLE (IREE demotes f64 to f32 by default): the model is judged as written.
COMPILE_FLAGS = ["--iree-llvmcpu-target-cpu=generic", "--iree-input-demote-f64-to-f32=false"]
DRIVER = "local-task"

config = ireert.Config(DRIVER)
# Only the latest model stays compiled: a case's data sets come one after the other.
compiled = {}


class CompileRefusal(Exception):
    """The importer or the compiler has no lowering for something the model holds."""


# Messages of a compiler without a lowering (a refusal); anything else from a compile of a
# model onnx.checker accepts is the compiler's failure (a load-error).
NO_LOWERING = (
    "failed to legalize",
    "unsupported",
    "not supported",
    "unimplemented",
    "unknown type",
)


def check_types(model):
    """Refuses a graph whose inputs or outputs have a type this worker cannot carry."""
    problem = untyped_boundary(model.graph, ELEMENT)
    if problem:
        raise CompileRefusal(f"{problem}: no IREE element type carries it here")


def compile_model(path):
    model = onnx.load(path)
    check_types(model)
    try:
        info = onnx_importer.ModelInfo(model)
        module = info.create_module(context=onnx_importer.Context()).operation
        importer = onnx_importer.NodeImporter.define_function(info.main_graph, module)
        importer.import_all()
        module.verify()
        asm = module.get_asm(assume_verified=True)
    except Exception as e:  # noqa: BLE001 - the importer's own refusals are plain exceptions
        raise CompileRefusal(f"the ONNX importer: {e}") from e
    try:
        vmfb = ireec.compile_str(asm, target_backends=["llvm-cpu"], extra_args=COMPILE_FLAGS)
    except ireec.CompilerToolError as e:
        text = str(e)
        if any(words in text.lower() for words in NO_LOWERING):
            raise CompileRefusal(f"iree-compile: {first_error(text)}") from e
        raise
    module = ireert.VmModule.copy_buffer(config.vm_instance, vmfb)
    context = ireert.SystemContext(config=config)
    context.add_vm_module(module)
    return context.modules.module[info.main_graph.graph_proto.name]


def first_error(text):
    """The compiler's first `error:` line, without the temporary file's name."""
    for line in text.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return text.strip().splitlines()[0] if text.strip() else text


def load_compiled(path):
    fn = compiled.get(path)
    if fn is None:
        compiled.clear()
        fn = compiled[path] = compile_model(path)
    return fn


def to_buffer_view(proto, path):
    """A device buffer view holding the TensorProto's elements, bit for bit."""
    if proto.data_type not in ELEMENT:
        raise ValueError(f"{path}: {type_name(proto.data_type)} is not carried by this worker")
    element, carrier = ELEMENT[proto.data_type]
    values = onnx.numpy_helper.to_array(proto)
    if values.dtype.itemsize != np.dtype(carrier).itemsize:
        raise ValueError(f"{path}: {type_name(proto.data_type)} elements are not {np.dtype(carrier).itemsize} bytes")
    bits = np.ascontiguousarray(values).view(carrier).reshape(tuple(proto.dims))
    device = config.device
    return device.allocator.allocate_buffer_copy(
        memory_type=ireert.MemoryType.DEVICE_LOCAL,
        allowed_usage=ireert.BufferUsage.DEFAULT,
        device=device,
        buffer=bits,
        element_type=element,
    )


def to_tensor_proto(value, name, declared):
    """The output as IREE produced it: its own element type (a signless integer read as the
    graph declared it when the widths agree), its bits unchanged."""
    view = value if isinstance(value, ireert.HalBufferView) else value._buffer_view
    element = int(view.element_type)
    code = ONNX_OF.get(element)
    if code is None and SIGNLESS.get(element) is not None and declared in ELEMENT:
        if np.dtype(ELEMENT[declared][1]).itemsize * 8 == SIGNLESS[element]:
            code = declared
    if code is None:
        raise ValueError(f"output '{name}' has IREE element type {view.element_type}, which this worker cannot name")
    carrier = ELEMENT[code][1]
    shape = list(value.shape)
    bits = np.array(view.map().asarray(shape, np.dtype(carrier))).reshape(-1).view(np.uint8)
    return onnx.TensorProto(name=name, data_type=code, dims=shape, raw_data=bits.tobytes())


def run_case(request):
    fn = load(load_compiled, request["model"], refusals=(CompileRefusal,))
    model = onnx.load(request["model"], load_external_data=False)
    given = {inp["name"]: inp["path"] for inp in request["inputs"]}
    # The compiled function takes the graph's inputs in graph order, initializers left out.
    initialized = {t.name for t in model.graph.initializer}
    args = []
    for v in model.graph.input:
        if v.name in initialized:
            continue
        if v.name not in given:
            raise StageError("input", f"graph input '{v.name}' was not given")
        proto = stage("input", onnx.load_tensor, given[v.name])
        args.append(stage("input", to_buffer_view, proto, given[v.name]))
    results = stage("run", fn, *args)
    if not isinstance(results, (list, tuple)):
        results = [results]
    if len(results) != len(request["outputs"]):
        raise StageError("output", f"{len(results)} results for {len(request['outputs'])} outputs")
    declared = {v.name: v.type.tensor_type.elem_type for v in model.graph.output}
    for o, value in zip(request["outputs"], results):
        proto = stage("output", to_tensor_proto, value, o["name"], declared.get(o["name"]))
        stage("output", onnx.save_tensor, proto, o["path"])


if __name__ == "__main__":
    serve("iree", f"{iree_version.VERSION} (llvm-cpu, generic CPU, {DRIVER})", run_case)

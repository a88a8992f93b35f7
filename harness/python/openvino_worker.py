"""Protocol-1 worker over OpenVINO's Python API (CPU device, f32 inference precision)."""

import sys

# First: importing worker_loop moves file descriptor 1 away from the protocol stream.
from worker_loop import configuration, serve, stage, type_name, untyped_boundary

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import openvino as ov  # noqa: E402
import openvino.properties.hint as hints  # noqa: E402

# TensorProto data types OpenVINO has an element type for. The rest (the FNUZ float8s, float6,
# INT2, complex) are refused at load, before OpenVINO's ONNX frontend can map them to
# something else.
OV_TYPE_BY_ONNX = {
    onnx.TensorProto.FLOAT: ov.Type.f32,
    onnx.TensorProto.UINT8: ov.Type.u8,
    onnx.TensorProto.INT8: ov.Type.i8,
    onnx.TensorProto.UINT16: ov.Type.u16,
    onnx.TensorProto.INT16: ov.Type.i16,
    onnx.TensorProto.INT32: ov.Type.i32,
    onnx.TensorProto.INT64: ov.Type.i64,
    onnx.TensorProto.STRING: ov.Type.string,
    onnx.TensorProto.BOOL: ov.Type.boolean,
    onnx.TensorProto.FLOAT16: ov.Type.f16,
    onnx.TensorProto.DOUBLE: ov.Type.f64,
    onnx.TensorProto.UINT32: ov.Type.u32,
    onnx.TensorProto.UINT64: ov.Type.u64,
    onnx.TensorProto.BFLOAT16: ov.Type.bf16,
    onnx.TensorProto.FLOAT8E4M3FN: ov.Type.f8e4m3,
    onnx.TensorProto.FLOAT8E5M2: ov.Type.f8e5m2,
    onnx.TensorProto.UINT4: ov.Type.u4,
    onnx.TensorProto.INT4: ov.Type.i4,
    onnx.TensorProto.FLOAT4E2M1: ov.Type.f4e2m1,
    onnx.TensorProto.FLOAT8E8M0: ov.Type.f8e8m0,
    onnx.TensorProto.UINT2: ov.Type.u2,
}
ONNX_BY_OV_TYPE = {ov_type: code for code, ov_type in OV_TYPE_BY_ONNX.items()}

core = ov.Core()
# On a CPU with native bf16 (AVX512-BF16, AMX) OpenVINO's default inference precision is
# bf16: an f32 model may be computed in bf16. The default configuration judges the model as
# written (f32); `default-precision` judges OpenVINO as it ships, its hint untouched.
CONFIGURATIONS = ["f32", "default-precision"]
ACTIVE = configuration(CONFIGURATIONS)
if ACTIVE == "f32":
    core.set_property("CPU", {hints.inference_precision: ov.Type.f32})
# The cases are tiny: one thread and one stream cost least, on a loaded machine most of all.
core.set_property("CPU", {"INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1})
PRECISION = core.get_property("CPU", hints.inference_precision)

compiled = {}


class OpenVINOError(Exception):
    """An OpenVINO exception, its first line saying what failed without source locations."""


def summary(text):
    """OpenVINO's message without its 'Exception from file:line' and 'Check ... failed at'
    lines, which change with every build, joined into one line."""
    lines = [line.strip() for line in text.splitlines()]
    kept = [line for line in lines if line and not line.startswith(("Exception from ", "Check '"))]
    return "; ".join(kept) or text.strip()


def ov_call(fn, *args):
    """fn(*args), with OpenVINO's own exceptions made an OpenVINOError whose first line is stable."""
    try:
        return fn(*args)
    except RuntimeError as e:
        raise OpenVINOError(f"{summary(str(e))}\nOpenVINO said: {e}") from e


def check_types(path):
    """Refuses a graph whose inputs or outputs have a type OpenVINO lacks."""
    problem = untyped_boundary(onnx.load(path, load_external_data=False).graph, OV_TYPE_BY_ONNX)
    if problem:
        raise ValueError(f"{problem}: OpenVINO has no such element type")


def load(path):
    c = compiled.get(path)
    if c is None:
        check_types(path)
        model = ov_call(core.read_model, path)
        c = ov_call(core.compile_model, model, "CPU")
        compiled[path] = c
    return c


def fed_names(model):
    """The input names the compiled model kept: OpenVINO prunes graph inputs nothing uses."""
    return {name for port in model.inputs for name in port.get_names()}


def to_tensor(proto, port):
    """An ov.Tensor holding the TensorProto's plain data (raw_data, or string_data), bit for bit."""
    dims = list(proto.dims)
    ov_type = OV_TYPE_BY_ONNX.get(proto.data_type)
    if ov_type is None:
        raise ValueError(f"input is {type_name(proto.data_type)}, which OpenVINO lacks")
    if port.get_element_type() != ov_type:
        raise ValueError(f"input is {type_name(proto.data_type)}, the model wants {port.get_element_type()}")
    if ov_type == ov.Type.string:
        values = np.array([s.decode("utf-8") for s in proto.string_data], dtype=str)
        return ov.Tensor(values.reshape(dims))
    tensor = ov.Tensor(ov_type, dims)
    raw = proto.raw_data
    if len(raw) != tensor.byte_size:
        raise ValueError(f"raw_data has {len(raw)} bytes, the {ov_type} tensor {tensor.byte_size}")
    if raw:
        tensor.data.reshape(-1).view(np.uint8)[:] = np.frombuffer(raw, dtype=np.uint8)
    return tensor


def to_tensor_proto(tensor, name):
    """The output as OpenVINO produced it: its own element type, never the graph's."""
    code = ONNX_BY_OV_TYPE.get(tensor.element_type)
    if code is None:
        raise ValueError(f"output '{name}' has element type {tensor.element_type}, which onnx lacks")
    t = onnx.TensorProto(name=name, data_type=code, dims=list(tensor.shape))
    if code == onnx.TensorProto.STRING:
        t.string_data.extend(tensor.bytes_data)
    else:
        raw = tensor.data.reshape(-1).view(np.uint8).tobytes() if tensor.byte_size else b""
        if len(raw) != tensor.byte_size:
            raise ValueError(f"output '{name}': {len(raw)} bytes read, the tensor has {tensor.byte_size}")
        t.raw_data = raw
    return t


def run_case(request):
    model = stage("load", load, request["model"])
    kept = fed_names(model)
    feeds = {}
    for inp in request["inputs"]:
        if inp["name"] not in kept:
            continue
        proto = stage("input", onnx.load_tensor, inp["path"])
        feeds[inp["name"]] = stage("input", to_tensor, proto, model.input(inp["name"]))
    request_ = stage("run", ov_call, model.create_infer_request)
    stage("run", ov_call, request_.infer, feeds)
    for o in request["outputs"]:
        tensor = stage("output", request_.get_tensor, o["name"])
        proto = stage("output", to_tensor_proto, tensor, o["name"])
        stage("output", onnx.save_tensor, proto, o["path"])


if __name__ == "__main__":
    version = ov.__version__.split("-")[0]
    if ACTIVE == "f32" and PRECISION != ov.Type.f32:
        sys.exit(f"openvino worker: the CPU kept inference precision {PRECISION}, not f32")
    precision = getattr(PRECISION, "get_type_name", lambda: str(PRECISION))()
    serve("openvino", f"{version} (CPU, inference precision {precision})", run_case,
          configurations=CONFIGURATIONS)

"""Protocol-1 worker over onnxruntime's Python API, feeding raw OrtValues bit for bit."""

import ctypes

# First: importing worker_loop moves file descriptor 1 away from the protocol stream.
from worker_loop import (configuration, load, probe_limits, read_raw_tensor, serve, stage,
                         write_raw_tensor)

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
from onnxruntime.capi import onnxruntime_pybind11_state as ort_state  # noqa: E402

# onnxruntime names element types as "tensor(<name>)"; map the names, never the integers,
# because its C enum numbers some types (UINT2, INT2, FLOAT8E8M0) unlike TensorProto.
ONNX_TYPE_BY_ORT_NAME = {
    name.lower(): code
    for name, code in onnx.TensorProto.DataType.items()
    if name != "UNDEFINED"
}

sessions = {}

# The ways onnxruntime is run whose kernels differ: graph optimizations on (the default: a
# Cast of an initializer or Constant is folded at load) or off (every Cast runs its kernel),
# on one thread or on onnxruntime's default pool (FLOAT16 -> FLOAT is split over it). The
# first, the default, is how every earlier run of this worker ran.
CONFIGURATIONS = {
    "optimized-1-thread": (ort.GraphOptimizationLevel.ORT_ENABLE_ALL, 1),
    "unoptimized-1-thread": (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, 1),
    "optimized-all-threads": (ort.GraphOptimizationLevel.ORT_ENABLE_ALL, 0),
    "unoptimized-all-threads": (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, 0),
}


def session(path):
    s = sessions.get(path)
    if s is None:
        level, threads = CONFIGURATIONS[configuration(list(CONFIGURATIONS))]
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.graph_optimization_level = level
        # The cases are tiny: beyond the configurations that ask for the default pool (0),
        # thread pools (and their spinning) only cost time, a lot of it on a loaded machine.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        s = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        sessions[path] = s
    return s


# numpy's name of the TensorProto types a large input may be read into a reused buffer as.
NUMPY_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
               7: np.int64, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64}

# A buffer per input position for large inputs, kept from one data set to the next: fresh
# memory of tens of megabytes costs more in page faults than reading the file into it (a chunk
# of `vectors run`).
_reused = {}


def read_input(path, slot):
    """An input as an OrtValue whose memory the file's raw_data is read into, when the file is
    plain (see worker_loop.read_raw_tensor), else as to_feed makes it from onnx's reading. A
    large input of a numpy type is wrapped where it lies in a memory map of the file (aligned
    by the harness), or else read into the reused buffer; either way the OrtValue wraps it
    without a copy, and lives only as long as its data set."""
    def into(dims, data_type, nbytes):
        if data_type == onnx.TensorProto.STRING:
            raise ValueError("a STRING tensor has no raw_data")
        np_type = NUMPY_TYPES.get(data_type)
        if np_type is not None and nbytes >= 1 << 20:
            buf = _reused.get(slot)
            if buf is None or buf.nbytes < nbytes:
                buf = _reused[slot] = np.empty(nbytes, dtype=np.uint8)
            view = buf[:nbytes]
            array = view.view(np_type).reshape(dims)
            return ort.OrtValue.ortvalue_from_numpy(array), memoryview(view)
        value = ort.OrtValue.ortvalue_from_shape_and_type(dims, data_type)
        size = value.tensor_size_in_bytes()
        if nbytes != size:
            raise ValueError(f"raw_data has {nbytes} bytes, the OrtValue {size}")
        return value, (ctypes.c_char * size).from_address(value.data_ptr()) if size else None

    def mapped(dims, data_type, view):
        np_type = NUMPY_TYPES.get(data_type)
        if np_type is None:
            return None
        # Wrapped without a copy: onnxruntime reads the elements where the file's pages are.
        array = np.frombuffer(view, dtype=np_type).reshape(dims)
        return ort.OrtValue.ortvalue_from_numpy(array)

    value = read_raw_tensor(path, into, mapped)
    return value if value is not None else to_feed(onnx.load_tensor(path))


def to_feed(tensor):
    """A raw OrtValue, or for strings (which OrtValues cannot be made of) a numpy array."""
    dims = list(tensor.dims)
    if tensor.data_type == onnx.TensorProto.STRING:
        values = np.array([s.decode("utf-8") for s in tensor.string_data], dtype=object)
        return values.reshape(dims)
    value = ort.OrtValue.ortvalue_from_shape_and_type(dims, tensor.data_type)
    raw = tensor.raw_data
    size = value.tensor_size_in_bytes()
    if len(raw) != size:
        raise ValueError(f"raw_data has {len(raw)} bytes, the OrtValue {size}")
    if size:
        ctypes.memmove(value.data_ptr(), raw, size)
    return value


def numpy_to_tensor_proto(array, name):
    """An output of the numpy path (only taken when a string is fed)."""
    if array.dtype == object:
        t = onnx.TensorProto(name=name, data_type=onnx.TensorProto.STRING, dims=array.shape)
        t.string_data.extend(str(s).encode("utf-8") for s in array.reshape(-1))
        return t
    return onnx.numpy_helper.from_array(array, name)


def write_output(value, name, path):
    """Writes an OrtValue output: its memory straight into the file's raw_data (strings through
    to_tensor_proto)."""
    code = element_code(value, name)
    if code == onnx.TensorProto.STRING:
        onnx.save_tensor(to_tensor_proto(value, name), path)
        return
    size = value.tensor_size_in_bytes()
    raw = (ctypes.c_char * size).from_address(value.data_ptr()) if size else b""
    write_raw_tensor(path, name, code, value.shape(), raw)


def element_code(value, name):
    """The TensorProto data type of an OrtValue output."""
    type_name = value.data_type()
    if not (type_name.startswith("tensor(") and type_name.endswith(")")):
        raise ValueError(f"output '{name}' is a {type_name}, not a tensor")
    elem = type_name[len("tensor("):-1]
    code = ONNX_TYPE_BY_ORT_NAME.get(elem)
    if code is None:
        raise ValueError(f"output '{name}' has element type {elem}, unknown to onnx")
    return code


def to_tensor_proto(value, name):
    code = element_code(value, name)
    t = onnx.TensorProto(name=name, data_type=code, dims=value.shape())
    if code == onnx.TensorProto.STRING:
        t.string_data.extend(s.encode("utf-8") for s in value.numpy().reshape(-1))
    else:
        size = value.tensor_size_in_bytes()
        t.raw_data = ctypes.string_at(value.data_ptr(), size) if size else b""
    return t


def run_case(request):
    # NOT_IMPLEMENTED is onnxruntime's refusal (no kernel for a type or an operator version);
    # any other exception on a model onnx.checker accepts is its loader failing: a load-error.
    sess = load(session, request["model"], refusals=(ort_state.NotImplemented,))
    feeds = {}
    for slot, inp in enumerate(request["inputs"]):
        feeds[inp["name"]] = stage("input", read_input, inp["path"], slot)
    names = [o["name"] for o in request["outputs"]]
    if any(isinstance(f, np.ndarray) for f in feeds.values()):
        # A string input needs the numpy path, so every input takes it.
        feeds = {k: stage("input", lambda f: f if isinstance(f, np.ndarray) else f.numpy(), f) for k, f in feeds.items()}
        results = stage("run", sess.run, names, feeds)
        convert = numpy_to_tensor_proto
    else:
        results = stage("run", sess.run_with_ort_values, names, feeds)
        for o, value in zip(request["outputs"], results):
            stage("output", write_output, value, o["name"], o["path"])
        return
    for o, value in zip(request["outputs"], results):
        proto = stage("output", convert, value, o["name"])
        stage("output", onnx.save_tensor, proto, o["path"])


def loads(model_bytes):
    """Whether onnxruntime loads the model (for probe_limits: an older onnxruntime refuses a
    newer IR version or opset at load, 1.31 refuses IR 14 and opset 27 and later)."""
    options = ort.SessionOptions()
    options.log_severity_level = 3
    ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
    return True


if __name__ == "__main__":
    # onnxruntime has no call that says what it loads, so its limits are found by loading
    # tiny models: a case newer than this onnxruntime is then `predates`, not a load error.
    max_ir_version, max_opset = probe_limits(loads)
    # max_elements: a chunk of a large run (`vectors run`) of 2^24 FLOATs is a 64 MiB file
    # each way, small beside the machine and large beside a data set's fixed costs.
    serve("onnxruntime", ort.__version__, run_case, max_ir_version=max_ir_version,
          max_opset=max_opset, configurations=list(CONFIGURATIONS), max_elements=1 << 24)

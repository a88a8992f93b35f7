"""Worker protocol version 1: the loop every Python worker shares (see docs/worker-protocol.md).

Import this module before the runtime: importing it moves file descriptor 1 to stderr, so that
a native library writing to stdout (a banner, a log line, printf from a kernel) cannot corrupt
the protocol stream, which keeps a private duplicate of the original descriptor.
"""

import json
import mmap
import os
import sys
import time
import traceback


def _take_stdout():
    """The protocol stream: a duplicate of fd 1, which then points at stderr, as does sys.stdout."""
    sys.stdout.flush()
    private = os.dup(1)  # not inherited by child processes (PEP 446)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(private, "w", encoding="utf-8", newline="\n")


_protocol = _take_stdout()


class StageError(Exception):
    """A failure at one protocol stage: load, input, run or output.

    kind is None, or at stage load "unsupported" (a refusal) or "load-error" (the loader failed
    on a model it should load).
    """

    def __init__(self, stage, error, kind=None):
        super().__init__(error)
        self.stage = stage
        self.kind = kind


def _stage_error(name, e, kind=None):
    """A StageError for exception e; its traceback goes to stderr, which the harness quotes."""
    traceback.print_exception(type(e), e, e.__traceback__, file=sys.stderr)
    sys.stderr.flush()
    detail = "".join(traceback.format_exception_only(type(e), e)).strip()
    return StageError(name, detail, kind)


# Seconds spent in stage "run" since the current request came: the answer's run_seconds, so
# that the harness can put its own time (files, pipes, comparison) beside the runtime's.
_run_seconds = None


def stage(name, fn, *args):
    """Runs fn(*args); any exception becomes a StageError naming the stage. The time of stage
    "run" is the runtime's own, said in the answer as run_seconds."""
    global _run_seconds
    started = time.perf_counter()
    try:
        return fn(*args)
    except StageError:
        raise
    except Exception as e:  # noqa: BLE001 - every runtime error is reported, never raised
        raise _stage_error(name, e) from e
    finally:
        if name == "run":
            _run_seconds = (_run_seconds or 0.0) + time.perf_counter() - started


def _onnx_checker_accepts(path):
    """Whether onnx.checker accepts the model at path (False when onnx is not installed)."""
    try:
        import onnx  # noqa: PLC0415 - only when a load failed
        onnx.checker.check_model(path, full_check=True)
    except Exception:  # noqa: BLE001 - any complaint, or no onnx, means "not known valid"
        return False
    return True


def load(fn, path, refusals=(), accepts=_onnx_checker_accepts):
    """Runs fn(path) at stage load, telling a refusal from a loader failing on a valid model.

    An exception that is an instance of `refusals` (the runtime's own "not implemented" or
    "unsupported" exception classes) is a refusal: `unsupported`. So is any exception on a model
    that accepts(path) (by default onnx.checker, full check) does not accept. Any other exception
    means the loader failed on a valid model: the answer says "kind": "load-error", which the
    harness counts as an error, not a refusal.
    """
    try:
        return fn(path)
    except StageError:
        raise
    except Exception as e:  # noqa: BLE001 - every runtime error is reported, never raised
        bug = not isinstance(e, refusals) and accepts(path)
        raise _stage_error("load", e, "load-error" if bug else "unsupported") from e


def _varint(buf, i):
    """The varint at buf[i:] and the index after it."""
    value, shift = 0, 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, i
        shift += 7


def read_raw_tensor(path, into, mapped=None):
    """Reads a plain TensorProto file (dims, data_type, name, then raw_data last, as the harness
    writes its inputs) straight into memory the caller gives: into(dims, data_type, nbytes)
    returns (result, buffer), buffer a writable object of nbytes with the buffer protocol (a
    ctypes array over the runtime's own tensor memory, say), or None when nbytes is 0. Returns
    result, or None for any other file: read those with onnx.load_tensor. For large data sets
    (`vectors run` chunks), where every copy of the data counts against the harness's time.

    With mapped given, a raw_data the harness put at a multiple of 64 bytes (large inputs: a
    doc_string pads the header) is not read at all: mapped(dims, data_type, view) gets a
    read-only memoryview of it in a memory map of the file, and returns the result, or None to
    have it read through into after all. Keep nothing of the view past your answer: the next
    data set is written over the same file."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)
        f.seek(0, os.SEEK_END)
        total = f.tell()
        dims, data_type = [], None
        i = 0
        try:
            while True:
                key, i = _varint(head, i)
                field, wire = key >> 3, key & 7
                if (field, wire) == (1, 0):
                    d, i = _varint(head, i)
                    if d >= 1 << 63:
                        return None
                    dims.append(d)
                elif (field, wire) == (2, 0):
                    data_type, i = _varint(head, i)
                elif (field, wire) in ((8, 2), (12, 2)):
                    n, i = _varint(head, i)
                    i += n
                elif (field, wire) == (9, 2):
                    n, i = _varint(head, i)
                    break
                else:
                    return None
        except IndexError:
            return None
        if data_type is None or i + n != total:
            return None
        if mapped is not None and n and i % 64 == 0:
            view = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))[i:]
            result = mapped(dims, data_type, view)
            if result is not None:
                return result
        result, buffer = into(dims, data_type, n)
        if n:
            f.seek(i)
            got = f.readinto(buffer)
            if got != n:
                raise ValueError(f"{path}: raw_data has {got} of {n} bytes")
        return result


def _field(number, wire):
    return _varint_bytes(number << 3 | wire)


def _varint_bytes(value):
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def write_raw_tensor(path, name, data_type, dims, raw):
    """Writes a TensorProto of dims, data_type, name and raw_data (any object with the buffer
    protocol, as a ctypes array over a runtime's output memory) without building the message
    in memory: the bytes go from raw to the file once."""
    head = bytearray()
    for d in dims:
        head += _field(1, 0) + _varint_bytes(d)
    head += _field(2, 0) + _varint_bytes(data_type)
    encoded = name.encode("utf-8")
    head += _field(8, 2) + _varint_bytes(len(encoded)) + encoded
    size = memoryview(raw).nbytes
    head += _field(9, 2) + _varint_bytes(size)
    # Over the earlier data set's file in place, then cut to length: a large run's chunks
    # reuse the file's blocks (a fresh file of 16 MiB cost three times the writing).
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
    with open(fd, "wb") as f:
        f.write(head)
        f.write(raw)
        f.truncate()


def type_name(code):
    """A TensorProto data type's name (`FLOAT8E4M3FN`), or its number when onnx knows no such type."""
    import onnx  # noqa: PLC0415 - only workers that name types need it

    return onnx.TensorProto.DataType.Name(code) if code in onnx.TensorProto.DataType.values() else str(code)


def untyped_boundary(graph, carried):
    """`graph {kind} '{name}' is {TYPE}` for the first graph input or output whose element type is
    not in `carried`, else None: a worker refuses such a model before its runtime sees it."""
    for kind, values in (("input", graph.input), ("output", graph.output)):
        for v in values:
            code = v.type.tensor_type.elem_type
            if code not in carried:
                return f"graph {kind} '{v.name}' is {type_name(code)}"
    return None


def _probe_model(ir_version, opset):
    """The bytes of a model with no node (its one input is its output), stamped ir_version and
    default-domain opset: loading it runs only a loader's version checks, no kernel lookup."""
    import onnx  # noqa: PLC0415 - only workers that probe need it
    from onnx import helper  # noqa: PLC0415

    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])
    graph = helper.make_graph([], "probe", [x], [x])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = ir_version
    return model.SerializeToString()


def probe_limits(loads, beyond=2):
    """The newest IR version and default-domain opset a runtime loads, for serve()'s hello.

    loads(model_bytes) is True when the runtime loads the model (any exception is a no). The
    search starts `beyond` versions above what the installed onnx knows and walks down: first
    the IR version (at opset 7, which every IR version from 3 allows), then the opset at that IR
    version. Returns (max_ir_version, {"": max_opset}), or (None, None) when nothing loads,
    which leaves the limits unknown. Only success or failure is used, never a message.
    """
    import onnx  # noqa: PLC0415 - only workers that probe need it

    def first_loading(candidates, model_of):
        for v in candidates:
            try:
                if loads(model_of(v)):
                    return v
            except Exception:  # noqa: BLE001, S112 - a refusal is a no
                continue
        return None

    max_ir = first_loading(range(onnx.IR_VERSION + beyond, 2, -1), lambda ir: _probe_model(ir, 7))
    if max_ir is None:
        return None, None
    newest = onnx.defs.onnx_opset_version() + beyond
    max_opset = first_loading(range(newest, 0, -1), lambda op: _probe_model(max_ir, op))
    return max_ir, (None if max_opset is None else {"": max_opset})


CONFIGURATION_VAR = "ONNX_CONFORMANCE_CONFIGURATION"


def configuration(declared):
    """The configuration this worker runs in: the one the harness asks for in
    ONNX_CONFORMANCE_CONFIGURATION, else the default (the first of `declared`). A name the
    worker does not declare ends it before its hello, saying which it has."""
    asked = os.environ.get(CONFIGURATION_VAR) or declared[0]
    if asked not in declared:
        sys.stderr.write(f"{CONFIGURATION_VAR}={asked!r}: this worker runs in {declared}\n")
        sys.exit(2)
    return asked


def serve(runtime, version, run_case, max_ir_version=None, max_opset=None,
          configurations=None, max_elements=None):
    """Says hello, then answers one request line at a time until stdin closes.

    run_case(request) runs one data set and writes its outputs, raising StageError on failure.
    max_ir_version (an int) and max_opset (a dict of domain to opset, "" the default domain)
    say what the runtime supports, when it knows: the harness then judges a newer case as
    `predates` without sending it. Left None, they are not said (unknown). configurations (a
    list of names, the default first) are the ways the runtime can be run that the harness
    should judge apart; the hello then says them and the one `configuration(...)` chose.
    max_elements (an int) is the most elements per tensor the worker takes in one data set
    when the harness splits a large run into chunks (`onnx-conformance vectors run`).
    Each success answer says run_seconds, the time spent in stage("run", ...).
    Protocol lines go to the private duplicate of the original stdout (see the module's doc).
    """
    out = _protocol
    hello = {"protocol": 1, "runtime": runtime, "version": version}
    if max_ir_version is not None:
        hello["max_ir_version"] = max_ir_version
    if max_opset is not None:
        hello["max_opset"] = max_opset
    if max_elements is not None:
        hello["max_elements"] = max_elements
    if configurations:
        hello["configurations"] = list(configurations)
        hello["configuration"] = configuration(configurations)
    out.write(json.dumps(hello) + "\n")
    out.flush()
    global _run_seconds
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        answer = {"id": request["id"], "ok": True}
        _run_seconds = None
        try:
            run_case(request)
            if _run_seconds is not None:
                answer["run_seconds"] = _run_seconds
        except StageError as e:
            answer = {"id": request["id"], "ok": False, "stage": e.stage, "error": str(e)}
            if e.kind is not None:
                answer["kind"] = e.kind
        out.write(json.dumps(answer) + "\n")
        out.flush()

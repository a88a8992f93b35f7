"""Worker protocol version 1: the loop every Python worker shares (see docs/worker-protocol.md).

Import this module before the runtime: importing it moves file descriptor 1 to stderr, so that
a native library writing to stdout (a banner, a log line, printf from a kernel) cannot corrupt
the protocol stream, which keeps a private duplicate of the original descriptor.
"""

import json
import os
import sys
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
    """A failure at one protocol stage: load, input, run or output."""

    def __init__(self, stage, error):
        super().__init__(error)
        self.stage = stage


def stage(name, fn, *args):
    """Runs fn(*args); any exception becomes a StageError naming the stage."""
    try:
        return fn(*args)
    except StageError:
        raise
    except Exception as e:  # noqa: BLE001 - every runtime error is reported, never raised
        detail = "".join(traceback.format_exception_only(type(e), e)).strip()
        raise StageError(name, detail) from e


def serve(runtime, version, run_case):
    """Says hello, then answers one request line at a time until stdin closes.

    run_case(request) runs one data set and writes its outputs, raising StageError on failure.
    Protocol lines go to the private duplicate of the original stdout (see the module's doc).
    """
    out = _protocol
    out.write(json.dumps({"protocol": 1, "runtime": runtime, "version": version}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        answer = {"id": request["id"], "ok": True}
        try:
            run_case(request)
        except StageError as e:
            answer = {"id": request["id"], "ok": False, "stage": e.stage, "error": str(e)}
        out.write(json.dumps(answer) + "\n")
        out.flush()

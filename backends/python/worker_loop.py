"""Worker protocol version 1: the loop every Python worker shares (see docs/worker-protocol.md)."""

import json
import sys
import traceback


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
    Python's own stdout is redirected to stderr so that a chatty runtime cannot corrupt the
    protocol stream.
    """
    out = sys.stdout
    sys.stdout = sys.stderr
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

# arbiter's Python host: loads a student's module and answers arbiter's requests, one JSON
# line each, on stdin/stdout (docs/PROTOCOL.md). It enforces nothing: arbiter times each call
# and kills this process when a limit is broken.
#
# Usage: python3 arbiter_host.py SUBMISSION_DIR [SUPPORT_DIR]
#
# MIT licence. Part of arbiter.

import ast
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import traceback

PROTOCOL = 1
MAX_TRACE = 20

# The protocol owns the real stdout; the student's prints go to a buffer per call, and raw
# writes to file descriptor 1 land on stderr instead of in the protocol.
_protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
os.dup2(2, 1)
_protocol_in = sys.stdin
sys.stdin = io.StringIO("")


def encode(value):
    """A Python value as JSON, tuples tagged so that they come back as tuples."""
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return {"repr": repr(value)}


def decode(value):
    """JSON from arbiter as a Python value (`{"tuple": [...]}` is a tuple)."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"tuple"}:
            return tuple(decode(v) for v in value["tuple"])
        if set(value) == {"dict"}:
            return {decode(k): decode(v) for k, v in value["dict"]}
        return {k: decode(v) for k, v in value.items()}
    return value


# Statements of grammars newer than 3.9: match (3.10), except* (3.11), type aliases (3.12).
NEWER_STATEMENTS = ("Match", "TryStar", "TypeAlias")


class LoadError(Exception):
    pass


class ProtocolError(Exception):
    pass


def error_of(kind, exc):
    frames = traceback.extract_tb(exc.__traceback__)
    # Innermost first; the host's own frames are left out.
    trace = [
        "%s:%d in %s" % (os.path.basename(f.filename), f.lineno, f.name)
        for f in reversed(frames)
        if os.path.abspath(f.filename) != os.path.abspath(__file__)
        and not f.filename.startswith("<frozen ")
    ][:MAX_TRACE]
    return {"kind": kind, "type": type(exc).__name__, "message": str(exc), "trace": trace}


class Host:
    def __init__(self, submission, support):
        self.submission = submission
        self.support = support
        self.module_file = None
        self.module = None
        self.generation = 0

    def forget(self):
        """Drops every module that came from the submission or the support folder."""
        roots = [os.path.abspath(self.submission)] + ([os.path.abspath(self.support)] if self.support else [])
        for name, mod in list(sys.modules.items()):
            path = getattr(mod, "__file__", None) or ""
            if any(os.path.abspath(path).startswith(r + os.sep) for r in roots):
                del sys.modules[name]
        self.module = None

    def load(self, args):
        module = args.get("module")
        if not isinstance(module, str) or "/" in module or not module.endswith(".py"):
            raise ProtocolError("load needs a module file name such as a1.py")
        self.module_file = module
        version = args.get("python")
        if version is not None:
            self.check_version(version)
        self.import_module()
        return None

    def check_version(self, version):
        """Refuses a module that the course's Python (version = [major, minor]) could not parse,
        naming the line: ast.parse with that version's grammar. A module that does not parse at
        all is left to the import, which reports its syntax error as such."""
        if not (isinstance(version, list) and len(version) == 2 and all(isinstance(v, int) for v in version)):
            raise ProtocolError("load's python is [major, minor]")
        path = os.path.join(self.submission, self.module_file)
        try:
            with open(path, "rb") as f:
                source = f.read()
            tree = ast.parse(source, filename=self.module_file)
        except (OSError, SyntaxError, ValueError):
            return
        try:
            ast.parse(source, filename=self.module_file, feature_version=tuple(version))
        except SyntaxError as exc:
            # The parser may point at a statement's last line; a construct of a newer grammar
            # that spans it is named by its first.
            line = exc.lineno or 0
            for node in ast.walk(tree):
                end = getattr(node, "end_lineno", None) or getattr(node, "lineno", 0)
                if type(node).__name__ in NEWER_STATEMENTS and node.lineno <= line <= end:
                    line = node.lineno
                    break
            lines = source.decode("utf-8", "replace").splitlines()
            shown = lines[line - 1].strip() if 0 < line <= len(lines) else ""
            raise LoadError(
                "%s line %d needs a Python newer than %d.%d, the version the course runs (%s)%s"
                % (self.module_file, line, version[0], version[1], exc.msg,
                   ":\n    " + shown if shown else "")
            ) from None

    def import_module(self):
        path = os.path.join(self.submission, self.module_file)
        if not os.path.isfile(path):
            raise LoadError("there is no %s in the submission" % self.module_file)
        self.generation += 1
        name = os.path.splitext(self.module_file)[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:  # a syntax error, an exception, input() at top level
            del sys.modules[name]
            raise LoadError(exc) from exc
        self.module = module

    def reset(self, _args):
        self.forget()
        if self.module_file is not None:
            self.import_module()
        return None

    def call(self, args):
        if self.module is None:
            raise ProtocolError("call before load")
        name = args.get("function")
        function = getattr(self.module, name, None) if isinstance(name, str) else None
        if not callable(function):
            raise LoadError("%s has no function %s()" % (self.module_file, name))
        # A function that reads input (CSSE7030's attempt_promotion) gets the case's lines.
        sys.stdin = io.StringIO(args.get("stdin", ""))
        try:
            return encode(function(*decode(args.get("args", []))))
        finally:
            sys.stdin = io.StringIO("")

    def main(self, args):
        """Runs `python3 a1.py` as the course does, in a folder holding the submission's Python
        files with the support files over them, `stdin` on its standard input; what it writes
        to standard output is this call's stdout. An exception that ends it is this call's
        error (EOFError, reading past the script, is an ending of its own)."""
        if self.module_file is None:
            raise ProtocolError("main before load")
        folder = self.script_folder()
        command = [sys.executable, "-B", "-E", "-s", self.module_file]
        child = subprocess.run(
            command,
            cwd=folder,
            input=args.get("stdin", "").encode("utf-8"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
        )
        sys.stdout.write(child.stdout.decode("utf-8", "replace"))
        stderr = child.stderr.decode("utf-8", "replace")
        sys.stderr.write(stderr[-4096:])
        code = child.returncode
        if code == 0:
            return {"ended": "returned", "exit": 0}
        if code < 0:
            return {"ended": "signal %d" % -code, "exit": code}
        error = traceback_error(stderr)
        if error is None:
            return {"ended": "exit %d" % code, "exit": code}
        if error["type"] == "EOFError":
            return {"ended": "eof", "exit": code}
        raise StudentError(error)

    def script_folder(self):
        """A fresh folder with the submission's Python files and the support files over them
        (the grader's copy wins, as on the import path of the other operations)."""
        folder = os.path.join(os.getcwd(), "arbiter-script")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for source in [self.submission] + ([self.support] if self.support else []):
            for name in os.listdir(source):
                path = os.path.join(source, name)
                if name.endswith(".py") and os.path.isfile(path):
                    shutil.copyfile(path, os.path.join(folder, name))
        return folder


class StudentError(Exception):
    """An exception the student's program ended with, read from its traceback."""

    def __init__(self, error):
        Exception.__init__(self, error["message"])
        self.error = error


def traceback_error(stderr):
    """The last traceback in a program's stderr as an error (kind, type, message, trace
    innermost first), or None when there is none."""
    start = stderr.rfind("Traceback (most recent call last):")
    if start < 0:
        return None
    lines = stderr[start:].splitlines()
    frames = []
    for line in lines[1:]:
        text = line.strip()
        if text.startswith('File "'):
            name, _, rest = text[len('File "'):].partition('", line ')
            number, _, where = rest.partition(", in ")
            frames.append("%s:%s in %s" % (os.path.basename(name), number, where))
    last = next((l for l in reversed(lines) if l and not l.startswith(" ")), "")
    kind, _, message = last.partition(": ")
    return {
        "kind": "exception",
        "type": kind.split(".")[-1] or "Exception",
        "message": message,
        "trace": list(reversed(frames))[:MAX_TRACE],
    }


def respond(message):
    _protocol_out.write(json.dumps(message, separators=(",", ":")) + "\n")
    _protocol_out.flush()


def serve(host):
    ops = {"load": host.load, "reset": host.reset, "call": host.call, "main": host.main}
    respond({"hello": "arbiter-host", "protocol": PROTOCOL, "host": "python %d.%d.%d" % sys.version_info[:3]})
    for line in _protocol_in:
        try:
            request = json.loads(line)
            rid, op, args = request["id"], request["op"], request.get("args") or {}
        except (ValueError, KeyError, TypeError) as exc:
            respond({"id": None, "error": {"kind": "protocol", "type": type(exc).__name__, "message": str(exc), "trace": []}})
            continue
        if op == "quit":
            respond({"id": rid, "ok": None})
            return
        captured = io.StringIO()
        sys.stdout = captured
        try:
            if op not in ops:
                raise ProtocolError("unknown operation %r" % op)
            reply = {"id": rid, "ok": ops[op](args)}
        except ProtocolError as exc:
            reply = {"id": rid, "error": error_of("protocol", exc)}
        except LoadError as exc:
            cause = exc.__cause__ or exc
            reply = {"id": rid, "error": error_of("load", cause)}
        except StudentError as exc:
            reply = {"id": rid, "error": exc.error}
        except BaseException as exc:  # the student's code threw (SystemExit included)
            reply = {"id": rid, "error": error_of("exception", exc)}
        finally:
            sys.stdout = sys.__stdout__
        reply["stdout"] = captured.getvalue()[: 64 * 1024]
        respond(reply)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: arbiter_host.py SUBMISSION_DIR [SUPPORT_DIR]\n")
        sys.exit(2)
    submission = os.path.abspath(sys.argv[1])
    support = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    # The support module (a1_support.py) is found beside the submission's module, as the
    # course runs it; the grader's own copy comes first.
    sys.path[:0] = [p for p in (support, submission) if p]
    sys.argv = [os.path.join(submission, "a1.py")]
    serve(Host(submission, support))

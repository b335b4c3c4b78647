# arbiter's Python host: loads a student's module and answers arbiter's requests, one JSON
# line each, on stdin/stdout (docs/PROTOCOL.md). It enforces nothing: arbiter times each call
# from outside and kills the whole host when a limit is broken.
#
# The process arbiter starts is a zygote that never runs the student's code. For each case
# (`load`, `reset`) it forks a child that imports the module afresh and answers that case's
# calls; `end` kills the child and whatever it started. So nothing of one case (globals,
# builtins, threads, processes, open files) reaches the next, and only the zygote holds the
# protocol's pipes: a child cannot write to arbiter. The zygote makes itself non-dumpable, so
# that a child (the same user) cannot read or write its memory through /proc.
#
# Usage: python3 arbiter_host.py SUBMISSION_DIR [SUPPORT_DIR]
#
# MIT licence. Part of arbiter.

import ast
import importlib.util
import io
import json
import os
import select
import shutil
import signal
import sys
import traceback

PROTOCOL = 1
MAX_TRACE = 20
MAX_STDOUT = 64 * 1024
# The longest reply a child may give (arbiter's own limit on a line is 1 MiB).
MAX_REPLY = (1 << 20) + 4096
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36


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


class StudentError(Exception):
    """An exception the student's program ended with, read from its traceback."""

    def __init__(self, error):
        Exception.__init__(self, error["message"])
        self.error = error


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


_LIBC = []


def prctl(option, value):
    """prctl(2) through the C library; False where that cannot be done. The library is opened
    once, by the zygote: each case's child only calls it."""
    try:
        if not _LIBC:
            import ctypes

            _LIBC.append(ctypes.CDLL(None, use_errno=True))
        return _LIBC[0].prctl(option, value, 0, 0, 0) == 0
    except Exception:  # no ctypes, no C library: the zygote goes on without it
        return False


def described_status(status):
    if os.WIFSIGNALED(status):
        return "was killed by signal %d" % os.WTERMSIG(status)
    if os.WIFEXITED(status):
        return "exited with status %d" % os.WEXITSTATUS(status)
    return "ended"


class Lines:
    """Lines read from a file descriptor, each at most `limit` bytes."""

    def __init__(self, fd, limit):
        self.fd = fd
        self.limit = limit
        self.buffer = b""

    def pending(self):
        """Whether bytes beyond the last line are there, or waiting to be read."""
        if self.buffer:
            return True
        ready, _, _ = select.select([self.fd], [], [], 0)
        return bool(ready)

    def read(self):
        """The next line without its newline, None at end of file, or ValueError when it is
        too long."""
        while True:
            at = self.buffer.find(b"\n")
            if at >= 0:
                line, self.buffer = self.buffer[:at], self.buffer[at + 1:]
                return line
            if len(self.buffer) > self.limit:
                raise ValueError("a line longer than %d bytes" % self.limit)
            try:
                chunk = os.read(self.fd, 1 << 16)
            except InterruptedError:
                continue
            if not chunk:
                return None
            self.buffer += chunk


# ---------------------------------------------------------------------------------------------
# The child: one case, the student's code.


class Compiled:
    """What the zygote learns once from a module's source, without running any of it: its
    code object (so that each case's child executes it instead of parsing and compiling the
    file again) and, for a course that names its Python, why that Python could not parse it.
    Each case still runs the module's top level afresh in its own child. `code` is None when
    the source cannot be read or compiled: the child's import then says why, as before."""

    def __init__(self, submission, module_file, version):
        self.code = None
        self.version_error = None
        path = os.path.join(submission, module_file)
        source = read_source(path)
        if source is None:
            return
        try:
            if version is not None:
                self.version_error = version_error(source, module_file, version)
            if self.version_error is None:
                # The file name the import gives it, so that tracebacks read the same.
                self.code = compile(source, path, "exec", dont_inherit=True)
        except BaseException:  # a syntax error, a source too deep to parse, a bad version:
            self.code = None  # the child's own import and check say so
            self.version_error = None


def read_source(path):
    """The module's source as bytes, or None when it cannot be read: its import then says why."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def version_error(source, module_file, version):
    """Why the course's Python (version = [major, minor]) could not parse `source`, naming the
    line (ast.parse with that version's grammar); None when it can. A module that does not
    parse at all is left to the import, which reports its syntax error as such."""
    if not (isinstance(version, list) and len(version) == 2 and all(isinstance(v, int) for v in version)):
        raise ProtocolError("load's python is [major, minor]")
    try:
        tree = ast.parse(source, filename=module_file)
    except (SyntaxError, ValueError):
        return None
    try:
        ast.parse(source, filename=module_file, feature_version=tuple(version))
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
        return "%s line %d needs a Python newer than %d.%d, the version the course runs (%s)%s" % (
            module_file, line, version[0], version[1], exc.msg, ":\n    " + shown if shown else "")
    return None


class Case:
    def __init__(self, submission, support, module_file, version=None, compiled=None):
        self.submission = submission
        self.support = support
        self.module_file = module_file
        self.version = version
        self.compiled = compiled
        self.module = None

    def check_version(self):
        """Refuses a module that the course's Python could not parse (see version_error)."""
        source = read_source(os.path.join(self.submission, self.module_file))
        if source is None:
            return
        why = version_error(source, self.module_file, self.version)
        if why is not None:
            raise LoadError(why)

    def import_module(self):
        path = os.path.join(self.submission, self.module_file)
        if not os.path.isfile(path):
            raise LoadError("there is no %s in the submission" % self.module_file)
        compiled = self.compiled
        if compiled is not None and compiled.version_error is not None:
            raise LoadError(compiled.version_error)
        if compiled is not None and compiled.code is None:
            compiled = None
        if compiled is None and self.version is not None:
            self.check_version()
        name = os.path.splitext(self.module_file)[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            if compiled is not None:
                # What SourceFileLoader.exec_module does, with the code the zygote compiled.
                exec(compiled.code, module.__dict__)
            else:
                spec.loader.exec_module(module)
        except BaseException as exc:  # a syntax error, an exception, input() at top level
            del sys.modules[name]
            raise LoadError(exc) from exc
        self.module = module

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
        error (EOFError, reading past the script, is an ending of its own). The program runs
        in a process forked from this one, which has imported nothing of it."""
        folder = self.script_folder()
        files = {}
        for name in ("stdin", "stdout", "stderr"):
            path = os.path.join(os.getcwd(), "arbiter-%s" % name)
            files[name] = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
            os.unlink(path)
        os.write(files["stdin"], args.get("stdin", "").encode("utf-8"))
        os.lseek(files["stdin"], 0, os.SEEK_SET)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.dup2(files["stdin"], 0)
                os.dup2(files["stdout"], 1)
                os.dup2(files["stderr"], 2)
                for fd in files.values():
                    os.close(fd)
                code = self.run_program(folder)
            finally:
                os._exit(code)
        for fd in (files["stdin"],):
            os.close(fd)
        _, status = os.waitpid(pid, 0)

        def read_all(fd, limit):
            os.lseek(fd, 0, os.SEEK_SET)
            data = os.read(fd, limit)
            os.close(fd)
            return data.decode("utf-8", "replace")

        sys.stdout.write(read_all(files["stdout"], 4 * MAX_STDOUT))
        stderr = read_all(files["stderr"], 1 << 20)
        sys.stderr.write(stderr[-4096:])
        if os.WIFSIGNALED(status):
            code = -os.WTERMSIG(status)
            return {"ended": "signal %d" % -code, "exit": code}
        code = os.WEXITSTATUS(status)
        if code == 0:
            return {"ended": "returned", "exit": 0}
        error = traceback_error(stderr)
        if error is None:
            return {"ended": "exit %d" % code, "exit": code}
        if error["type"] == "EOFError":
            return {"ended": "eof", "exit": code}
        raise StudentError(error)

    def run_program(self, folder):
        """In the forked process: the module as `__main__`, as `python3 -B -E -s a1.py` would
        run it in `folder`; returns its exit status."""
        import builtins

        roots = [os.path.abspath(p) for p in (self.submission, self.support) if p]
        for name, mod in list(sys.modules.items()):
            path = os.path.abspath(getattr(mod, "__file__", None) or "")
            if any(path.startswith(r + os.sep) for r in roots):
                del sys.modules[name]
        os.chdir(folder)
        sys.path[:] = [folder] + [p for p in sys.path if os.path.abspath(p) not in roots]
        sys.argv = [self.module_file]
        sys.stdin = sys.__stdin__ = io.TextIOWrapper(
            io.BufferedReader(io.FileIO(0, "r", closefd=False)),
            encoding=sys.__stdin__.encoding, errors=sys.__stdin__.errors)
        sys.stdout = sys.__stdout__ = io.TextIOWrapper(
            io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
            encoding=sys.__stdout__.encoding, errors=sys.__stdout__.errors)
        sys.stderr = sys.__stderr__ = io.TextIOWrapper(
            io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
            encoding=sys.__stderr__.encoding, errors="backslashreplace", line_buffering=True)
        main = type(sys)("__main__")
        main.__file__ = self.module_file
        main.__builtins__ = builtins
        sys.modules["__main__"] = main
        code = 0
        try:
            with open(self.module_file, "rb") as f:
                source = f.read()
            exec(compile(source, self.module_file, "exec"), main.__dict__)
        except SystemExit as exc:
            code = exit_code(exc)
        except BaseException as exc:
            sys.stderr.write("Traceback (most recent call last):\n")
            tb = exc.__traceback__.tb_next if exc.__traceback__ else None
            sys.stderr.write("".join(traceback.format_list(traceback.extract_tb(tb))))
            sys.stderr.write("".join(traceback.format_exception_only(type(exc), exc)))
            code = 1
        try:
            import atexit
            import threading

            threading._shutdown()
            atexit._run_exitfuncs()
        except SystemExit as exc:
            code = exit_code(exc)
        except BaseException:
            pass
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                code = code or 120
        return code

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


def exit_code(exc):
    """The status a program ending with SystemExit gets, as CPython gives it."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    try:
        sys.stderr.write(str(exc.code) + "\n")
    except BaseException:
        pass
    return 1


def serve_case(case, requests, replies):
    """The child's loop: import the module, say how that went, then answer calls."""

    def send(message):
        os.write(replies, (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))

    def captured_reply(rid, work):
        captured = io.StringIO()
        sys.stdout = captured
        try:
            reply = {"id": rid, "ok": work()}
        except ProtocolError as exc:
            reply = {"id": rid, "error": error_of("protocol", exc)}
        except LoadError as exc:
            reply = {"id": rid, "error": error_of("load", exc.__cause__ or exc)}
        except StudentError as exc:
            reply = {"id": rid, "error": exc.error}
        except BaseException as exc:  # the student's code threw (SystemExit included)
            reply = {"id": rid, "error": error_of("exception", exc)}
        finally:
            sys.stdout = sys.__stdout__
        reply["stdout"] = captured.getvalue()[:MAX_STDOUT]
        try:
            json.dumps(reply)
        except (TypeError, ValueError) as exc:
            reply = {"id": rid, "error": error_of("exception", exc), "stdout": reply["stdout"]}
        return reply

    send(captured_reply(None, lambda: case.import_module()))
    lines = Lines(requests, MAX_REPLY)
    ops = {"call": case.call, "main": case.main}
    while True:
        line = lines.read()
        if line is None:
            os._exit(0)
        request = json.loads(line)
        rid, op, args = request["id"], request["op"], request.get("args") or {}

        def work():
            if op not in ops:
                raise ProtocolError("unknown operation %r" % op)
            return ops[op](args)

        send(captured_reply(rid, work))


# ---------------------------------------------------------------------------------------------
# The zygote: the protocol, and one child per case.


class Zygote:
    def __init__(self, submission, support, protocol_in, protocol_out):
        self.submission = submission
        self.support = support
        self.protocol_in = protocol_in
        self.protocol_out = protocol_out
        self.module_file = None
        # The course's Python [major, minor], when load names one: the module must parse as it.
        self.python_version = None
        self.child = None
        self.to_child = None
        self.from_child = None
        self.ended = None
        self.running = []
        self.compiled = None

    def respond(self, message):
        os.write(self.protocol_out, (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))

    def fork_case(self):
        """Starts a child for a new case; returns the reply to its import."""
        self.kill_case()
        clear_folder()
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setpgid(0, 0)
                # The child keeps only its own pipes: the protocol's stay with the zygote.
                for fd in (self.protocol_in, self.protocol_out, req_w, rep_r):
                    os.close(fd)
                prctl(PR_SET_DUMPABLE, 1)
                case = Case(self.submission, self.support, self.module_file, self.python_version,
                            self.compiled)
                serve_case(case, req_r, rep_w)
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        os.close(req_r)
        os.close(rep_w)
        self.child, self.to_child, self.from_child = pid, req_w, Lines(rep_r, MAX_REPLY)
        self.ended = None
        return self.receive(None)

    def receive(self, rid):
        """The child's reply to request `rid`, checked; or an error saying what it did."""
        try:
            line = self.from_child.read()
        except ValueError as exc:
            return self.fail(rid, "garbled", "wrote %s" % exc)
        if line is None:
            return self.fail(rid, "died", self.reap())
        try:
            reply = json.loads(line)
        except ValueError:
            return self.fail(rid, "garbled", "wrote a line that is not a reply: %r" % line[:120])
        if not isinstance(reply, dict) or reply.get("id") != rid:
            return self.fail(rid, "garbled", "answered out of turn")
        return reply

    def fail(self, rid, kind, message):
        self.kill_case()
        self.ended = message
        return {"id": rid, "error": {"kind": kind, "type": "", "message": message, "trace": []}}

    def reap(self):
        """How the case's process ended, once it closed its pipe (it is given a moment to end,
        then ended)."""
        import time

        for _ in range(100):
            try:
                pid, status = os.waitpid(self.child, os.WNOHANG)
            except ChildProcessError:
                self.child = None
                return "ended"
            if pid:
                self.child = None
                return described_status(status)
            time.sleep(0.002)
        return "closed its pipe to the host"

    def kill_case(self):
        """Ends the case's process and everything it started; returns what it had besides its
        own thread (for the record: none of it outlives the case)."""
        seen = []
        self.running = []
        if self.child is not None:
            tasks = self.tasks(self.child)
            # Threads of the case still computing (the kernel's state R), its main thread
            # aside (it waits for the next request).
            self.running = [t for t in tasks if t != str(self.child) and self.state(self.child, t) == "R"]
            if len(tasks) > 1:
                seen.append("%d thread(s) besides the main one" % (len(tasks) - 1))
            if any(self.children_of(self.child, t) for t in tasks):
                seen.append("processes it started")
            for kill in (os.killpg, os.kill):
                try:
                    kill(self.child, signal.SIGKILL)
                except OSError:
                    pass
            self.wait(self.child)
        for fd in (self.to_child, self.from_child.fd if self.from_child else None):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.to_child = self.from_child = None
        self.child = None
        # Whatever the case started ends too: a process that left its group came to the zygote
        # (a subreaper) when its parent died.
        while True:
            orphans = [c for t in self.tasks(os.getpid()) for c in self.children_of(os.getpid(), t)]
            if not orphans:
                return seen
            for pid in orphans:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
                self.wait(pid)

    @staticmethod
    def wait(pid):
        try:
            os.waitpid(pid, 0)
        except (ChildProcessError, InterruptedError):
            pass

    @staticmethod
    def state(pid, task):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, task)) as f:
                return f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return "?"

    @staticmethod
    def tasks(pid):
        try:
            return os.listdir("/proc/%d/task" % pid)
        except OSError:
            return []

    @staticmethod
    def children_of(pid, task):
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                return [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            return []

    def forward(self, rid, line):
        if self.child is None:
            why = self.ended or "no case has begun (send reset)"
            return {"id": rid, "error": {"kind": "died", "type": "", "message": why, "trace": []}}
        if self.from_child.pending():
            return self.fail(rid, "garbled", "wrote out of turn")
        try:
            os.write(self.to_child, line + b"\n")
        except OSError:
            return self.fail(rid, "died", self.reap())
        return self.receive(rid)

    def serve(self):
        preload_support(self.support, self.submission)
        self.respond({
            "hello": "arbiter-host",
            "protocol": PROTOCOL,
            "host": "python %d.%d.%d" % sys.version_info[:3],
            "features": ["end"],
        })
        lines = Lines(self.protocol_in, 64 << 20)
        while True:
            try:
                line = lines.read()
            except ValueError:
                return
            if line is None:
                self.kill_case()
                return
            try:
                request = json.loads(line)
                rid, op, args = request["id"], request["op"], request.get("args") or {}
            except (ValueError, KeyError, TypeError) as exc:
                self.respond({"id": None, "error": {"kind": "protocol", "type": type(exc).__name__,
                                                    "message": str(exc), "trace": []}})
                continue
            if op == "quit":
                self.kill_case()
                self.respond({"id": rid, "ok": None})
                return
            if op == "load":
                module = args.get("module")
                if not isinstance(module, str) or "/" in module or not module.endswith(".py"):
                    self.respond({"id": rid, "error": {"kind": "protocol", "type": "ProtocolError",
                                                       "message": "load needs a module file name such as a1.py",
                                                       "trace": []}})
                    continue
                self.module_file = module
                self.python_version = args.get("python")
                self.compiled = Compiled(self.submission, module, self.python_version)
            if op in ("load", "reset"):
                if self.module_file is None:
                    self.respond({"id": rid, "error": {"kind": "protocol", "type": "ProtocolError",
                                                       "message": "reset before load", "trace": []}})
                    continue
                reply = self.fork_case()
                reply["id"] = rid
                self.respond(reply)
            elif op == "end":
                # Nothing is left: the case's process is gone with all it started, and the
                # files it wrote with it.
                killed = self.kill_case()
                left = [] if clear_folder() else ["files it wrote in its folder could not be removed"]
                running = ["%s (thread %s)" % (self.module_file, t) for t in self.running]
                self.respond({"id": rid, "ok": {"left": left, "killed": killed, "running": running}})
            else:
                self.respond(self.forward(rid, line))


def preload_support(support, submission):
    """Imports the course's support modules (the grader's files or arbiter's, never the
    submission's) in the zygote, once: each case's child finds them already imported, as
    fresh as they were, instead of importing them again. Only the support folder and the
    standard library are on the path meanwhile, so that nothing of the submission runs here;
    a support module that cannot be imported that way is left to each case, as before."""
    if not support or not os.path.isdir(support):
        return
    path = sys.path[:]
    sys.path[:] = [support] + [p for p in path if os.path.abspath(p) not in (support, submission)]
    try:
        for name in sorted(os.listdir(support)):
            if not name.endswith(".py"):
                continue
            before = set(sys.modules)
            try:
                importlib.import_module(name[:-3])
            except BaseException:
                for added in set(sys.modules) - before:
                    del sys.modules[added]
    finally:
        sys.path[:] = path


def clear_folder():
    """Empties the host's working folder, where a case may write: nothing of one case's is
    there for the next. Says whether everything went."""
    ok = True
    for name in os.listdir("."):
        try:
            if os.path.isdir(name) and not os.path.islink(name):
                shutil.rmtree(name)
            else:
                os.unlink(name)
        except OSError:
            ok = False
    return ok


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: arbiter_host.py SUBMISSION_DIR [SUPPORT_DIR]\n")
        sys.exit(2)
    submission = os.path.abspath(sys.argv[1])
    support = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    # The support module (a1_support.py) is found beside the submission's module, as the
    # course runs it; the grader's own copy comes first.
    sys.path[:0] = [p for p in (support, submission) if p]
    sys.argv = [os.path.join(submission, "a1.py")]
    # The protocol's pipes are the zygote's alone: file descriptor 0 reads nothing and 1 is
    # stderr, in the zygote and in every child.
    protocol_in = os.dup(0)
    protocol_out = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = io.StringIO("")
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    Zygote(submission, support, protocol_in, protocol_out).serve()


if __name__ == "__main__":
    main()

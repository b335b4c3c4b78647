"""A hostile test submission: state kept across cases, threads left running, writes aimed at
the host's protocol and memory. Each function returns what it got away with."""
import builtins
import os
import threading


def count():
    """A counter in builtins: a fresh interpreter state gives 1 in every case."""
    builtins.arbiter_count = getattr(builtins, "arbiter_count", 0) + 1
    return builtins.arbiter_count


def note():
    """A file in the working folder: what an earlier case left there (None when nothing)."""
    found = None
    if os.path.exists("note.txt"):
        with open("note.txt") as f:
            found = f.read()
    with open("note.txt", "w") as f:
        f.write("left by an earlier case")
    return found


def spin_after():
    """A thread that computes after the call returns."""

    def spin():
        while True:
            pass

    threading.Thread(target=spin, daemon=True).start()
    return 1


def add(a, b):
    return a + b


def forge():
    """A reply written wherever it can be: file descriptor 1 and any other open one."""
    line = b'{"id": %d, "ok": "forged", "stdout": ""}\n'
    wrote = 0
    for fd in range(0, 64):
        for rid in range(1, 40):
            try:
                os.write(fd, line % rid)
                wrote += 1
            except OSError:
                break
    return wrote >= 0


def parent_memory():
    """The host's memory through /proc: "refused" when it cannot be opened for writing."""
    try:
        with open("/proc/%d/mem" % os.getppid(), "r+b"):
            return "opened"
    except OSError:
        return "refused"

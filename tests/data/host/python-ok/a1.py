"""A test submission: functions that print, return tuples, throw, loop and sleep."""
import time

calls = 0


def add(a, b):
    global calls
    calls += 1
    print("adding", a, b, "call", calls)
    return (a + b, [a, b])


def boom():
    raise ValueError("no")


def spin():
    while True:
        pass


def nap():
    time.sleep(60)


def main():
    while True:
        move = input("Move: ")
        print("got", move)
        if move == "q":
            return


if __name__ == "__main__":
    main()


def peek(path):
    """What a hostile submission tries: read a file it was not given (None when refused)."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def warn(text):
    """Writes `text` to stderr (a case's own words there)."""
    import sys
    print(text, file=sys.stderr)


def processors():
    """The processors this case may run on."""
    import os
    return sorted(os.sched_getaffinity(0))

"""pwbot.py's strategy, answering each turn after a 30 ms pause: an opponent that leaves the
other side's threads time to run between its turns (tests/planetwars_host.rs)."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pwbot  # noqa: E402


def main():
    print(json.dumps({"hello": "arbiter-host", "protocol": 1, "host": "napper.py"}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        result = None
        if request["op"] == "new":
            result = {"name": "napper", "compete": False}
        elif request["op"] == "turn":
            time.sleep(0.03)
            result = pwbot.turn(request["args"])
        print(json.dumps({"id": request["id"], "ok": result}), flush=True)


if __name__ == "__main__":
    main()

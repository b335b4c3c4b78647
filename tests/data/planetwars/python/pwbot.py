"""A PlanetWars strategy that speaks arbiter's host protocol itself (docs/PROTOCOL.md): every
planet keeps half its people and sends the other half to its weakest neighbour not its own, when
that is enough to take it. A test bot for arbiter (MIT)."""
import json
import sys


def turn(view):
    planets = {p["id"]: p for p in view["planets"]}
    neighbours = {}
    for a, b, _ in view["edges"]:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    orders = []
    for p in view["planets"]:
        if p.get("owner") != "self":
            continue
        spare = p["population"] // 2
        targets = []
        for n in neighbours.get(p["id"], []):
            q = planets[n]
            if "owner" not in q or q["owner"] == "self":
                continue
            need = 1 if q["owner"] == "neutral" else q["population"] * 11 // 10 + 1
            if need <= spare:
                targets.append((need, n))
        if targets:
            orders.append({"from": p["id"], "to": min(targets)[1], "population": spare})
    return orders


def main():
    print(json.dumps({"hello": "arbiter-host", "protocol": 1, "host": "pwbot.py"}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        op, args = request["op"], request["args"]
        if op == "new":
            result = {"name": "pwbot", "compete": False}
        elif op == "turn":
            result = turn(args)
        elif op == "quit":
            print(json.dumps({"id": request["id"], "ok": None}), flush=True)
            return
        else:
            result = None
        print(json.dumps({"id": request["id"], "ok": result}), flush=True)


if __name__ == "__main__":
    main()

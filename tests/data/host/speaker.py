# A bot in plain Python that speaks arbiter's host protocol itself (docs/PROTOCOL.md).
import json
import sys

print(json.dumps({"hello": "arbiter-host", "protocol": 1, "host": "speaker"}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    op = request["op"]
    if op == "call":
        result = sum(request["args"]["args"])
        print(json.dumps({"id": request["id"], "ok": result}), flush=True)
    else:
        print(json.dumps({"id": request["id"], "ok": None}), flush=True)

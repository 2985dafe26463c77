#!/usr/bin/env python3
"""Where `runnect serve` spent a benchmark's requests, from its /metrics text (scripts/bench-serve.sh):
the mean time of each route answered 100 times or more, and of the store's transactions by kind
and outcome. One JSON line.

  bench_serve_metrics.py METRICS.TXT [BACKEND]
"""
import re, sys, json
text = open(sys.argv[1]).read()
def sums(name):
    out = {}
    for m in re.finditer(r'^%s_(sum|count)\{(.*)\} ([0-9.e+-]+)$' % name, text, re.M):
        kind, labels, value = m.groups()
        key = tuple(sorted(re.findall(r'(\w+)="([^"]*)"', labels)))
        out.setdefault(key, {})[kind] = float(value)
    return out
http = sums("runnect_http_request_duration_seconds")
store = sums("runnect_store_transaction_duration_seconds")
requests = sum(v.get("count", 0) for v in http.values())
rows = []
for key, v in sorted(http.items(), key=lambda kv: -kv[1].get("count", 0)):
    if v.get("count", 0) >= 100:
        labels = dict(key)
        rows.append({"route": labels.get("method", "") + " " + labels.get("route", ""), "requests": int(v["count"]),
                     "mean_ms": round(v["sum"] / v["count"] * 1000, 3)})
tx = {}
for key, v in store.items():
    labels = dict(key)
    if v.get("count", 0):
        tx[labels["kind"] + "/" + labels["outcome"]] = {"transactions": int(v["count"]), "mean_ms": round(v["sum"] / v["count"] * 1000, 3)}
print(json.dumps({"where_time_goes": {"backend": sys.argv[2] if len(sys.argv) > 2 else "", "routes": rows, "store": tx, "requests": int(requests)}}))

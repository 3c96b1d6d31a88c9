#!/usr/bin/env python3
"""Reads the text output of `swift package benchmark` and prints the p50 of each metric per
benchmark, plus Courier / baseline ratios for the pairs BENCHMARKS.md reports."""
import re, sys

text = re.sub(r'\x1b\[[0-9;]*m', '', open(sys.argv[1]).read())
results, current = {}, None
for line in text.splitlines():
    if re.match(r'^(build|encode|decode|round trip|memory)\b.*:', line):
        current = line.strip(); results[current] = {}
    elif current and line.startswith('│') and 'Metric' not in line:
        cells = [c.strip() for c in line.strip('│').split('│')]
        name, p50 = cells[0], cells[3]
        scale = 1000 if '(K)' in name else 1_000_000 if '(M)' in name and 'Memory' not in name else 1
        results[current][re.sub(r'\s*\((K|M|#|μs|# / s)\)|\s*\*', '', name).strip()] = float(p50) * scale

for bench, metrics in results.items():
    print(f"{bench}: " + ", ".join(f"{k}={v:g}" for k, v in metrics.items()))

pairs = [
    ("build: @API endpoint", "build: by hand (HTTPRequest + JSONEncoder)", "Time (wall clock)"),
    ("decode: Courier Response.decode", "decode: JSONDecoder alone", "Time (wall clock)"),
    ("encode: JSONEncoder with sorted keys (Courier's default)", "encode: JSONEncoder plain", "Time (wall clock)"),
] + [
    (f"round trip {m} c={c}: Courier on {t}", f"round trip {m} c={c}: raw {r}", "Throughput")
    for m in ("GET", "POST") for c in (1, 64) for t, r in (("AsyncHTTPClient", "HTTPClient"), ("URLSession", "URLSession"))
]
print()
for a, b, metric in pairs:
    if a in results and b in results:
        ma, mb = results[a], results[b]
        ratio = ma[metric] / mb[metric]
        mallocs = ma.get("Malloc (total)", 0) - mb.get("Malloc (total)", 0)
        print(f"{a} / baseline: {metric} ratio {ratio:.2f}, mallocs {ma.get('Malloc (total)', 0):g} vs {mb.get('Malloc (total)', 0):g} (+{mallocs:g})")

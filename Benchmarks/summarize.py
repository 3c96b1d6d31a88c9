#!/usr/bin/env python3
"""Reads the text output of `swift package benchmark` and prints the p50 of each metric per
benchmark, then the Courier / baseline ratios that BENCHMARKS.md reports."""
import re, sys

text = re.sub(r'\x1b\[[0-9;]*m', '', open(sys.argv[1]).read())
results, current = {}, None
for line in text.splitlines():
    if re.match(r'^(build|encode|decode|round trip|mallocs|memory)\b.*:', line):
        current = line.strip(); results[current] = {}
    elif current and line.startswith('│') and 'Metric' not in line:
        cells = [c.strip() for c in line.strip('│').split('│')]
        name, p50 = cells[0], cells[3]
        unit = re.search(r'\((K|M)\)', name)
        scale = {'K': 1_000, 'M': 1_000_000}[unit.group(1)] if unit and 'Memory' not in name else 1
        key = re.sub(r'\s*\((K|M|#|# / s)\)|\s*\*', '', name).strip()
        results[current][key] = float(p50) * scale

for bench, metrics in results.items():
    print(f"{bench}: " + ", ".join(f"{k}={v:g}" for k, v in metrics.items()))
print()

def ratio(a, b, metric, invert=False):
    if a in results and b in results and metric in results[a] and metric in results[b]:
        x, y = results[a][metric], results[b][metric]
        return (y / x) if invert else (x / y)

for a, b, label in [
    ("build: @API endpoint", "build: by hand (HTTPRequest + JSONEncoder)", "build time"),
    ("decode: Courier Response.decode", "decode: JSONDecoder alone", "decode time"),
    ("encode: JSONEncoder with sorted keys (Courier's default)", "encode: JSONEncoder plain", "sorted-key encode time"),
]:
    r = ratio(b, a, "Throughput")
    ma, mb = results.get(a, {}).get("Malloc (total)"), results.get(b, {}).get("Malloc (total)")
    if r is None: continue
    print(f"{label}: Courier / baseline = {r:.2f}; mallocs {ma:g} vs {mb:g}")

for bench, metrics in results.items():
    if bench.startswith("round trip") and "Courier batch (μs)" in metrics:
        c, r = metrics["Courier batch (μs)"], metrics["raw batch (μs)"]
        print(f"{bench.replace(': Courier vs raw', '')}: throughput Courier / raw = {r / c:.2f} (p50 batch {c:g} μs vs {r:g} μs)")

for bench in results:
    if bench.startswith("mallocs") and bench.endswith(": Courier"):
        raw = bench.replace(": Courier", ": raw")
        a, b = results[bench].get("Malloc (total)"), results.get(raw, {}).get("Malloc (total)")
        if a is not None and b is not None:
            print(f"{bench.replace(': Courier', '')}: mallocs per round trip {a:g} vs {b:g} (+{a - b:g})")

#!/usr/bin/env python3
"""Reads the text output of `swift package benchmark` and prints the p50 of each metric per
benchmark, then the Courier / baseline ratios that BENCHMARKS.md reports.

    python3 summarize.py OUTPUT.txt

`check.py` imports `parse` from here."""
import re, sys


def parse(text):
    """{benchmark name: {metric: p50}} from the text tables of a run."""
    text = re.sub(r'\x1b\[[0-9;]*m', '', text)
    results, current = {}, None
    for line in text.splitlines():
        if re.match(r'^(build|build and send|encode|decode|round trip|mallocs|memory|events)\b.*:', line):
            current = line.strip(); results[current] = {}
        elif current and line.startswith('│') and 'Metric' not in line:
            cells = [c.strip() for c in line.strip('│').split('│')]
            name, p50 = cells[0], cells[3]
            unit = re.search(r'\((K|M)\)', name)
            scale = {'K': 1_000, 'M': 1_000_000}[unit.group(1)] if unit and 'Memory' not in name else 1
            key = re.sub(r'\s*\((K|M|#|# / s)\)|\s*\*', '', name).strip()
            results[current][key] = float(p50) * scale
    return results


def time_ratio(results, a, b):
    """How many times longer `a` takes than `b`, from their throughputs."""
    x, y = results.get(a, {}).get("Throughput"), results.get(b, {}).get("Throughput")
    return y / x if x and y else None


def round_trips(results):
    """(pair name, Courier throughput / baseline throughput, Courier p50, baseline p50)."""
    for bench, metrics in results.items():
        if bench.startswith("round trip") and "Courier batch (μs)" in metrics:
            c, r = metrics["Courier batch (μs)"], metrics["raw batch (μs)"]
            yield bench.replace(': Courier vs raw', ''), r / c, c, r


def mallocs(results):
    """(pair name, Courier mallocs, baseline mallocs)."""
    for bench in results:
        if bench.startswith("mallocs") and bench.endswith(": Courier"):
            a, b = results[bench].get("Malloc (total)"), results.get(bench.replace(": Courier", ": raw"), {}).get("Malloc (total)")
            if a is not None and b is not None:
                yield bench.replace(': Courier', ''), a, b


def decode_pair(results):
    """Courier's decode time / JSONDecoder's, from the alternating pair; None when it did not run."""
    metrics = results.get(DECODE_PAIR, {})
    c, r = metrics.get("Courier batch (μs)"), metrics.get("raw batch (μs)")
    return c / r if c and r else None


DECODE_PAIR = "decode pair: Courier Response.decode vs JSONDecoder alone"
BUILD = ("build: @API endpoint", "build: by hand (HTTPRequest + JSONEncoder)")
DECODE = ("decode: Courier Response.decode", "decode: JSONDecoder alone")
ENCODE = ("encode: JSONEncoder with sorted keys (Courier's default)", "encode: JSONEncoder plain")


def main(path):
    results = parse(open(path).read())
    for bench, metrics in results.items():
        print(f"{bench}: " + ", ".join(f"{k}={v:g}" for k, v in metrics.items()))
    print()
    for (a, b), label in [(BUILD, "build time"), (DECODE, "decode time"), (ENCODE, "sorted-key encode time")]:
        r = time_ratio(results, a, b)
        if r is None: continue
        ma, mb = results.get(a, {}).get("Malloc (total)"), results.get(b, {}).get("Malloc (total)")
        print(f"{label}: Courier / baseline = {r:.2f}; mallocs {ma:g} vs {mb:g}")
    pair = decode_pair(results)
    if pair is not None:
        print(f"decode time in alternation: Courier / JSONDecoder = {pair:.3f}")
    for name, ratio, c, r in round_trips(results):
        print(f"{name}: throughput Courier / raw = {ratio:.3f} (p50 batch {c:g} μs vs {r:g} μs)")
    for name, a, b in mallocs(results):
        print(f"{name}: mallocs per round trip {a:g} vs {b:g} (+{a - b:g})")


if __name__ == "__main__":
    main(sys.argv[1])

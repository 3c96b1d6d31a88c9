#!/usr/bin/env python3
"""CPU per request by module, from two `perf record -e cpu-clock -F 4000` profiles of
PipelineProfile: Swift code in the binary is attributed to its module (read from the mangled
name), everything else to its shared object or to the kernel; each bucket's samples are divided by
the number of requests. The last column is the first profile minus the last.

    perf record -e cpu-clock -F 4000 -o ahc.data .build/release/PipelineProfile 20000 ahc
    perf record -e cpu-clock -F 4000 -o raw.data .build/release/PipelineProfile 20000 ahc-raw
    python3 profile_buckets.py 20000 ahc.data raw.data
"""
import re, subprocess, sys

FREQUENCY = 4000


def bucket(dso, kind, symbol):
    if kind == "k":
        return "kernel"
    for part, name in (("libc", "libc"), ("ld-linux", "libc"), ("dispatch", "libdispatch"),
                       ("Concurrency", "Swift concurrency runtime"), ("swiftCore", "Swift runtime and stdlib"),
                       ("Foundation", "Foundation"), ("icu", "Foundation")):
        if part in dso:
            return name
    module = re.match(r"\$s(\d+)", symbol)
    if not module:
        return "other code in the binary"
    length = int(module.group(1))
    start = 2 + len(module.group(1))
    name = symbol[start:start + length]
    if name.startswith("NIO") or name.startswith("_NIO"):
        return "NIO"
    return name


def load(path):
    report = subprocess.run(["perf", "report", "-i", path, "--stdio", "--no-demangle", "--no-children",
                             "--sort", "dso,sym", "-g", "none"], capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"# Event count \(approx\.\): (\d+)", report).group(1)) / (1e9 / FREQUENCY)
    buckets = {}
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(\S+)", line)
        if match:
            name = bucket(match.group(2), match.group(3), match.group(4))
            buckets[name] = buckets.get(name, 0) + float(match.group(1)) / 100 * total
    return total, buckets


requests = int(sys.argv[1])
profiles = [load(path) for path in sys.argv[2:]]
per_request = 1e6 / FREQUENCY / requests
names = sorted({name for _, buckets in profiles for name in buckets}, key=lambda n: -profiles[0][1].get(n, 0))
print("%-30s" % "µs of CPU per request", *("%12s" % path[-12:] for path in sys.argv[2:]), "  difference")
for name in names:
    values = [buckets.get(name, 0) * per_request for _, buckets in profiles]
    if max(values) >= 0.1:
        print("%-30s" % name[:30], *("%12.1f" % value for value in values), "%12.1f" % (values[0] - values[-1]))
totals = [total * per_request for total, _ in profiles]
print("%-30s" % "total", *("%12.1f" % value for value in totals), "%12.1f" % (totals[0] - totals[-1]))

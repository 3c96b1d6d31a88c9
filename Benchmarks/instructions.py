#!/usr/bin/env python3
"""Counts the instructions one request costs the client, exactly, with Valgrind's callgrind:
PipelineProfile runs a mode twice, with N and 2N requests, and the difference divided by N is
the cost per request, with start-up and shut-down cancelled out.

    python3 instructions.py                       # modes ahc and ahc-raw, N = 2000
    python3 instructions.py courier 20000         # one mode, another N

The `ahc*` modes talk to `profile_server.py` in another process (started here, and stopped
after), so only the client is counted. Valgrind 3.19 cannot read the DWARF 5 debug information
Swift writes, so it runs a copy of the binary stripped of it (the symbols stay). Hashing is made
deterministic (SWIFT_DETERMINISTIC_HASHING): an in-memory mode then repeats its count to within
about 10 instructions per request. Over the network, the event loop's timing makes two runs of the
same binary differ by up to about 7,000 (of some 290,000): compare the medians of a few runs.
Between two builds, compare the counts without the metadata cache's probes (below).
"""
import os, re, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))


# The runtime's metadata cache is a hash table keyed by addresses, so how long its lookups probe
# depends on where a build's types happen to lie: two builds of the same code differed by 3,300
# instructions per request there alone. Counts are also given without those two functions.
PROBES = ("ConcurrentReadableHashMap", "MetadataCacheKey::operator==")


def count(binary, requests, mode):
    """(all instructions, those outside the metadata cache's probes) of one run."""
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out", binary, str(requests), mode],
            capture_output=True, text=True, env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"},
        )
        found = re.search(r"Collected : (\d+)", result.stderr)
        if result.returncode != 0 or not found:
            sys.exit(f"valgrind failed on {mode} ({requests} requests):\n{result.stderr[-2000:]}")
        listing = subprocess.run(["callgrind_annotate", "--threshold=100", f"{folder}/out"], capture_output=True, text=True, check=True).stdout
    probes = sum(
        int(line.split()[0].replace(",", ""))
        for line in listing.splitlines()
        if any(probe in line for probe in PROBES) and re.match(r"\s*[\d,]+\s", line)
    )
    total = int(found.group(1))
    return total, total - probes


def main():
    modes = [sys.argv[1]] if len(sys.argv) > 1 else ["ahc", "ahc-raw"]
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    subprocess.run(["swift", "build", "-c", "release", "--product", "PipelineProfile"], cwd=here, check=True)
    built = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=here, check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        binary = os.path.join(folder, "PipelineProfile")
        shutil.copy(os.path.join(built, "PipelineProfile"), binary)
        subprocess.run(["strip", "--strip-debug", binary], check=True)
        server = None
        if any(mode.startswith("ahc") for mode in modes):
            server = subprocess.Popen([sys.executable, os.path.join(here, "profile_server.py")])
            time.sleep(0.5)
        try:
            for mode in modes:
                once, twice = count(binary, requests, mode), count(binary, 2 * requests, mode)
                print(
                    f"{mode}: {(twice[0] - once[0]) / requests:,.0f} instructions per request, "
                    f"{(twice[1] - once[1]) / requests:,.0f} without the metadata cache's probes"
                )
        finally:
            if server:
                server.terminate()


if __name__ == "__main__":
    main()

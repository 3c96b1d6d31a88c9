#!/usr/bin/env python3
"""Runs the benchmarks that Courier's performance targets are set on, once, and checks each
ratio against its target; exits 1 when any target is missed.

    python3 check.py                 # build in release, run, save to results/check-<time>.txt, check
    python3 check.py --from FILE     # check the output of an earlier run

Targets (medians of the alternating pairs of one run):
- round trip GET and POST, concurrency 1 and 64, on AsyncHTTPClient and on URLSession, and on
  AsyncHTTPClient over TLS with HTTP/1.1 and with HTTP/2 (the raw client with the same TLS
  configuration): Courier's throughput at least 0.97 of the raw transport's;
- the same GET on AsyncHTTPClient against the client swift-openapi-generator made from
  OpenAPIPeer/openapi.yaml, over its AsyncHTTPClient transport: at least 1.00;
- with the standard retry policy configured and idle: within 2 % of the same provider without one,
  the bias of the pair's order removed by running both orders (the cost is the square root of the
  ratio of the two);
- building the benchmark request at most 1.3 times the hand-built one; decoding at most 1.05
  times `JSONDecoder`, timed in alternation with it (the separate decode benchmarks give the
  allocations);
- allocations per round trip at most the raw transport's plus 10;
- the control, the raw client against itself, within 0.03 of 1.00 at c=1 and 0.05 at c=64 (fewer
  batches): a harness that is not even makes every other ratio of the run meaningless.
"""
import datetime, math, os, re, subprocess, sys

from summarize import BUILD, DECODE, decode_pair, mallocs, parse, round_trips, time_ratio

FILTERS = [
    "round trip (GET|POST), (AsyncHTTPClient|URLSession), c=.*",
    "round trip (GET|POST), AsyncHTTPClient over TLS, HTTP/(1.1|2), c=.*",
    "round trip (GET|POST), AsyncHTTPClient vs the OpenAPI generator's client, c=.*",
    "round trip GET, AsyncHTTPClient, raw vs raw \\(control\\), c=.*",
    "round trip GET, AsyncHTTPClient, (retry policy idle vs none|no retry policy vs an idle one), c=.*",
    "mallocs (GET|POST), (AsyncHTTPClient|URLSession): .*",
    "build: .*",
    "build and send: .*",
    "decode: .*",
    "decode pair: .*",
]

RETRY, RETRY_SWAPPED = "retry policy idle vs none", "no retry policy vs an idle one"


def run():
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run(["swift", "build", "-c", "release", "--product", "CourierBenchmarks"], cwd=here, check=True)
    command = ["swift", "package", "benchmark", "--no-progress"]
    for pattern in FILTERS:
        command += ["--filter", pattern]
    output = subprocess.run(command, cwd=here, check=True, capture_output=True, text=True).stdout
    os.makedirs(os.path.join(here, "results"), exist_ok=True)
    path = os.path.join(here, "results", datetime.datetime.now().strftime("check-%Y-%m-%d-%H%M.txt"))
    with open(path, "w") as file:
        file.write(output)
    print(f"saved {path}")
    return output


def checks(results):
    """(what, measured, target, whether it is met) for each target."""
    trips = {name: ratio for name, ratio, _, _ in round_trips(results)}
    for name, ratio in sorted(trips.items()):
        if not re.fullmatch(r"round trip (GET|POST), (AsyncHTTPClient|URLSession)( vs the OpenAPI generator's client| over TLS, HTTP/(1\.1|2))?, c=\d+", name):
            continue
        target = 1.00 if "OpenAPI generator" in name else 0.97
        yield f"{name}: throughput / baseline", ratio, f">= {target:.2f}", ratio >= target
    for concurrency, band in ((1, 0.03), (64, 0.05)):
        # The harness itself: the raw client on both sides must measure even, or no ratio of
        # this run means anything. At c=64 a side has about 150 batches, whose medians differ by
        # 2-3 % by chance alone, so its band is wider. A control that did not run is a miss.
        name = f"round trip GET, AsyncHTTPClient, raw vs raw (control), c={concurrency}"
        ratio = trips.get(name)
        within = ratio is not None and abs(ratio - 1) <= band
        yield f"{name}: identical sides", ratio if ratio is not None else float("nan"), f"1 ± {band:.2f}", within
    for concurrency in (1, 64):
        first = trips.get(f"round trip GET, AsyncHTTPClient, {RETRY}, c={concurrency}")
        second = trips.get(f"round trip GET, AsyncHTTPClient, {RETRY_SWAPPED}, c={concurrency}")
        if first and second:
            cost = math.sqrt(first / second)
            yield f"idle retry policy, GET c={concurrency}: throughput with / without", cost, ">= 0.98", cost >= 0.98
    for (a, b), label, target in [(BUILD, "build time, Courier / by hand", 1.3), (DECODE, "decode time, Courier / JSONDecoder", 1.05)]:
        ratio = time_ratio(results, a, b)
        # Decoding is judged on the alternating pair when the run has it: the two separate
        # benchmarks drift apart by more than the 5 % in question.
        pair = decode_pair(results) if a == DECODE[0] else None
        if pair is not None:
            yield "decode time, Courier / JSONDecoder, in alternation", pair, f"<= {target:.2f}", pair <= target
        elif ratio is not None:
            yield label, ratio, f"<= {target:.2f}", ratio <= target
    for name, courier, raw in mallocs(results):
        if not re.fullmatch(r"mallocs (GET|POST), (AsyncHTTPClient|URLSession)", name):
            continue
        yield f"{name}: allocations over raw", int(courier - raw), "<= 10", courier - raw <= 10


def main(arguments):
    if arguments[:1] == ["--from"]:
        text = open(arguments[1]).read()
    else:
        text = run()
    rows = list(checks(parse(text)))
    if not rows:
        print("no benchmark results found")
        return 1
    width = max(len(row[0]) for row in rows)
    for what, measured, target, met in rows:
        value = f"{measured:.3f}" if isinstance(measured, float) else f"{measured:g}"
        print(f"{'ok  ' if met else 'MISS'} {what:<{width}}  {value:>8}  {target}")
    missed = sum(1 for row in rows if not row[3])
    print(f"{len(rows) - missed} of {len(rows)} targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

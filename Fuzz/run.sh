#!/usr/bin/env bash
# Builds Courier's libFuzzer targets and runs each for a fixed number of executions.
#
#   Fuzz/run.sh [RUNS] [TARGET...]
#
# RUNS defaults to 10000000 executions per target; TARGETs default to all of them. Each target
# runs on a temporary copy of its seed corpus (Fuzz/Corpus/<target>), so the committed corpus
# stays small, with a 5 s limit per input, 2048 MB of RSS and 512 MB for one allocation. An input
# that crashes, hangs or allocates past those limits is saved under Fuzz/artifacts/<target>/ and
# the script exits non-zero. FUZZ_CONFIGURATION=debug builds in debug (faster to build, slower to
# run: what .ci/run uses to check that every target builds and runs). FUZZ_SKIP_BUILD=1 reuses the last build; FUZZ_EXTRA_ARGS adds libFuzzer
# options (e.g. "-max_total_time=3600"). FUZZ_MAX_LEN sets the longest input (4096 bytes unless
# set; an execution's time grows with its input, see README.md). FUZZ_CORPUS_DIR=<dir> keeps each target's working corpus
# in <dir>/<target> (seeded from Corpus/<target> the first time) instead of a temporary copy, so a
# later run goes on from where an earlier one stopped; Fuzz/.corpus is ignored by git for this.
#
# How the targets reach the parsers. Fuzz/ is a package of its own that depends on Courier by path,
# so the main package never compiles it. The parsers are internal, and `@testable import` needs
# `-enable-testing`, which release builds lack; so Courier declares one small entry point per
# internal parser in Sources/Courier/Support/FuzzingEntryPoints.swift, as
# `@_spi(Fuzzing) public`: invisible to ordinary clients, and no change to any parser. Public
# parsers (`Cookie(setCookie:)`, `URLFormDecoder`, `HeaderValue`, `Response.decodeBody`) are
# called as clients call them. Compiling the parser files into the fuzz targets instead (through
# a symlinked source folder) does not work here: they use `Response`, `CourierError`,
# `RequestBuilder`, `Provider` and `Locked`, which pull in most of the module, and the module
# itself needs targets (`CourierMacros`, `CourierHTTPClientTransport`) that another package cannot
# name. The whole build is instrumented, so that libFuzzer sees coverage inside Courier (flags in
# Fuzz/Package.swift would reach the harnesses only); SwiftNIO, AsyncHTTPClient and swift-syntax
# are compiled that way too, at the cost of a longer first build, and never run.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
runs="${1:-10000000}"
shift || true

# Each target and what it covers; the seed corpus of each is Fuzz/Corpus/<target>.
all_targets=(
    FuzzCookies      # Set-Cookie splitting and parsing, CookieJar receive(_:from:) and header(for:)
    FuzzURLForm      # URLFormDecoder and the form parser under it
    FuzzHeaderValue  # HeaderValue: String, Int, Int64, Double, Bool, URL, Date
    FuzzContentType  # the Content-Type charset parameter and text bodies read in that charset
    FuzzRetryAfter   # Retry-After: delay-seconds or an HTTP date, as the retry policy reads it
    FuzzLink         # the Link header (RFC 8288), as pagination reads it
    # A new parser of server input gets a target here, a Sources/<target> folder, a line in
    # Package.swift and a seed corpus in Corpus/<target>.
)
if [[ $# -gt 0 ]]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

# Instrumentation without the driver's libFuzzer link step (`-sanitize=fuzzer` would link
# libFuzzer's `main` into Courier's macro plugin too, which has its own): the frontend's
# `-sanitize=fuzzer` everywhere, and the no-main runtime linked into every executable.
swiftc_bin="$(command -v swiftc)"
runtime=("$(dirname "$(readlink -f "$swiftc_bin")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a)
[[ -f "${runtime[0]}" ]] || { echo "libFuzzer's runtime is not in this toolchain" >&2; exit 2; }
build=(swift build -c "${FUZZ_CONFIGURATION:-release}" --scratch-path "$here/.build" --package-path "$here"
    --disable-experimental-prebuilts
    -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer
    -Xlinker "$(readlink -f "${runtime[0]}")" -Xlinker -lstdc++ -Xlinker -lm)
if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
    echo "== building (${FUZZ_CONFIGURATION:-release}, instrumented for libFuzzer)"
    started=$(date +%s)
    # SwiftPM plans a build again only when a manifest changed: without this, a file added to
    # Courier (a dependency by path) is left out of the build and the build fails or is stale.
    touch "$here/Package.swift"
    nice -n 10 "${build[@]}"
    echo "== built in $(( $(date +%s) - started )) s"
fi
bin="$("${build[@]}" --show-bin-path)"

# Let libFuzzer handle a trap (Swift's backtracer would take the signal first and no input would be saved).
export SWIFT_BACKTRACE=enable=no

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

failed=0
summary=()
for target in "${targets[@]}"; do
    [[ -x "$bin/$target" ]] || { echo "no such target: $target" >&2; exit 2; }
    [[ -d "$here/Corpus/$target" ]] || { echo "no seed corpus: Corpus/$target" >&2; exit 2; }
    if [[ -n "${FUZZ_CORPUS_DIR:-}" ]]; then corpus="$FUZZ_CORPUS_DIR/$target"; else corpus="$work/$target"; fi
    mkdir -p "$corpus" "$here/artifacts/$target"
    cp -n "$here/Corpus/$target"/* "$corpus"/
    log="$work/$target.log"
    echo "== $target: $runs executions"
    status=0
    # shellcheck disable=SC2086 # FUZZ_EXTRA_ARGS is a list of options
    nice -n 10 "$bin/$target" "$corpus" \
        -runs="$runs" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len="${FUZZ_MAX_LEN:-4096}" \
        -print_final_stats=1 -artifact_prefix="$here/artifacts/$target/" \
        ${FUZZ_EXTRA_ARGS:-} >"$log" 2>&1 || status=$?

    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    # Without final stats (a crash), the last status line tells how far it got.
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    [[ -n "$executed" ]] || executed=$(sed -E -n 's/^#([0-9]+).*/\1/p' <<<"$last")
    [[ -n "$speed" ]] || speed=$(sed -E -n 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$last")
    [[ -n "$rss" ]] || rss=$(sed -E -n 's/.*rss: ([0-9]+)Mb.*/\1/p' <<<"$last")
    if [[ $status -eq 0 ]]; then
        result="ok"
    else
        failed=1
        reason=$(grep -m1 -E '^==[0-9]+== ERROR|ERROR: libFuzzer|Fatal error|deadly signal' "$log" || true)
        result="FAILED (exit $status): ${reason:-see log}"
        echo "---- last lines of the $target log"
        tail -40 "$log"
        cp "$log" "$here/artifacts/$target/last-run.log"
    fi
    line=$(printf '%-16s executions=%-10s exec/s=%-7s peak_rss_mb=%-5s %s' \
        "$target" "${executed:-?}" "${speed:-?}" "${rss:-?}" "$result")
    echo "$line"
    summary+=("$line")
done

echo "== summary ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
printf '%s\n' "${summary[@]}"
exit $failed

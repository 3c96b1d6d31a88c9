import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`), found by its
/// runtime's entry point. Its shadow memory multiplies what the process holds, so bounds on the
/// growth of resident memory are scaled under it (`memoryScale`).
public let underThreadSanitizer: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// Whether the bounds on the growth of resident memory are measured where nothing else runs:
/// `COURIER_FAULT_MEMORY=1`, set by `.ci/run` for a run of the fault suite alone. The growth is
/// the whole process's, so in the full suite other suites' allocations count too.
public let measuresMemoryAlone = ProcessInfo.processInfo.environment["COURIER_FAULT_MEMORY"] == "1"

/// By how much a bound on the growth of resident memory is multiplied: 3 under ThreadSanitizer,
/// else 1; and 4 times that beside other suites, where a bound only tells bounded growth from the
/// gigabytes an unbounded body takes, `.ci/run`'s run alone holding the tight one.
public let memoryScale = (underThreadSanitizer ? 3 : 1) * (measuresMemoryAlone ? 1 : 4)

/// By how much a bound on elapsed time is multiplied: 2 under ThreadSanitizer, which slows every
/// access to memory, else 1. Only bounds that tell a slow run from a stuck one use it.
public let timeScale = underThreadSanitizer ? 2 : 1

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`), found by its
/// runtime's entry point. Its shadow memory multiplies what the process holds, so bounds on the
/// growth of resident memory are scaled under it (`memoryScale`).
public let underThreadSanitizer: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// By how much a bound on the growth of resident memory is multiplied: 3 under ThreadSanitizer,
/// else 1.
public let memoryScale = underThreadSanitizer ? 3 : 1

/// By how much a bound on elapsed time is multiplied: 2 under ThreadSanitizer, which slows every
/// access to memory, else 1. Only bounds that tell a slow run from a stuck one use it.
public let timeScale = underThreadSanitizer ? 2 : 1

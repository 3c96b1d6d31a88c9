import Courier
import CourierTestSupport
import Foundation
import Testing

/// Resident memory of this process, from `/proc/self/status` (Linux).
enum ResidentMemory {
    /// Makes the peak equal to what is resident now (`5` to `/proc/self/clear_refs`).
    static func resetPeak() {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            handle.write(Data("5".utf8))
            try? handle.close()
        }
    }

    /// The peak resident size since the last reset (`VmHWM`), in bytes.
    static var peak: Int { field("VmHWM") }
    /// The resident size now (`VmRSS`), in bytes.
    static var current: Int { field("VmRSS") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return (number.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }
}

/// What one fault did to one call: its error, how long it took and how far resident memory rose
/// above where it started.
struct FaultOutcome: Sendable {
    var error: CourierError?
    var elapsed: Duration
    var memoryGrowth: Int

    var megabytes: Int { memoryGrowth >> 20 }
}

/// Runs `call` under its own deadline, recording an issue if it is exceeded — nothing in the
/// fault suite may hang — and measures its time and its peak memory growth.
func fault(
    within deadline: Duration,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ call: @escaping @Sendable () async throws -> Void
) async -> FaultOutcome {
    ResidentMemory.resetPeak()
    let baseline = ResidentMemory.current
    let started = ContinuousClock.now
    let result: Result<Void, any Error>? = await withTaskGroup(of: Result<Void, any Error>?.self) { group in
        group.addTask {
            do {
                try await call()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        group.addTask {
            try? await Task.sleep(for: deadline)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    let elapsed = ContinuousClock.now - started
    let growth = max(0, ResidentMemory.peak - baseline)
    guard let result else {
        Issue.record("the call did not finish within \(deadline)", sourceLocation: sourceLocation)
        return FaultOutcome(error: nil, elapsed: elapsed, memoryGrowth: growth)
    }
    switch result {
    case .success:
        return FaultOutcome(error: nil, elapsed: elapsed, memoryGrowth: growth)
    case .failure(let error as CourierError):
        return FaultOutcome(error: error, elapsed: elapsed, memoryGrowth: growth)
    case .failure(let error):
        Issue.record("not a CourierError: \(error)", sourceLocation: sourceLocation)
        return FaultOutcome(error: nil, elapsed: elapsed, memoryGrowth: growth)
    }
}

/// Whether `condition` holds within `deadline`, asked every 10 ms.
func eventually(within deadline: Duration, _ condition: @Sendable () -> Bool) async -> Bool {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

extension TransportKind {
    /// A provider for the fault server on this transport, waiting at most `idle` for a byte.
    func faultProvider(idle: Duration = .seconds(2), port given: Int? = nil) async throws -> Provider {
        var provider: Provider
        if self == .asyncHTTPClientHTTPS {
            // The TLS listener of the fault server, or the port given spoken to over TLS.
            let port: Int
            if let given { port = given } else { port = try await FaultServer.tlsPort() }
            provider = try Provider(baseURL: "https://127.0.0.1:\(port)", trust: testTrust, transport: transport)
        } else {
            let port: Int
            if let given { port = given } else { port = try await FaultServer.port() }
            provider = Provider(baseURL: "http://127.0.0.1:\(port)", transport: transport)
        }
        provider.timeouts.idle = idle
        return provider
    }
}

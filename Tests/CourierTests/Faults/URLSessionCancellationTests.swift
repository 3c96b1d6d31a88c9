import Courier
import CourierTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// FoundationNetworking stops the process (`TaskRegistry.swift: Trying to access a behaviour for
/// a task that in not in the registry`) when a cancellation reaches a task that has already left
/// its session: swift-corelibs-foundation issue 3296, opened wide by a session's `URLCache` and
/// by cancelling tasks that have finished. These cases cancel calls at every stage, thousands of
/// times, with both cores kept busy, on the shared transport and on transports made from
/// configurations that carry a cache. A trap would take the test process down.
@Suite("URLSession: cancellation at every stage, under load", .serialized, .timeLimit(.minutes(2)))
struct URLSessionCancellationTests {
    /// The stages a call is cancelled at, each with its own server behaviour.
    enum Stage: CaseIterable {
        /// Before the call starts: the calling task is cancelled already.
        case beforeSending
        /// While a fast answer is on its way: the cancellation races the task's completion.
        case racingCompletion
        /// While the server has not answered yet.
        case waitingForHead
        /// After the head, while an endless body arrives.
        case midBody
        /// The streamed body dropped unread after the head.
        case bodyDropped
        /// After the call returned: the task has finished.
        case afterCompletion
        /// At the body limit, while an endless body arrives.
        case atBodyLimit
        /// A `POST`, which goes on a session of its own, cancelled while it is answered.
        case oneOffSession
    }

    @Test("Cancelling calls at every stage thousands of times, both cores busy, never stops the process")
    func cancellationStress() async throws {
        FaultServer.script("stress-head", [.after(.milliseconds(3), .answer(status: 200, body: "late"))])
        let base = try await FaultServer.baseURL()
        // The shared transport's configuration on a session of its own — libcurl runs every
        // cancellation of a session on one queue, so cancellations here must not hold the
        // session the other suites share — and two whose configurations carry a URLCache: the
        // default one (URLCache.shared) and an ephemeral one (a cache in memory).
        let transports = [
            URLSessionHTTPTransport(),
            URLSessionHTTPTransport(configuration: .default),
            URLSessionHTTPTransport(configuration: .ephemeral),
        ]
        let providers = transports.map { transport in
            var provider = Provider(baseURL: base, transport: transport)
            provider.timeouts.idle = .seconds(5)
            provider.responseBodyLimit = 256 << 10
            return provider
        }
        // Both cores kept busy only where nothing else runs (`.ci/run` runs this suite alone with
        // COURIER_STRESS=1): beside the other suites the load would starve their requests into
        // their timeouts. There the same stages run, fewer times, on the cores the suites leave.
        let alone = ProcessInfo.processInfo.environment["COURIER_STRESS"] == "1"
        let load = alone ? BusyCores(2) : nil
        defer { load?.stop() }
        let started = ContinuousClock.now
        // Quick exchanges first, a cancellation racing their completion most often (the race that
        // stopped the process); then bodies cancelled while they arrive.
        let quick: [Stage] = [.racingCompletion, .beforeSending, .racingCompletion, .waitingForHead, .afterCompletion, .oneOffSession]
        await Self.stress(quick, rounds: alone ? 2400 : 600, on: providers)
        await Self.stress([.midBody, .bodyDropped, .atBodyLimit], rounds: alone ? 600 : 150, on: providers)
        // A cancelled call returns at once; its task's cancellation follows. Every task has ended
        // once the session has reported each one complete: any trap would have come by then.
        let settled = await eventually(within: .seconds(30)) { transports.allSatisfy { $0.tasksInFlight == 0 } }
        #expect(settled, "tasks still in flight: \(transports.map(\.tasksInFlight))")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(60) * timeScale, "\(alone ? 3000 : 750) cancelled calls took \(elapsed)")
        // Every transport still answers.
        for provider in providers {
            #expect(try await provider.send(Request(.get, "/ok", receiving: .text)) == "ok")
        }
    }

    /// `rounds` calls, 16 at a time, each cancelled at the next of `stages` on the next of
    /// `providers`.
    static func stress(_ stages: [Stage], rounds: Int, on providers: [Provider]) async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<rounds {
                if index >= 16 { await group.next() }
                let provider = providers[index % providers.count]
                let stage = stages[(index / providers.count) % stages.count]
                group.addTask { await run(stage, on: provider, index: index) }
            }
        }
    }

    /// One call cancelled at `stage`; whatever it ends with, it ends.
    static func run(_ stage: Stage, on provider: Provider, index: Int) async {
        let jitter = Duration.microseconds(index % 7 * 150)
        switch stage {
        case .beforeSending:
            let call = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await provider.send(Request(.get, "/ok", receiving: .text))
            }
            _ = await call.result
        case .racingCompletion:
            await cancel(after: jitter) { _ = try await provider.send(Request(.get, "/ok?stress=\(index % 5)", receiving: .text)) }
        case .waitingForHead:
            await cancel(after: .milliseconds(1) + jitter) { _ = try await provider.send(Request(.get, "/script/stress-head", receiving: .text)) }
        case .midBody:
            await cancel(after: .milliseconds(2) + jitter) {
                let streamed = try await provider.send(Request(.get, "/endless", receiving: .stream))
                for try await _ in streamed.body {}
            }
        case .bodyDropped:
            await cancel(after: .seconds(5)) {
                let streamed = try await provider.send(Request(.get, index % 2 == 0 ? "/ok" : "/endless", receiving: .stream))
                _ = streamed.status
            }
        case .afterCompletion:
            let call = Task { try await provider.send(Request(.get, "/ok", receiving: .text)) }
            _ = await call.result
            call.cancel()
        case .atBodyLimit:
            await cancel(after: .seconds(5)) { _ = try await provider.send(Request(.get, "/endless", receiving: .data)) }
        case .oneOffSession:
            await cancel(after: jitter) { _ = try await provider.send(Request(.post, "/ok", receiving: .text).body(.text("x"))) }
        }
    }

    /// Runs `call` and cancels it after `delay`, waiting for it to end.
    static func cancel(after delay: Duration, _ call: @escaping @Sendable () async throws -> Void) async {
        let task = Task { try await call() }
        let timer = Task {
            try? await Task.sleep(for: delay)
            task.cancel()
        }
        _ = await task.result
        timer.cancel()
    }
}

/// Threads that keep `count` cores busy until stopped: the race needs a loaded machine.
final class BusyCores: Sendable {
    private let running = Locked(true)

    init(_ count: Int) {
        for _ in 0..<count {
            Thread.detachNewThread { [running] in
                #if os(Linux)
                // At the lowest priority (a nice value is per thread on Linux): the cores stay busy
                // whenever nothing else wants them, but the suites running beside this one are not
                // starved; under ThreadSanitizer they were, past their 10 s connect bounds.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                #endif
                var x: UInt64 = 1
                while running.withLock({ $0 }) {
                    for _ in 0..<10_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
                }
                if x == 0 { print(x) }
            }
        }
    }

    func stop() { running.withLock { $0 = false } }
}

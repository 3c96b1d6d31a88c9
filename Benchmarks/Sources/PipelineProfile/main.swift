// Sends requests through Courier's whole pipeline, for profiling (`perf record -e cpu-clock`),
// for counting instructions (`instructions.py` runs it under `valgrind --tool=callgrind`) and for
// counting allocations (a `malloc` interposer, or `gdb` breaking on `malloc`). Modes, to an
// in-memory transport: `courier` (default, a GET), `retry` (with the standard retry policy
// configured), `observed` (reporting to the in-memory tracer and the metrics test backend),
// `decode` (`JSONDecoder` alone), `response-decode` (`Response.decode` of the same body),
// `decode-compare` (the parts of `Response.decode` timed in alternation), `build` (the build
// benchmark's request head and body). Over the network, to a server at `PROFILE_SERVER` (default
// http://127.0.0.1:18080, `profile_server.py`) that answers every request with the user's JSON:
// `ahc` (Courier on AsyncHTTPClient), `ahc-raw` (the same GET with AsyncHTTPClient by hand, the
// same fields sent; `ahc-raw-bare` without the `Accept` field),
// `ahc-post` and `ahc-post-raw` (the benchmark's POST), one at a time or `PROFILE_CONCURRENCY` at
// a time; `ahc-compare` times the `ahc` and `ahc-raw` GETs in alternation. With the server in
// another process, the counts are the client's alone; `PROFILE_SERVER=inprocess` starts the
// benchmarks' server in this process instead. `PROFILE_TASKS=each` sends every request in a task
// of its own, as the benchmarks do: a task's first async frames come from slabs it allocates.
import AsyncHTTPClient
import BenchmarkModels
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import OpenAPIRuntime

let body = Data(#"{"id":42,"login":"ada","name":"Ada Lovelace","email":"ada@example.com","company":"Analytical Engines","location":"London","bio":"First programmer","followers":1815,"following":1852,"isAdmin":false}"#.utf8)

struct CannedTransport: ClientTransport {
    func send(_ request: HTTPRequest, body _: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .contentLength: String(body.count)]), HTTPBody(body))
    }
}

let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20000
let mode = CommandLine.arguments.dropFirst(2).first ?? "courier"
/// Off the main actor, as a server's request handlers run: no executor hop per call.
nonisolated func run(iterations: Int, mode: String) async throws -> Int {
    var provider = Provider(baseURL: "http://127.0.0.1:8080", transport: CannedTransport())
    // `retry`: the same, with the standard retry policy, which never retries a 200.
    if mode == "retry" { provider.retryPolicy = .standard }
    let tracer = InMemoryTracer()
    if mode == "observed" { provider.observability = Observability(tracer: tracer, metricsFactory: TestMetrics()) }
    let api = UsersAPI(provider: provider)
    let decoder = JSONDecoder()
    // `response-decode`: the decode benchmark's call, `Response.decode` on a response in memory.
    let canned = Response(
        head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
        body: body,
        request: RawRequest(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/42"), baseURL: URL(fileURLWithPath: "/"), operationID: "Users.user")
    )
    var total = 0
    if mode == "build" {
        // The build benchmark: the request head and body bytes `send` hands to the middleware.
        let issue = NewIssue(title: "Crash on launch", body: "Steps: open, tap, crash.", assignee: "ada", milestone: 3, draft: false)
        for _ in 0..<iterations {
            let request = try await provider.httpRequest(
                for: IssuesAPI.Requests.create(
                    org: "swift server", repo: "courier", label: "bug", page: 2, sort: "created",
                    title: issue.title, body: issue.body, assignee: issue.assignee, milestone: issue.milestone, draft: issue.draft
                )
            )
            total &+= request.0.path?.utf8.count ?? 0
        }
        return total
    }
    if mode.hasPrefix("ahc") {
        let named = ProcessInfo.processInfo.environment["PROFILE_SERVER"] ?? "http://127.0.0.1:18080"
        let server = named == "inprocess" ? "http://127.0.0.1:\(try await BenchmarkServer.start())" : named
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
        let networked = UsersAPI(provider: Provider(baseURL: server, client: client))
        // One request of the mode; `PROFILE_CONCURRENCY` (default 1) of them at a time, as the
        // round-trip benchmarks' batches.
        @Sendable func one() async throws -> Int {
            switch mode {
            case "ahc":
                return try await networked.user(id: 42).followers
            case "ahc-post":
                return try await networked.create(user: sampleUser).followers
            case "ahc-post-raw":
                var request = HTTPClientRequest(url: server + "/users")
                request.method = .POST
                request.headers.add(name: "Accept", value: "application/json")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(data: try sampleUser.sortedJSON()))
                let response = try await client.execute(request, timeout: rawDeadline)
                let body = try await response.body.collect(upTo: 1 << 20)
                return try JSONDecoder().decode(User.self, from: Data(buffer: body)).followers
            default:
                return try await rawGet(accept: mode != "ahc-raw-bare")
            }
        }
        // As the benchmarks' raw GET: the same fields as Courier's, `Accept` included;
        // `ahc-raw-bare` leaves it out.
        @Sendable func rawGet(accept: Bool = true) async throws -> Int {
            var request = HTTPClientRequest(url: server + "/users/42")
            if accept { request.headers.add(name: "Accept", value: "application/json") }
            let response = try await client.execute(request, timeout: rawDeadline)
            let body = try await response.body.collect(upTo: 1 << 20)
            return try JSONDecoder().decode(User.self, from: Data(buffer: body)).followers
        }
        if mode == "ahc-compare" {
            // Courier's GET and the raw one in alternation, which goes first drawn each time.
            var times: [Bool: Duration] = [true: .zero, false: .zero]
            for _ in 0..<iterations {
                for courier in Bool.random() ? [true, false] : [false, true] {
                    let start = ContinuousClock.now
                    total &+= courier ? try await networked.user(id: 42).followers : try await rawGet()
                    times[courier, default: .zero] += ContinuousClock.now - start
                }
            }
            print("Courier", times[true, default: .zero] / iterations, "per request, raw", times[false, default: .zero] / iterations)
            try await client.shutdown()
            return total
        }
        let concurrency = max(Int(ProcessInfo.processInfo.environment["PROFILE_CONCURRENCY"] ?? "") ?? 1, 1)
        // `PROFILE_TASKS=each`: every request in a task of its own, as the benchmarks send them.
        if concurrency == 1, ProcessInfo.processInfo.environment["PROFILE_TASKS"] != "each" {
            for _ in 0..<iterations { total &+= try await one() }
        } else {
            for _ in 0..<max(iterations / concurrency, 1) {
                total &+= try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<concurrency { group.addTask { try await one() } }
                    return try await group.reduce(0, &+)
                }
            }
        }
        try await client.shutdown()
        return total
    }
    for index in 0..<iterations {
        if index % 1000 == 999 { tracer.clearFinishedSpans() }
        switch mode {
        case "decode": total &+= try decoder.decode(User.self, from: body).followers
        case "response-decode": total &+= try canned.decode(User.self, using: decoder).followers
        default: total &+= try await api.user(id: 42).followers
        }
    }
    return total
}

/// `compare`: the `courier` and `retry` loops in alternation, 40 rounds of `iterations / 40`,
/// so that both see the same machine; prints the time per request of each and their ratio.
nonisolated func compare(iterations: Int) async throws {
    var times: [String: Duration] = ["courier": .zero, "retry": .zero]
    let round = max(iterations / 40, 1)
    for index in 0..<40 {
        for mode in index.isMultiple(of: 2) ? ["courier", "retry"] : ["retry", "courier"] {
            let start = ContinuousClock.now
            _ = try await run(iterations: round, mode: mode)
            times[mode, default: .zero] += ContinuousClock.now - start
        }
    }
    let courier = times["courier", default: .zero] / (round * 40)
    let retry = times["retry", default: .zero] / (round * 40)
    print("courier \(courier) per request, retry policy \(retry), ratio \(Double(retry.components.attoseconds) / Double(courier.components.attoseconds))")
}

/// `decode-compare`: `JSONDecoder` alone, the same call through `any BodyDecoder`, the status check
/// then `JSONDecoder`, and `Response.decode`, in alternation (40 rounds of `iterations / 40` each),
/// to tell which part of `Response.decode` costs what.
nonisolated func compareDecodes(iterations: Int) throws {
    let decoder = JSONDecoder()
    let existential: any BodyDecoder = decoder
    let response = Response(
        head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
        body: body,
        request: RawRequest(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/42"), baseURL: URL(fileURLWithPath: "/"), operationID: "Users.user")
    )
    let variants: [(String, () throws -> Int)] = [
        ("JSONDecoder alone", { try decoder.decode(User.self, from: body).followers }),
        ("through any BodyDecoder", { try existential.decode(User.self, from: body).followers }),
        ("status check, then JSONDecoder", { if let error = response.error { throw error }; return try decoder.decode(User.self, from: body).followers }),
        ("Response.decode", { try response.decode(User.self, using: decoder).followers }),
    ]
    var times = [Duration](repeating: .zero, count: variants.count)
    let round = max(iterations / 40, 1)
    var total = 0
    for index in 0..<40 {
        let order = index.isMultiple(of: 2) ? Array(variants.indices) : variants.indices.reversed()
        for variant in order {
            let start = ContinuousClock.now
            for _ in 0..<round { total &+= try variants[variant].1() }
            times[variant] += ContinuousClock.now - start
        }
    }
    let base = Double(times[0].components.attoseconds) + Double(times[0].components.seconds) * 1e18
    for (variant, time) in zip(variants, times) {
        let value = Double(time.components.attoseconds) + Double(time.components.seconds) * 1e18
        print(variant.0, "\(time / (round * 40)) per call,", String(format: "%.3f", value / base), "of JSONDecoder alone")
    }
    print(total)
}

/// Runs `body` on the cooperative pool and waits for it on the main thread, which stays an
/// ordinary thread: an async `main` hands it to libdispatch, which Valgrind cannot run, and
/// `valgrind --tool=callgrind` gives the exact instruction counts that `perf` on this VM cannot.
func waitFor(_ body: @escaping @Sendable () async throws -> Void) throws {
    final class Outcome: @unchecked Sendable {
        // Written before `done` is signalled and read after the wait: the semaphore orders them.
        var error: (any Error)?
    }
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task.detached {
        do { try await body() } catch { outcome.error = error }
        done.signal()
    }
    done.wait()
    if let error = outcome.error { throw error }
}

if mode == "decode-compare" {
    try compareDecodes(iterations: iterations)
} else if mode == "compare" {
    try waitFor { try await compare(iterations: iterations) }
} else {
    try waitFor { print(try await run(iterations: iterations, mode: mode)) }
}

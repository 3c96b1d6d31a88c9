import AsyncHTTPClient
import Benchmark
import BenchmarkModels
import Courier
import CourierAsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import OpenAPIAsyncHTTPClient
import OpenAPIPeer
import OpenAPIRuntime

/// What the round-trip benchmarks share: one server, one AsyncHTTPClient, one URLSession.
struct Environment: Sendable {
    let base: String
    let client: HTTPClient
    let session: URLSession
    let uploadFile: URL
    /// Made once, as an application would: a provider is configured at start-up, not per call.
    let courierURLSession: UsersAPI
    let courierAsyncHTTPClient: UsersAPI
    /// The same, with the standard retry policy: what retrying costs when nothing fails.
    let courierResilient: UsersAPI
    /// Event streams on AsyncHTTPClient.
    let courierEvents: EventsAPI
    /// Reporting every request to the in-memory tracer and the metrics test backend.
    let courierObserved: UsersAPI
    /// The tracer the observed provider reports to, emptied as the benchmark goes.
    let tracer: InMemoryTracer
    /// With an HTTP cache: every request a miss on `/users/42`, which the server does not let a
    /// cache keep, and a hit on `/cached/users/42`, fresh for an hour.
    let cached: Provider
    /// The same provider without a cache.
    let uncached: Provider
    /// The peer: swift-openapi-generator's client over its AsyncHTTPClient transport, on the
    /// same client.
    let generated: OpenAPIPeer.Client
    /// The server over TLS, HTTP/1.1 only and with HTTP/2, and the raw client that trusts its
    /// certificate, as Courier's providers below do.
    let tlsHTTP1Base: String
    let tlsHTTP2Base: String
    let tlsClient: HTTPClient
    let courierTLSHTTP1: UsersAPI
    let courierTLSHTTP2: UsersAPI

    static let shared = Task<Environment, any Error> {
        let port = try await BenchmarkServer.start()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-benchmark-upload.bin")
        if (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue != uploadSize {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
            let handle = try FileHandle(forWritingTo: file)
            let chunk = Data(repeating: 0x62, count: 1 << 20)
            for _ in 0..<(uploadSize >> 20) { try handle.write(contentsOf: chunk) }
            try handle.close()
        }
        let base = "http://127.0.0.1:\(port)"
        let tlsHTTP1Base = "https://127.0.0.1:\(try await BenchmarkServer.start(.tlsHTTP1))"
        let tlsHTTP2Base = "https://127.0.0.1:\(try await BenchmarkServer.start(.tlsHTTP2))"
        var tlsConfiguration = HTTPClient.Configuration.courierDefault
        tlsConfiguration.tlsConfiguration = try BenchmarkTLS.clientConfiguration()
        let tlsClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: tlsConfiguration)
        let trust = TLSTrust.only([try TLSCertificate(pem: Data(BenchmarkTLS.certificatePEM.utf8))])
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
        var resilient = Provider(baseURL: base, client: client)
        resilient.retryPolicy = .standard
        var observed = Provider(baseURL: base, client: client)
        let tracer = InMemoryTracer()
        observed.observability = Observability(tracer: tracer, metricsFactory: TestMetrics())
        var cached = Provider(baseURL: base, client: client)
        cached.cache = HTTPCache()
        return Environment(
            base: base,
            client: client,
            session: URLSession(configuration: .ephemeral),
            uploadFile: file,
            courierURLSession: UsersAPI(provider: Provider(baseURL: base, transport: Provider.urlSessionTransport)),
            courierAsyncHTTPClient: UsersAPI(provider: Provider(baseURL: base, client: client)),
            courierResilient: UsersAPI(provider: resilient),
            courierEvents: EventsAPI(provider: Provider(baseURL: base, client: client)),
            courierObserved: UsersAPI(provider: observed),
            tracer: tracer,
            cached: cached,
            uncached: Provider(baseURL: base, client: client),
            generated: OpenAPIPeer.Client(
                serverURL: URL(string: base)!,
                transport: AsyncHTTPClientTransport(configuration: .init(client: client, timeout: rawDeadline))
            ),
            tlsHTTP1Base: tlsHTTP1Base,
            tlsHTTP2Base: tlsHTTP2Base,
            tlsClient: tlsClient,
            courierTLSHTTP1: UsersAPI(provider: try Provider(baseURL: tlsHTTP1Base, trust: trust)),
            courierTLSHTTP2: UsersAPI(provider: try Provider(baseURL: tlsHTTP2Base, trust: trust))
        )
    }

    static let uploadSize = 256 << 20

    /// A user through `provider` at `path`.
    static func user(_ provider: Provider, _ path: String = "/users/42") async throws -> User {
        try await provider.send(Request(.get, path, receiving: .json(User.self)))
    }

    /// A user through the observed provider; the tracer is emptied every 1,000 spans.
    func observedUser() async throws -> User {
        if tracer.finishedSpans.count >= 1000 { tracer.clearFinishedSpans() }
        return try await courierObserved.user(id: 42)
    }

}

/// Times `run(true)` (Courier) and `run(false)` (the baseline) in alternation, in a random order
/// each iteration, so that both see the same machine state, and records each side's times in
/// µs as the custom metrics "Courier <unit> (μs)" and "raw <unit> (μs)".
func alternate(_ benchmark: Benchmark, unit: String, _ run: (Bool) async throws -> Void) async throws {
    var times: [Bool: [Int]] = [true: [], false: []]
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        // Which side goes first is drawn anew each iteration. Flipping it every iteration was
        // biased: two identical sides measured 0.92–0.94 at c=1 (the raw-vs-raw control below),
        // against 1.00 with a random order.
        for side in Bool.random() ? [true, false] : [false, true] {
            let start = ContinuousClock.now
            try await run(side)
            let elapsed = ContinuousClock.now - start
            times[side, default: []].append(Int(elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000))
        }
    }
    benchmark.stopMeasurement()
    for time in times[true, default: []] { benchmark.measurement(.custom("Courier \(unit) (μs)", polarity: .prefersSmaller), time) }
    for time in times[false, default: []] { benchmark.measurement(.custom("raw \(unit) (μs)", polarity: .prefersSmaller), time) }
}

/// The configuration of a benchmark timed by `alternate(_:unit: "batch")`: each side's batch times,
/// in µs as they are (an automatic unit would print a c=64 batch as "11 K").
func alternatingBatches(maxIterations: Int) -> Benchmark.Configuration {
    .init(
        metrics: [.custom("Courier batch (μs)", polarity: .prefersSmaller), .custom("raw batch (μs)", polarity: .prefersSmaller)],
        units: [.custom("Courier batch (μs)"): .count, .custom("raw batch (μs)"): .count],
        warmupIterations: 20,
        maxDuration: .seconds(4),
        maxIterations: maxIterations
    )
}

/// Runs `body` `count` times at once and waits for all.
func concurrently(_ count: Int, _ body: @escaping @Sendable () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<count { group.addTask { try await body() } }
        try await group.waitForAll()
    }
}

/// The raw clients send what Courier sends for the same call: the `@API` function declares a JSON
/// response, so Courier asks for one with `Accept: application/json`, as the OpenAPI generator's
/// client does too. Without it the two sides would differ on the wire by a header field, whose
/// cost the client, AsyncHTTPClient's checks and the server pay on one side only. Likewise a
/// body: Courier's default encoder sorts keys, so that the same value always gives the same
/// bytes, and the raw POST sorts them too (`sortedJSON()`). The deadline is Courier's too
/// (`rawDeadline`).
enum Raw {
    static func get(_ env: Environment) async throws -> User {
        try await get(env.client, env.base)
    }

    static func post(_ env: Environment) async throws -> User {
        try await post(env.client, env.base)
    }

    static func get(_ client: HTTPClient, _ base: String) async throws -> User {
        var request = HTTPClientRequest(url: base + "/users/42")
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await client.execute(request, timeout: rawDeadline)
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(User.self, from: Data(buffer: body))
    }

    static func post(_ client: HTTPClient, _ base: String) async throws -> User {
        var request = HTTPClientRequest(url: base + "/users")
        request.method = .POST
        let data = try sampleUser.sortedJSON()
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: data))
        let response = try await client.execute(request, timeout: rawDeadline)
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(User.self, from: Data(buffer: body))
    }

    /// Through the generated client: the same user, decoded into its generated type.
    static func generatedGet(_ env: Environment) async throws -> Components.Schemas.User {
        try await env.generated.getUser(path: .init(id: 42)).ok.body.json
    }

    static func generatedPost(_ env: Environment) async throws -> Components.Schemas.User {
        try await env.generated.createUser(body: .json(generatedUser)).ok.body.json
    }

    static let generatedUser = Components.Schemas.User(
        id: sampleUser.id, login: sampleUser.login, name: sampleUser.name, email: sampleUser.email,
        company: sampleUser.company, location: sampleUser.location, bio: sampleUser.bio,
        followers: sampleUser.followers, following: sampleUser.following, isAdmin: sampleUser.isAdmin
    )

    static func sessionGet(_ env: Environment) async throws -> User {
        let url = URL(string: env.base + "/users/42")!
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, _) = try await env.session.data(for: request)
        return try JSONDecoder().decode(User.self, from: data)
    }

    static func sessionPost(_ env: Environment) async throws -> User {
        var request = URLRequest(url: URL(string: env.base + "/users")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try sampleUser.sortedJSON()
        let (data, _) = try await env.session.data(for: request)
        return try JSONDecoder().decode(User.self, from: data)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // MARK: Build: call → ready HTTPRequest and body bytes

    let issue = NewIssue(title: "Crash on launch", body: "Steps: open, tap, crash.", assignee: "ada", milestone: 3, draft: false)
    let nullProvider = Provider(baseURL: "http://example.invalid/api", transport: NullTransport())
    let nullAPI = IssuesAPI(provider: nullProvider)
    // What the hand-built side makes: the request head and the body's bytes, from the endpoint's
    // arguments, as `send` would hand them to the middleware.
    Benchmark("build: @API endpoint", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try await nullProvider.httpRequest(
                    for: IssuesAPI.Requests.create(
                        org: "swift server", repo: "courier", label: "bug", page: 2, sort: "created",
                        title: issue.title, body: issue.body, assignee: issue.assignee, milestone: issue.milestone, draft: issue.draft
                    )
                )
            )
        }
    }
    // The same call sent through the whole pipeline to a transport that reads the body and
    // answers 204: building plus everything `send` does around a transport.
    Benchmark("build and send: @API endpoint to a null transport", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            try await nullAPI.create(
                org: "swift server", repo: "courier", label: "bug", page: 2, sort: "created",
                title: issue.title, body: issue.body, assignee: issue.assignee, milestone: issue.milestone, draft: issue.draft
            )
        }
    }
    Benchmark("build: by hand (HTTPRequest + JSONEncoder)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for _ in benchmark.scaledIterations {
            blackHole(try handBuiltIssueRequest(org: "swift server", repo: "courier", label: "bug", page: 2, sort: "created", issue: issue, encoder: encoder))
        }
    }

    // What Courier's default of sorted JSON keys costs over Foundation's default.
    Benchmark("encode: JSONEncoder with sorted keys (Courier's default)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(sampleUser)) }
    }
    Benchmark("encode: JSONEncoder plain", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let encoder = JSONEncoder()
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(sampleUser)) }
    }

    // MARK: Decode: a 200-byte JSON response

    let body = Data(BenchmarkServer.userJSON.utf8)
    let response = Response(
        head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
        body: body,
        request: RawRequest(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/42"), baseURL: URL(string: "http://x")!, operationID: "Users.user")
    )
    Benchmark("decode: Courier Response.decode", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let decoder = JSONDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try response.decode(User.self, using: decoder))
        }
    }
    Benchmark("decode: JSONDecoder alone", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let decoder = JSONDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(User.self, from: body))
        }
    }
    // The two decodes again, timed in alternation as the round trips are: 100 decodes a side per
    // iteration, so that both sides see the same machine. The pair above gives the allocations.
    Benchmark(
        "decode pair: Courier Response.decode vs JSONDecoder alone",
        configuration: alternatingBatches(maxIterations: 4000)
    ) { benchmark in
        let decoder = JSONDecoder()
        try await alternate(benchmark, unit: "batch") { courier in
            for _ in 0..<100 {
                if courier { blackHole(try response.decode(User.self, using: decoder)) } else { blackHole(try decoder.decode(User.self, from: body)) }
            }
        }
    }

    // MARK: Round trips
    //
    // Each benchmark times Courier and the raw transport in alternation within the same
    // iterations (which goes first is drawn at random each time), so that both see the same
    // machine state; on
    // two shared cores, separate benchmarks drift by ±40 % from run to run. The two custom
    // metrics are the time of one batch of `concurrency` requests.

    let pairs: [(name: String, courier: @Sendable (Environment) async throws -> Void, raw: @Sendable (Environment) async throws -> Void)] = [
        ("GET, AsyncHTTPClient", { blackHole(try await $0.courierAsyncHTTPClient.user(id: 42)) }, { blackHole(try await Raw.get($0)) }),
        ("POST, AsyncHTTPClient", { blackHole(try await $0.courierAsyncHTTPClient.create(user: sampleUser)) }, { blackHole(try await Raw.post($0)) }),
        // The control: the raw client on both sides, which a fair harness measures at 1.00.
        ("GET, AsyncHTTPClient, raw vs raw (control)", { blackHole(try await Raw.get($0)) }, { blackHole(try await Raw.get($0)) }),
        // The peer in place of the raw client: swift-openapi-generator's client on the same
        // AsyncHTTPClient.
        ("GET, AsyncHTTPClient vs the OpenAPI generator's client", { blackHole(try await $0.courierAsyncHTTPClient.user(id: 42)) }, { blackHole(try await Raw.generatedGet($0)) }),
        ("POST, AsyncHTTPClient vs the OpenAPI generator's client", { blackHole(try await $0.courierAsyncHTTPClient.create(user: sampleUser)) }, { blackHole(try await Raw.generatedPost($0)) }),
        // Over TLS: Courier trusting the server's certificate alone, against the raw client with
        // the same TLS configuration; HTTP/1.1, and HTTP/2 negotiated by ALPN.
        ("GET, AsyncHTTPClient over TLS, HTTP/1.1", { blackHole(try await $0.courierTLSHTTP1.user(id: 42)) }, { blackHole(try await Raw.get($0.tlsClient, $0.tlsHTTP1Base)) }),
        ("POST, AsyncHTTPClient over TLS, HTTP/1.1", { blackHole(try await $0.courierTLSHTTP1.create(user: sampleUser)) }, { blackHole(try await Raw.post($0.tlsClient, $0.tlsHTTP1Base)) }),
        ("GET, AsyncHTTPClient over TLS, HTTP/2", { blackHole(try await $0.courierTLSHTTP2.user(id: 42)) }, { blackHole(try await Raw.get($0.tlsClient, $0.tlsHTTP2Base)) }),
        ("POST, AsyncHTTPClient over TLS, HTTP/2", { blackHole(try await $0.courierTLSHTTP2.create(user: sampleUser)) }, { blackHole(try await Raw.post($0.tlsClient, $0.tlsHTTP2Base)) }),
        ("GET, URLSession", { blackHole(try await $0.courierURLSession.user(id: 42)) }, { blackHole(try await Raw.sessionGet($0)) }),
        ("POST, URLSession", { blackHole(try await $0.courierURLSession.create(user: sampleUser)) }, { blackHole(try await Raw.sessionPost($0)) }),
        // Not against the raw client: Courier with the standard retry policy against Courier
        // without one, when no request fails.
        ("GET, AsyncHTTPClient, retry policy idle vs none", { blackHole(try await $0.courierResilient.user(id: 42)) }, { blackHole(try await $0.courierAsyncHTTPClient.user(id: 42)) }),
        // The same pair with the sides swapped, so that what is left of a bias of the order cancels:
        // the policy's cost is the square root of the ratio of the two pairs.
        ("GET, AsyncHTTPClient, no retry policy vs an idle one", { blackHole(try await $0.courierAsyncHTTPClient.user(id: 42)) }, { blackHole(try await $0.courierResilient.user(id: 42)) }),
        // Courier reporting each request to the in-memory tracer and the metrics test backend
        // against Courier with nothing listening, and swapped. The tracer keeps finished spans,
        // so it is emptied every 1,000.
        ("GET, AsyncHTTPClient, observed vs not", { blackHole(try await $0.observedUser()) }, { blackHole(try await $0.courierAsyncHTTPClient.user(id: 42)) }),
        ("GET, AsyncHTTPClient, not observed vs observed", { blackHole(try await $0.courierAsyncHTTPClient.user(id: 42)) }, { blackHole(try await $0.observedUser()) }),
        // A cache hit against the same request's round trip without a cache.
        ("GET, AsyncHTTPClient, cache hit vs round trip", { blackHole(try await Environment.user($0.cached, "/cached/users/42")) }, { blackHole(try await Environment.user($0.uncached, "/cached/users/42")) }),
        // What a configured cache costs when it cannot answer (the response is not storable),
        // against no cache, and swapped: the cost is the square root of the two ratios.
        ("GET, AsyncHTTPClient, cache miss vs no cache", { blackHole(try await Environment.user($0.cached)) }, { blackHole(try await Environment.user($0.uncached)) }),
        ("GET, AsyncHTTPClient, no cache vs cache miss", { blackHole(try await Environment.user($0.uncached)) }, { blackHole(try await Environment.user($0.cached)) }),
    ]
    for concurrency in [1, 64] {
        for pair in pairs {
            Benchmark(
                "round trip \(pair.name), c=\(concurrency): Courier vs raw",
                configuration: alternatingBatches(maxIterations: concurrency == 1 ? 4000 : 400)
            ) { benchmark in
                let env = try await Environment.shared.value
                try await alternate(benchmark, unit: "batch") { side in
                    try await concurrently(concurrency) { try await (side ? pair.courier : pair.raw)(env) }
                }
            }
        }
    }

    // Mallocs per round trip, one side at a time (malloc counts are exact, not noisy).
    for pair in pairs where !pair.name.hasSuffix("(control)") {
        Benchmark("mallocs \(pair.name): Courier", configuration: .init(metrics: [.mallocCountTotal], warmupIterations: 20, maxIterations: 2000)) { benchmark in
            let env = try await Environment.shared.value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try await pair.courier(env) }
        }
        Benchmark("mallocs \(pair.name): raw", configuration: .init(metrics: [.mallocCountTotal], warmupIterations: 20, maxIterations: 2000)) { benchmark in
            let env = try await Environment.shared.value
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try await pair.raw(env) }
        }
    }

    // MARK: Event streams
    //
    // 20,000 Server-Sent Events with JSON data, decoded through Courier and, in alternation, by
    // swift-openapi-runtime's decoder over the raw AsyncHTTPClient body; the metrics are the
    // time of one stream on each side.

    Benchmark(
        "events: 20,000 Server-Sent Events, Courier vs the runtime's decoder on raw AsyncHTTPClient",
        configuration: .init(
            metrics: [.custom("Courier stream (μs)", polarity: .prefersSmaller), .custom("raw stream (μs)", polarity: .prefersSmaller)],
            warmupIterations: 2,
            maxDuration: .seconds(10),
            maxIterations: 40
        )
    ) { benchmark in
        let env = try await Environment.shared.value
        let count = 20_000
        let courier: @Sendable () async throws -> Int = {
            var total = 0
            for try await tick in try await env.courierEvents.events(count: count) { total += tick.n }
            return total
        }
        let raw: @Sendable () async throws -> Int = {
            let response = try await env.client.execute(HTTPClientRequest(url: env.base + "/events/\(count)"), timeout: rawDeadline)
            let body = HTTPBody(response.body.map { ArraySlice($0.readableBytesView) }, length: .unknown, iterationBehavior: .single)
            var total = 0
            for try await event in body.asDecodedServerSentEventsWithJSONData(of: Tick.self) { total += event.data?.n ?? 0 }
            return total
        }
        try await alternate(benchmark, unit: "stream") { side in
            let total = try await (side ? courier : raw)()
            precondition(total == count * (count - 1) / 2, "the stream lost events")
        }
    }

    for count in [100_000, 1_000_000] {
        Benchmark(
            "memory: \(count) Server-Sent Events through Courier",
            configuration: .init(metrics: [.peakMemoryResident, .wallClock], warmupIterations: 0, maxDuration: .seconds(120), maxIterations: 1)
        ) { benchmark in
            let env = try await Environment.shared.value
            benchmark.startMeasurement()
            var seen = 0
            for try await _ in try await env.courierEvents.events(count: count) { seen += 1 }
            precondition(seen == count, "saw \(seen) events")
        }
    }

    // MARK: Memory: 256 MiB up and down

    let memory = Benchmark.Configuration(
        metrics: [.peakMemoryResident, .wallClock],
        warmupIterations: 0,
        maxDuration: .seconds(60),
        maxIterations: 1
    )
    Benchmark("memory: upload 256 MiB from a file, Courier on AsyncHTTPClient", configuration: memory) { benchmark in
        let env = try await Environment.shared.value
        benchmark.startMeasurement()
        let received = try await env.courierAsyncHTTPClient.upload(data: .file(env.uploadFile))
        precondition(received == String(Environment.uploadSize), "the server received \(received) bytes")
    }
    Benchmark("memory: download 256 MiB to a file, Courier on AsyncHTTPClient", configuration: memory) { benchmark in
        let env = try await Environment.shared.value
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("courier-benchmark-download.bin")
        benchmark.startMeasurement()
        let downloads = env.courierAsyncHTTPClient.provider
        try await downloads.download(UsersAPI.Requests.download(count: Environment.uploadSize), to: target, limit: Int64(Environment.uploadSize))
        let written = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
        precondition(written == Int64(Environment.uploadSize), "wrote \(written) bytes")
        try? FileManager.default.removeItem(at: target)
    }
    Benchmark("memory: download 256 MiB to a file, Courier on URLSession (buffers on Linux)", configuration: memory) { benchmark in
        let env = try await Environment.shared.value
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("courier-benchmark-download-us.bin")
        var provider = Provider(baseURL: env.base, transport: Provider.urlSessionTransport)
        provider.responseBodyLimit = Environment.uploadSize + 1
        benchmark.startMeasurement()
        try await provider.download(UsersAPI.Requests.download(count: Environment.uploadSize), to: target, limit: Int64(Environment.uploadSize))
        let written = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
        precondition(written == Int64(Environment.uploadSize), "wrote \(written) bytes")
        try? FileManager.default.removeItem(at: target)
    }
}

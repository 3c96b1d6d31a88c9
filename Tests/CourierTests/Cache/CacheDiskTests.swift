@testable import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

/// The HTTP cache kept on disk, against the fault server on both transports, counting what
/// reaches the server: it survives a restart (a new cache on the same folder), discards a torn or
/// tampered file rather than serve it, names files so that no request reaches outside its folder,
/// stays within its bytes, and gives many tasks on one key whole responses. And the cURL logger
/// says when the cache answered.
@Suite("The HTTP cache on disk, and what the cURL logger says of it", .timeLimit(.minutes(2)))
struct CacheDiskTests {
    let clock = ManualClock()

    func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)", isDirectory: true)
    }

    func provider(_ transport: TransportKind, folder: URL, byteLimit: Int = 1 << 20, memoryLimit: Int = 10 << 20) async throws -> Provider {
        var provider = try await transport.faultProvider(idle: .seconds(10))
        let clock = clock
        provider.cache = try HTTPCache(directory: folder, byteLimit: byteLimit, memoryLimit: memoryLimit, heuristicCap: .seconds(24 * 60 * 60), now: { clock.now })
        return provider
    }

    func fetch(_ provider: Provider, _ name: String) async throws -> (String, Response) {
        try await provider.send(Request(.get, "/script/\(name)", receiving: .withResponse(.text)))
    }

    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func ok(_ body: String, _ headers: [(String, String)] = [("Cache-Control", "max-age=60")]) -> ScriptStep {
        .answer(status: 200, headers: headers + [("Content-Type", "text/plain")], body: body)
    }

    @Test("A cache made again on the same folder answers from the files there, with their age: @API and fluent", arguments: TransportKind.allCases)
    func survivesRestart(transport: TransportKind) async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = scriptName("disk-restart", transport)
        FaultServer.script(name, [Self.ok("kept"), Self.ok("new")])
        let first = try await provider(transport, folder: folder)
        #expect(try await fetch(first, name).1.cache == .miss)
        #expect(try files(in: folder).count == 1)

        clock.advance(7)
        // A new cache, as after a restart: nothing in its memory, the folder as it was left.
        let restarted = try await provider(transport, folder: folder)
        let (body, response) = try await fetch(restarted, name)
        #expect(body == "kept" && response.cache == .hit(age: .seconds(7)))
        #expect(try await CachedShelfAPI(provider: restarted).plain(name: name) == "kept")
        #expect(FaultServer.arrivals(ofScript: name).count == 1)

        // A 304 rewrites the file: a cache made after it sees the updated fields.
        let validated = scriptName("disk-validated", transport)
        FaultServer.script(validated, [
            Self.ok("tagged", [("Cache-Control", "max-age=1"), ("ETag", "\"v\"")]),
            .answer(status: 304, headers: [("Cache-Control", "max-age=600"), ("X-Updated", "yes")]),
        ])
        _ = try await fetch(restarted, validated)
        clock.advance(5)
        #expect(try await fetch(restarted, validated).1.cache == .revalidated)
        let again = try await provider(transport, folder: folder)
        let (tagged, updated) = try await fetch(again, validated)
        #expect(tagged == "tagged" && updated.cache == .hit(age: .zero) && updated.headers[HTTPField.Name("X-Updated")!] == "yes")
        #expect(FaultServer.arrivals(ofScript: validated).count == 2)
    }

    @Test("A torn, grown or foreign file is discarded, never served; a write left unfinished is removed", arguments: TransportKind.allCases)
    func tornEntries(transport: TransportKind) async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut: (Data) -> Data = { Data($0.dropLast(3)) }
        let grown: (Data) -> Data = { $0 + Data("xyz".utf8) }
        let header: (Data) -> Data = { _ in Data("courier-cache 1\n9999\n{".utf8) }
        let foreign: (Data) -> Data = { _ in Data("not a cached response".utf8) }
        let empty: (Data) -> Data = { _ in Data() }
        // As a crash can leave a file: its length right, its last bytes never written.
        let zeroed: (Data) -> Data = { Data($0.dropLast(4)) + Data(count: 4) }
        let damages = [("cut", cut), ("grown", grown), ("header", header), ("foreign", foreign), ("empty", empty), ("zeroed", zeroed)]
        for (label, damage) in damages {
            let name = scriptName("disk-torn-\(label)", transport)
            FaultServer.script(name, [Self.ok("whole body"), Self.ok("loaded again")])
            _ = try await fetch(try await provider(transport, folder: folder), name)
            let file = try #require(try files(in: folder).first { file in
                // The file just written: the one whose body is this script's.
                (try? Data(contentsOf: folder.appendingPathComponent(file)))?.range(of: Data("whole body".utf8)) != nil
            })
            let url = folder.appendingPathComponent(file)
            try damage(try Data(contentsOf: url)).write(to: url)
            let (body, response) = try await fetch(try await provider(transport, folder: folder), name)
            #expect(body == "loaded again" && response.cache == .miss, "\(label)")
            #expect(FaultServer.arrivals(ofScript: name).count == 2, "\(label)")
            // The damaged file was replaced by the response loaded again.
            #expect((try? Data(contentsOf: url))?.range(of: Data("loaded again".utf8)) != nil, "\(label)")
            try FileManager.default.removeItem(at: url)
        }

        let unfinished = folder.appendingPathComponent(DiskStore.temporaryPrefix + "interrupted")
        try Data("half a resp".utf8).write(to: unfinished)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: unfinished.path)
        // One being written now (by another cache on the folder) stays.
        let writing = folder.appendingPathComponent(DiskStore.temporaryPrefix + "writing")
        try Data("being writ".utf8).write(to: writing)
        let notOurs = folder.appendingPathComponent("notes.txt")
        try Data("kept".utf8).write(to: notOurs)
        _ = try await provider(transport, folder: folder)
        #expect(!FileManager.default.fileExists(atPath: unfinished.path))
        #expect(FileManager.default.fileExists(atPath: writing.path))
        // A file the cache did not name is left alone.
        #expect(FileManager.default.fileExists(atPath: notOurs.path))
    }

    @Test("No request target names a file outside the folder: every file is named by hashes")
    func keysStayInside() async throws {
        let parent = folder()
        let folder = parent.appendingPathComponent("cache", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let provider = try await provider(.asyncHTTPClient, folder: folder)
        let targets = ["..%2F..%2Fescaped", "%2E%2E/%2E%2E/escaped", "a%00b", "..\\..\\escaped", String(repeating: "long", count: 200)]
        for target in targets {
            let name = scriptName("disk-keys", .asyncHTTPClient)
            FaultServer.script(name, [Self.ok("x")])
            _ = try await provider.send(Request(.get, "/script/\(name)", receiving: .text).query("target", target))
        }
        #expect(try files(in: parent) == ["cache"])
        let stored = try files(in: folder)
        #expect(stored.count == targets.count)
        #expect(stored.allSatisfy { DiskStore.split($0) != nil }, "\(stored)")
    }

    @Test("On disk, the bytes stay within the limit, the least recently used go first, and a response over a quarter of it is never written")
    func bounded() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let limit = 8000
        let provider = try await provider(.asyncHTTPClient, folder: folder, byteLimit: limit)
        let cache = try #require(provider.cache?.disk)
        var names: [String] = []
        for index in 0..<10 {
            let name = scriptName("disk-bound-\(index)", .asyncHTTPClient)
            FaultServer.script(name, [Self.ok(String(repeating: "y", count: 800))])
            names.append(name)
            _ = try await fetch(provider, name)
            // The first stays in use (answered from memory, which counts as a use of its file).
            #expect(try await fetch(provider, names[0]).1.cache == .hit(age: .zero))
            let onDisk = try files(in: folder).reduce(0) { sum, file in
                sum + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.size] as? NSNumber)?.intValue ?? 0)
            }
            #expect(onDisk <= limit && cache.usage.bytes <= limit)
        }
        let reopened = try await self.provider(.asyncHTTPClient, folder: folder, byteLimit: limit)
        #expect(try await fetch(reopened, names[0]).1.cache == .hit(age: .zero))
        #expect(try await fetch(reopened, names[9]).1.cache == .hit(age: .zero))
        #expect(FaultServer.arrivals(ofScript: names[0]).count == 1)

        let big = scriptName("disk-big", .asyncHTTPClient)
        FaultServer.script(big, [Self.ok(String(repeating: "z", count: 2500)), Self.ok("small")])
        _ = try await fetch(provider, big)
        #expect(try files(in: folder).allSatisfy { (try? Data(contentsOf: folder.appendingPathComponent($0)))?.count ?? 0 < 2500 })
    }

    @Test("Many tasks reading and writing one key on disk each see a whole response; an unsafe request removes it")
    func concurrency() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = scriptName("disk-concurrent", .asyncHTTPClient)
        // The cache keeps nothing in memory: every hit is read from disk.
        let bodies = (0..<3).map { String(repeating: Character(UnicodeScalar(UInt8(97 + $0))), count: 40_000) }
        let counter = Locked(0)
        FaultServer.script(name) { arrival in
            if arrival.method == "POST" { return .answer(status: 204) }
            let index = counter.withLock { value in
                value += 1
                return value % bodies.count
            }
            return Self.ok(bodies[index], [("Cache-Control", "max-age=60")])
        }
        let provider = try await provider(.asyncHTTPClient, folder: folder, byteLimit: 16 << 20, memoryLimit: 0)
        _ = try await fetch(provider, name)
        let seen = try await withThrowingTaskGroup(of: (String, CacheOutcome?).self) { group in
            for index in 0..<16 {
                group.addTask {
                    let request = Request(.get, "/script/\(name)", receiving: .withResponse(.text))
                    let (body, response) = try await provider.send(index.isMultiple(of: 2) ? request.cache(.reload) : request)
                    return (body, response.cache)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.count == 16)
        #expect(seen.allSatisfy { bodies.contains($0.0) })
        // Every read found a whole file: the one before a write or the one after it.
        #expect(seen.filter { $0.1 == .hit(age: .zero) }.count == 8)
        #expect(FaultServer.arrivals(ofScript: name).count == 9)

        _ = try await provider.send(Request(.post, "/script/\(name)", receiving: .data))
        #expect(try await fetch(provider, name).1.cache == .miss)
        #expect(FaultServer.arrivals(ofScript: name).count == 11)
    }

    @Test("The store alone: many tasks saving and loading one key read whole entries, and its count of bytes is the folder's")
    func storeUnderLoad() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DiskStore(directory: folder, byteLimit: 64 << 20)
        let bodies = (0..<4).map { Data(repeating: UInt8(65 + $0), count: 100_000 + $0) }
        func entry(_ index: Int, vary: String) -> CachedResponse {
            CachedResponse(
                key: "https://example.com/one", head: HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]),
                body: bodies[index], varyValues: ["accept": vary], requestTime: Date(), responseTime: Date()
            )
        }
        store.save(entry(0, vary: "a"))
        store.save(entry(0, vary: "b"))
        let loads = await withTaskGroup(of: [CachedResponse].self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        store.save(entry(index % bodies.count, vary: index % 4 == 0 ? "a" : "b"))
                        return []
                    }
                    return store.load("https://example.com/one")
                }
            }
            return await group.reduce(into: []) { $0.append(contentsOf: $1) }
        }
        #expect(loads.count == 32 * 2)
        #expect(loads.allSatisfy { bodies.contains($0.body) && $0.key == "https://example.com/one" })
        let onDisk = try files(in: folder).reduce(0) { sum, file in
            sum + ((try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.size] as? NSNumber)?.intValue ?? 0)
        }
        #expect(try files(in: folder).count == 2)
        #expect(store.usage.bytes == onDisk && store.usage.responses == 2)
    }

    @Test("Only its owner reads the folder and files; a link in the folder is not followed, and a huge Age is 2^31 seconds")
    func hostileFolder() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = try await provider(.asyncHTTPClient, folder: folder)
        let name = scriptName("disk-modes", .asyncHTTPClient)
        FaultServer.script(name, [Self.ok("x", [("Cache-Control", "max-age=60"), ("Age", "99999999999999999999")]), Self.ok("y")])
        _ = try await fetch(provider, name)
        let manager = FileManager.default
        #expect((try manager.attributesOfItem(atPath: folder.path)[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let file = try #require(try files(in: folder).first)
        #expect((try manager.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // An Age past any Int is the RFC's 2^31 seconds: stale, and stated, not a crash.
        let (body, response) = try await provider.send(Request(.get, "/script/\(name)", receiving: .withResponse(.text)).cache(.returnCacheElseLoad))
        #expect(body == "x" && response.cache == .stale(age: .seconds(2_147_483_648)))

        // A link where a response's file would be, to a file that never ends: not read.
        let linked = scriptName("disk-link", .asyncHTTPClient)
        FaultServer.script(linked, [Self.ok("from the server")])
        let port = try await FaultServer.port()
        let link = folder.appendingPathComponent("\(DiskStore.hash("http://127.0.0.1:\(port)/script/\(linked)"))-\(DiskStore.hash(""))\(DiskStore.suffix)")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        let reopened = try await self.provider(.asyncHTTPClient, folder: folder)
        let (fetched, fetchedResponse) = try await fetch(reopened, linked)
        #expect(fetched == "from the server" && fetchedResponse.cache == .miss)
        #expect((try manager.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType) == .typeRegular)
    }

    @Test("A folder that cannot be made is an error naming it")
    func unusableFolder() throws {
        let parent = folder()
        try Data("a file, not a folder".utf8).write(to: parent)
        defer { try? FileManager.default.removeItem(at: parent) }
        let inside = parent.appendingPathComponent("cache")
        let error = #expect(throws: (any Error).self) { try HTTPCache(directory: inside) }
        #expect(String(describing: error).contains(parent.lastPathComponent), "\(String(describing: error))")
    }

    @Test("The cURL logger logs a request the cache answered, saying so, with its age", arguments: TransportKind.allCases)
    func curlLogger(transport: TransportKind) async throws {
        let sink = LogSink()
        let logger = Logger(label: "test") { _ in sink }
        var provider = try await transport.faultProvider(idle: .seconds(10))
        let clock = clock
        provider.cache = HTTPCache(byteLimit: 1 << 20, heuristicCap: .seconds(60), now: { clock.now })
        provider = provider.intercept(CURLLogger(when: .always, logger: logger, level: .info))
        let name = scriptName("curl-cache", transport)
        FaultServer.script(name, [Self.ok("x")])
        _ = try await fetch(provider, name)
        clock.advance(12)
        _ = try await fetch(provider, name)
        #expect(sink.messages.count == 2)
        #expect(sink.messages.allSatisfy { $0.hasPrefix("curl") && $0.contains(name) })
        #expect(sink.metadataLines.first?.contains("cache=") == false)
        #expect(sink.metadataLines.last?.contains("age=12 cache=hit") == true, "\(sink.metadataLines)")
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
    }
}

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads the body of a response with `status` into memory, failing with a transport error past
/// `limit` bytes. The announced length is trusted only for a status whose response has a body: a
/// `304`'s `Content-Length` is the length of the representation it did not send.
nonisolated(nonsending) func collectResponseBody(_ body: HTTPBody?, limit: Int, status: HTTPResponse.Status) async throws(CourierError) -> Data? {
    guard let body else { return nil }
    let announcesBody = status.code >= 200 && status.code != 204 && status.code != 304
    if announcesBody, case .known(let length) = body.length, length > limit {
        throw CourierError(.responseTooLarge(limit: limit))
    }
    var data = Data()
    // Room for the announced length at once, but not more than 1 MiB on the server's word alone.
    if announcesBody, case .known(let length) = body.length { data.reserveCapacity(Int(min(length, 1 << 20))) }
    do {
        for try await chunk in body {
            guard data.count + chunk.count <= limit else { throw CourierError(.responseTooLarge(limit: limit)) }
            data.append(contentsOf: chunk)
        }
    } catch let error as CourierError {
        throw error
    } catch {
        throw PipelineErrors.classifyTransport(error)
    }
    return data
}

/// The first `limit` bytes of a body, or fewer when it ends or fails first; never an error, for
/// error messages that show what the server said.
nonisolated(nonsending) func collectPrefix(of body: HTTPBody?, upTo limit: Int) async -> Data? {
    guard let body else { return nil }
    var data = Data()
    do {
        for try await chunk in body {
            data.append(contentsOf: chunk.prefix(limit - data.count))
            if data.count >= limit { break }
        }
    } catch {
        // What arrived before the failure is still worth showing.
    }
    return data.isEmpty ? nil : data
}

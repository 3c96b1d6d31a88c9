import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads a response body into memory, failing with a transport error past `limit` bytes.
/// `status`, when given, tells whether the announced length is the body's: a `204` or a `304`
/// has none, whatever its `Content-Length` says.
func collectResponseBody(_ body: HTTPBody?, limit: Int, status: HTTPResponse.Status? = nil) async throws(CourierError) -> Data? {
    guard let body else { return nil }
    let announcesBody = status.map { $0.code != 204 && $0.code != 304 && $0.code >= 200 } ?? true
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
func collectPrefix(of body: HTTPBody?, upTo limit: Int) async -> Data? {
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

public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// Encodes `request` into what the middleware chain receives: `Accept` from the response
    /// decoder unless the request sets one, the authentication, the provider's modifiers, the
    /// encoding with the provider's settings, and the request's own hooks.
    func prepare<Value>(_ request: Request<Value>) throws(CourierError) -> RawRequest {
        var builder = request.builder
        if let accept = request.decoder.accept, builder.headers[.accept] == nil {
            builder.appendHeader(.accept, accept, replacing: false)
        }
        request.authentication?.authenticate(&builder)
        var raw = try prepare(builder, operationID: request.operationID)
        raw.streamsResponse = request.decoder.streams
        raw.timeouts = request.builder.timeouts
        if let progress = request.builder.uploadProgress, let body = raw.body { raw.body = progress.counting(body) }
        raw.downloadProgress = request.builder.downloadProgress
        for adjustment in request.adjustments {
            do {
                try adjustment.apply(&raw)
            } catch let error as CourierError {
                throw error.with(operationID: raw.operationID, request: raw)
            } catch {
                throw CourierError(.modifier(stage: adjustment.name, error), operationID: raw.operationID, request: raw)
            }
        }
        return raw
    }

    /// Applies the modifiers to `builder` and encodes it.
    private func prepare(_ builder: RequestBuilder, operationID: String) throws(CourierError) -> RawRequest {
        var builder = builder
        for modifier in modifiers {
            do {
                try modifier.modify(req: &builder)
            } catch let error as CourierError {
                throw error.with(operationID: operationID, request: nil)
            } catch {
                throw CourierError(.modifier(stage: stageName(of: modifier), error), operationID: operationID)
            }
        }
        let template = builder.absoluteURL == nil ? builder.path : nil
        var baseURL: URL
        switch base {
        case .success(let url): baseURL = url
        case .failure(let error): throw error.with(operationID: operationID, request: nil)
        }
        if let absolute = builder.absoluteURL {
            // The absolute URL's origin replaces the base URL; its path and query the template.
            guard let scheme = absolute.scheme, let host = absolute.authorityHost,
                let origin = URL(string: "\(scheme)://\(host)\(absolute.port.map { ":\($0)" } ?? "")")
            else {
                throw CourierError(.invalidBaseURL(absolute.absoluteString), operationID: operationID)
            }
            baseURL = origin
            let components = URLComponents(url: absolute, resolvingAgainstBaseURL: false)
            builder.path = (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        }
        let settings = BuildSettings(
            keyMapping: keyMapping,
            bodyEncoder: bodyEncoder,
            mappedBodyEncoder: mappedEncoder,
            queryArrayEncoding: queryArrayEncoding
        )
        var raw: RawRequest
        do {
            raw = try builder.build(baseURL: baseURL, operationID: operationID, settings: settings)
            raw.pathTemplate = template
        } catch {
            throw error.with(operationID: operationID, request: nil)
        }
        // A request to an absolute URL has the origin alone as its base.
        let basePath = template == nil ? 0 : baseParts?.path.utf8.count ?? baseURL.percentEncodedBasePath.utf8.count
        let length = basePath + raw.path.utf8.count
        guard length <= maxRequestTargetLength else {
            throw CourierError(.requestTargetTooLong(length: length, limit: maxRequestTargetLength), operationID: operationID)
        }
        return raw
    }

    /// The request exactly as ``send(_:)->Value`` would hand it to the middleware chain — modifiers,
    /// authentication, `Accept` and the request's hooks applied — without sending it. The head
    /// carries the scheme, the authority and the full path, base path included.
    public func httpRequest<T>(for request: Request<T>) async throws(CourierError) -> (HTTPRequest, Data?) {
        var raw = try prepare(request)
        let body: Data?
        do {
            body = try await raw.collectBody()
        } catch {
            throw CourierError(.encoding(what: "the body", error), operationID: raw.operationID, request: raw)
        }
        var head = raw.head
        let parts = BaseURLParts.of(raw, provider: baseParts)
        head.scheme = parts.scheme
        head.authority = parts.authority
        head.path = parts.path + raw.path
        return (head, body)
    }

    /// The request as a Foundation `URLRequest`, timeout included, for sending with your own
    /// stack.
    public func urlRequest<T>(for request: Request<T>) async throws(CourierError) -> URLRequest {
        let (head, body) = try await httpRequest(for: request)
        guard let scheme = head.scheme, let authority = head.authority,
            let url = URL(string: "\(scheme)://\(authority)\(head.path ?? "/")")
        else {
            throw CourierError(.invalidBaseURL(baseURL?.absoluteString ?? ""), operationID: request.operationID)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = head.method.rawValue
        urlRequest.setHeaderFields(head.headerFields)
        urlRequest.httpBody = body
        if let timeout = request.builder.timeouts.total ?? request.builder.timeouts.idle {
            urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        }
        return urlRequest
    }
}

extension URL {
    /// The host as written in an authority: an IPv6 literal in brackets.
    var authorityHost: String? {
        guard let host else { return nil }
        return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// The path still percent-encoded, as it goes on the wire.
    var percentEncodedBasePath: String {
        URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? path
    }
}

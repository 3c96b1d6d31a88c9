import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// The prepare stage: `request` made into a call. In order: `Accept` from the response
    /// decoder unless the request sets one, the request's authentication, the provider's
    /// modifiers, the encoding with the provider's settings, and the request's own hooks. Every
    /// per-request option — timeouts, retry policy, coders — is read here, after the modifiers,
    /// and nowhere else.
    func prepare<Value>(_ request: Request<Value>) throws(CourierError) -> Call {
        var builder = request.builder
        if let accept = request.decoder.accept, builder.headers[.accept] == nil {
            builder.appendHeader(.accept, accept, replacing: false)
        }
        request.authentication?.authenticate(&builder)
        var (raw, template) = try encode(&builder, operationID: request.operationID)
        raw.streamsResponse = request.decoder.streams
        if let progress = builder.uploadProgress, let body = raw.body { raw.body = progress.counting(body) }
        for adjustment in request.adjustments {
            do {
                try adjustment.apply(&raw)
            } catch let error as CourierError {
                throw error.with(operationID: raw.operationID, request: raw)
            } catch {
                throw CourierError(.modifier(stage: adjustment.name, error), operationID: raw.operationID, request: raw)
            }
        }
        let own = builder.timeouts
        return Call(
            request: raw,
            timeouts: timeouts.overridden(by: own),
            transport: own.connect == nil && own.idle == nil
                ? boundTransport : BoundTransport(transport, timeouts.overridden(by: own), bodyLimit: responseBodyLimit),
            retryPolicy: builder.retryPolicy ?? retryPolicy,
            cachePolicy: builder.cachePolicy ?? .useProtocol,
            bodyDecoder: bodyDecoder(for: builder),
            validators: request.validators,
            downloadProgress: builder.downloadProgress,
            pathTemplate: template
        )
    }

    /// Applies the provider's modifiers to `builder`, then encodes it: the wire parts, and the
    /// path template for spans and metrics (`nil` for an absolute URL).
    private func encode(_ builder: inout RequestBuilder, operationID: String) throws(CourierError) -> (RawRequest, template: String?) {
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
        let raw: RawRequest
        do {
            raw = try builder.build(baseURL: baseURL, operationID: operationID, settings: settings)
        } catch {
            throw error.with(operationID: operationID, request: nil)
        }
        // A request to an absolute URL has the origin alone as its base.
        let basePath = template == nil ? 0 : baseParts?.path.utf8.count ?? baseURL.percentEncodedBasePath.utf8.count
        let length = basePath + raw.path.utf8.count
        guard length <= maxRequestTargetLength else {
            throw CourierError(.requestTargetTooLong(length: length, limit: maxRequestTargetLength), operationID: operationID)
        }
        return (raw, template)
    }

    /// The body decoder for `builder`: the provider's, unless the request brings its own coder or
    /// key mapping.
    private func bodyDecoder(for builder: RequestBuilder) -> any BodyDecoder {
        guard builder.bodyDecoder != nil || builder.keyMapping != nil else { return mappedDecoder }
        let mapping = builder.keyMapping ?? keyMapping
        let base = builder.bodyDecoder ?? bodyDecoder
        return mapping.isDefault ? base : base.with(keyMapping: mapping)
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

import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// The prepare stage: `request` made into a call. In order: `Accept` from the response
    /// decoder unless the request sets one, the request's authentication, the provider's
    /// modifiers, the encoding with the provider's settings, and the request's own hooks. Every
    /// per-request option — timeouts, retry policy, coders — is read here, after the modifiers,
    /// and nowhere else.
    @inline(__always)  // the work below is not generic: no type metadata is looked up for it
    func prepare<Value>(_ request: Request<Value>) throws(CourierError) -> Call {
        try modifiedAndEncoded(
            request.builder,
            RequestExtras(
                operationID: request.builder.reportedName, accept: request.decoder.accept, streams: request.decoder.streams,
                authentication: request.authentication, adjustments: request.adjustments, validators: request.validators
            )
        )
    }

    /// What the prepare stage takes from a request beside its builder.
    private struct RequestExtras {
        var operationID: String
        /// The response decoder's `Accept`, sent unless the request sets its own.
        var accept: String?
        var streams: Bool
        var authentication: Credentials?
        var adjustments: [Adjustment]
        var validators: [Validator]
    }

    /// Out of line: the builders and wire values it makes live on the thread's stack, not in
    /// the async frame of ``send(_:)``.
    @inline(never)
    private func modifiedAndEncoded(_ original: RequestBuilder, _ request: RequestExtras) throws(CourierError) -> Call {
        let operationID = request.operationID
        let accept = original.headers.contains(.accept) ? nil : request.accept
        if request.authentication == nil, modifiers.isEmpty, original.absoluteURL == nil {
            // Nothing changes the builder: it is encoded where it is, not copied, and `Accept`
            // joins the wire fields as it would have joined the builder's, last.
            let base = try base.get(operationID: operationID)
            return try encoded(request, original, accept: accept, base: base, template: original.path)
        }
        var builder = original
        if let accept { builder.appendHeader(.accept, accept, replacing: false) }
        request.authentication?.authenticate(&builder)
        try modify(&builder, operationID: operationID)
        let template = builder.absoluteURL == nil ? builder.path : nil
        let base = try rebase(&builder, operationID: operationID)
        return try encoded(request, builder, accept: nil, base: base, template: template)
    }

    /// The call for a request from its final `builder`: encoded, its hooks applied, every option
    /// read.
    private func encoded(
        _ request: borrowing RequestExtras, _ builder: RequestBuilder, accept: String?, base: URL, template: String?
    ) throws(CourierError) -> Call {
        var raw = try encode(builder, accept: accept, base: base, absolute: template == nil, operationID: request.operationID)
        raw.streamsResponse = request.streams
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
        let bounds = timeouts.overridden(by: own)
        return Call(
            request: consume raw,
            total: bounds.total,
            transport: own.connect == nil && own.idle == nil
                ? boundTransport : BoundTransport(transport, bounds, bodyLimit: responseBodyLimit, connections: connections),
            retryPolicy: (builder.retryPolicy?.acts ?? retryPolicy.acts) ? builder.retryPolicy ?? retryPolicy : nil,
            cachePolicy: builder.cachePolicy ?? .useProtocol,
            bodyDecoder: bodyDecoder(for: builder),
            validators: request.validators,
            downloadProgress: builder.downloadProgress,
            pathTemplate: template
        )
    }

    /// Applies the provider's modifiers to `builder`, in order.
    private func modify(_ builder: inout RequestBuilder, operationID: String) throws(CourierError) {
        for modifier in modifiers {
            do {
                try modifier.modify(req: &builder)
            } catch let error as CourierError {
                throw error.with(operationID: operationID, request: nil)
            } catch {
                throw CourierError(.modifier(stage: stageName(of: modifier), error), operationID: operationID)
            }
        }
    }

    /// The base URL `builder` is sent to: the provider's, or, for a request to an absolute URL,
    /// that URL's origin — its path and query then become the builder's path. A provider whose
    /// base URL is invalid fails every request, absolute ones too.
    private func rebase(_ builder: inout RequestBuilder, operationID: String) throws(CourierError) -> URL {
        let providerBase = try base.get(operationID: operationID)
        guard let absolute = builder.absoluteURL else { return providerBase }
        guard let scheme = absolute.scheme, let host = absolute.authorityHost,
            let origin = URL(string: "\(scheme)://\(host)\(absolute.port.map { ":\($0)" } ?? "")")
        else {
            throw CourierError(.invalidBaseURL(absolute.absoluteString), operationID: operationID)
        }
        let components = URLComponents(url: absolute, resolvingAgainstBaseURL: false)
        builder.path = (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        return origin
    }

    /// Encodes `builder` — with `accept` as its last field, when given — into the wire parts sent
    /// to `base`, and checks the length of the request target.
    private func encode(_ builder: RequestBuilder, accept: String?, base: URL, absolute: Bool, operationID: String) throws(CourierError) -> RawRequest {
        let settings = BuildSettings(
            keyMapping: keyMapping,
            bodyEncoder: bodyEncoder,
            mappedBodyEncoder: mappedEncoder,
            queryArrayEncoding: queryArrayEncoding
        )
        let raw: RawRequest
        do {
            raw = try builder.build(baseURL: base, operationID: operationID, settings: settings, accept: accept)
        } catch {
            throw error.with(operationID: operationID, request: nil)
        }
        // A request to an absolute URL has the origin alone as its base.
        let basePath = absolute ? 0 : baseParts?.path.utf8.count ?? base.percentEncodedBasePath.utf8.count
        let length = basePath + raw.path.utf8.count
        guard length <= maxRequestTargetLength else {
            throw CourierError(.requestTargetTooLong(length: length, limit: maxRequestTargetLength), operationID: operationID)
        }
        return raw
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

extension Result<URL, CourierError> {
    /// The provider's base URL, or its error for the call `operationID`.
    func get(operationID: String) throws(CourierError) -> URL {
        switch self {
        case .success(let url): url
        case .failure(let error): throw error.with(operationID: operationID, request: nil)
        }
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

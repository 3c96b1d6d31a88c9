import Foundation

/// The fluent steps: each returns a new request and keeps every part set before it, so the
/// order of the steps does not matter.
extension Request {
    /// A copy with the change `change` makes to the parts; every other setting is kept.
    public func modified(_ change: (inout RequestBuilder) -> Void) -> Request {
        var copy = self
        change(&copy.builder)
        return copy
    }

    /// A copy with the value of the `:name` / `{name}` placeholder.
    public func parameter(_ name: String, _ value: some CustomStringConvertible) -> Request {
        modified { $0.addParameter(name, value: value) }
    }

    /// A copy with a query item added (`nil` adds nothing).
    public func query(_ key: String, _ value: some Encodable & Sendable) -> Request {
        modified { $0.addQuery(key, value: value) }
    }

    /// A copy with query items added in order, keys and values as given; a `nil` value sends the
    /// key bare (`["flag": nil]` is `?flag`).
    public func query(_ items: KeyValuePairs<String, String?>) -> Request {
        modified { request in for (key, value) in items { request.__addRawQuery(key, value: value) } }
    }

    /// A copy with `name` set to `value`, replacing earlier values.
    public func header(_ name: HTTPField.Name, _ value: String) -> Request {
        modified { $0.setHeader(name, value: value) }
    }

    /// A copy with a value of `name` added beside earlier ones.
    public func addingHeader(_ name: HTTPField.Name, _ value: String) -> Request {
        modified { $0.addHeader(name, value: value) }
    }

    /// A copy whose headers are exactly `fields`, replacing every earlier one.
    public func headers(_ fields: KeyValuePairs<HTTPField.Name, String>) -> Request {
        modified { request in
            request.headers = [:]
            for (name, value) in fields { request.addHeader(name, value: value) }
        }
    }

    /// A copy without any value of `name`.
    public func removingHeader(_ name: HTTPField.Name) -> Request {
        modified { $0.headers[values: name] = [] }
    }

    /// A copy with the body `content` writes; an error it throws fails the request with
    /// ``CourierError/Kind/encoding`` when it is sent.
    public func body(_ content: BodyContent) -> Request {
        modified { content.write(into: &$0) }
    }

    /// A copy that carries `credentials` when it is sent, after every other step: a static
    /// credential. A provider's ``Provider/authenticated(with:)`` takes an ``Authenticator``,
    /// which refreshes its credential.
    public func credentials(_ credentials: Credentials) -> Request {
        var copy = self
        copy.authentication = credentials
        return copy
    }

    /// A copy that carries `credentials` when it is sent.
    @available(*, deprecated, renamed: "credentials(_:)", message: "a provider's authenticated(with:) takes a refreshing Authenticator; a request's static credential is credentials(_:)")
    public func authenticated(with credentials: Credentials) -> Request {
        self.credentials(credentials)
    }

    /// A copy that fails with ``CourierError/Kind/timeout`` when the exchange takes longer than
    /// `timeout` — for a streamed response, until its head arrives: ``Timeouts/total``.
    public func timeout(_ timeout: Duration) -> Request {
        modified { $0.timeouts.total = timeout }
    }

    /// A copy bounded by the bounds `timeouts` sets, the provider's kept for the others.
    public func timeouts(_ timeouts: Timeouts) -> Request {
        modified { $0.timeouts = $0.timeouts.overridden(by: timeouts) }
    }

    /// A copy sent again after a failure as `policy` says, instead of the provider's
    /// ``Provider/retryPolicy``: `.retry(.standard)`, `.retry(.disabled)`.
    public func retry(_ policy: RetryPolicy) -> Request {
        modified { $0.retryPolicy = policy }
    }

    /// A copy that uses the provider's ``Provider/cache`` as `policy` says: `.cache(.reload)`.
    public func cache(_ policy: CachePolicy) -> Request {
        modified { $0.cachePolicy = policy }
    }

    /// A copy that checks the response with `check` before it is decoded, after the provider's
    /// validators; a thrown error fails the call as ``CourierError/Kind/validation``.
    public func validating(
        fileID: String = #fileID,
        line: Int = #line,
        _ check: @escaping @Sendable (Response) throws -> Void
    ) -> Request {
        var copy = self
        copy.validators.append(Validator(name: "validator at \(fileID):\(line)", check: check))
        return copy
    }

    /// A copy that changes the encoded request — head, body, URL — just before it enters the
    /// middleware chain, after the provider's modifiers; a thrown error fails the call as
    /// ``CourierError/Kind/modifier``.
    public func beforeSending(
        fileID: String = #fileID,
        line: Int = #line,
        _ change: @escaping @Sendable (inout RawRequest) throws -> Void
    ) -> Request {
        var copy = self
        copy.adjustments.append(Adjustment(name: "request hook at \(fileID):\(line)", apply: change))
        return copy
    }

    /// A copy whose response is read by `decoder` instead; every other part — authentication,
    /// timeout, validation — is kept. The one place a request's rules are copied: pagination and
    /// a reconnecting event stream make their requests here too.
    public func receiving<T>(_ decoder: ResponseDecoder<T>) -> Request<T> {
        var request = Request<T>(builder, receiving: decoder)
        request.authentication = authentication
        request.validators = validators
        request.adjustments = adjustments
        return request
    }
}

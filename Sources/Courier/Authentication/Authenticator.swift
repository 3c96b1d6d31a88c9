public import HTTPTypes

/// Keeps a credential, applies it to every request of a provider, and refreshes it when the
/// server refuses it — once for all the requests that were refused together.
///
/// ```swift
/// let tokens = Authenticator<Token>(
///     credential: storedToken,
///     apply: { token, request in request.headers[.authorization] = "Bearer \(token.access)" },
///     refresh: { old in try await auth.refresh(old?.refreshToken) },
///     requiresRefresh: { token in token.expires < .now + 30 }
/// )
/// let provider = Provider(baseURL: "https://api.example.com").authenticated(with: tokens)
/// ```
///
/// What it does, on every request to the provider's own origin (never to another one):
/// - Before each attempt it applies the current credential. A missing credential, or one that
///   `requiresRefresh` says is about to expire, is refreshed first.
/// - A response that `isAuthenticationFailure` recognises (a `401` unless you say otherwise)
///   makes it refresh the credential and send the request once more with the new one. A request
///   that is refused again after a refresh is not refreshed again: its `401` is returned.
/// - Refreshing is single-flight: while a refresh runs, every request that needs one waits for
///   it, and every request refused with the credential that was replaced uses the new one
///   without refreshing again. When 50 requests are refused at once, `refresh` runs once.
/// - When `refresh` throws, every request that waited for it fails with
///   ``CourierError/Kind/authentication``, its underlying error being the one `refresh` threw.
///   A later request tries again.
/// - Requests that `refresh` itself sends through the same provider are sent without the
///   credential and are never refreshed, so a refresh cannot wait for itself.
/// - Headers that `apply` sets are removed on a redirect to another origin, as `Authorization`
///   always is.
public final class Authenticator<Credential: Sendable>: Sendable {
    private let applying: @Sendable (Credential, inout RawRequest) -> Void
    private let refreshing: @Sendable (Credential?) async throws -> Credential
    private let requiresRefresh: @Sendable (Credential) -> Bool
    private let failure: @Sendable (HTTPResponse) -> Bool

    private struct State {
        var credential: Credential?
        /// How many refreshes have started.
        var started = 0
        /// The refresh under way.
        var task: Task<Credential, any Error>?
        /// The error of the last refresh, when it failed.
        var lastFailure: (any Error)?
    }
    private let state: Locked<State>

    /// An authenticator starting with `credential` (or none, refreshed before the first request),
    /// which `apply` adds to each request and `refresh` replaces, given the one it replaces.
    public init(
        credential: Credential? = nil,
        apply: @escaping @Sendable (Credential, inout RawRequest) -> Void,
        refresh: @escaping @Sendable (Credential?) async throws -> Credential,
        requiresRefresh: @escaping @Sendable (Credential) -> Bool = { _ in false },
        isAuthenticationFailure: @escaping @Sendable (HTTPResponse) -> Bool = { $0.status.code == 401 }
    ) {
        self.applying = apply
        self.refreshing = refresh
        self.requiresRefresh = requiresRefresh
        self.failure = isAuthenticationFailure
        self.state = Locked(State(credential: credential))
    }

    /// The credential in use. Set it to replace the credential, after a sign-in for example:
    /// requests refused with the one it replaces are sent again with it, without a refresh.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set {
            state.withLock { state in
                state.credential = newValue
                state.started += 1
                state.lastFailure = nil
            }
        }
    }

    /// What a waiting request does next.
    private enum Step {
        case wait(Task<Credential, any Error>)
        case fail(any Error)
        case proceed
    }

    /// Starts a refresh of the current credential; the caller holds the lock.
    private func startRefresh(_ state: inout State) -> Task<Credential, any Error> {
        let old = state.credential
        state.started += 1
        state.lastFailure = nil
        let refresh = refreshing
        let id = ObjectIdentifier(self)
        // A task of its own: a waiter that is cancelled does not cancel the refresh the others
        // wait for. The task-local marks the requests `refresh` sends as its own.
        let task = Task {
            let outcome: Result<Credential, any Error>
            do {
                outcome = .success(try await AuthenticatorContext.$refreshing.withValue(id) { try await refresh(old) })
            } catch {
                outcome = .failure(error)
            }
            self.state.withLock { state in
                state.task = nil
                switch outcome {
                case .success(let credential): state.credential = credential
                case .failure(let error): state.lastFailure = error
                }
            }
            return try outcome.get()
        }
        state.task = task
        return task
    }
}

/// Which authenticator is refreshing in the current task, so that the requests its refresh sends
/// go without it.
enum AuthenticatorContext {
    @TaskLocal static var refreshing: ObjectIdentifier?
}

/// An ``Authenticator`` as the pipeline uses it, whatever its credential.
protocol RequestAuthenticating: Sendable {
    /// Applies the current credential to `request`, refreshing it first when there is none or
    /// it must be refreshed; returns how many refreshes had started, to pass to ``refresh(after:)``.
    func authenticate(_ request: inout RawRequest) async throws -> Int
    /// Whether `response` says the credential was refused.
    func isAuthenticationFailure(_ response: HTTPResponse) -> Bool
    /// Makes sure a refresh started after `refreshes` has finished: waits for one under way,
    /// starts one when none has started since, or throws the error of the one that failed.
    func refresh(after refreshes: Int) async throws
    /// Whether requests in the current task go without this authenticator.
    var isRefreshingHere: Bool { get }
}

extension Authenticator: RequestAuthenticating {
    func authenticate(_ request: inout RawRequest) async throws -> Int {
        let (credential, started, task) = state.withLock { ($0.credential, $0.started, $0.task) }
        if task == nil, let credential, !requiresRefresh(credential) {
            applying(credential, &request)
            return started
        }
        // None yet, about to expire, or being refreshed: wait for the refresh under way, or
        // start one. The credential it gives is used as it is, so this cannot loop.
        try await refresh(after: task == nil ? started : started - 1)
        // The generation of the credential applied: the last refresh's, or the one before it
        // when a newer refresh is already under way.
        let fresh = state.withLock { ($0.credential, $0.task == nil ? $0.started : $0.started - 1) }
        guard let credential = fresh.0 else { throw MissingCredential() }
        applying(credential, &request)
        return fresh.1
    }

    func isAuthenticationFailure(_ response: HTTPResponse) -> Bool { failure(response) }

    func refresh(after refreshes: Int) async throws {
        let step: Step = state.withLock { state in
            if let task = state.task { return .wait(task) }
            if state.started > refreshes {
                // Someone refreshed since this request's credential was applied.
                if let failure = state.lastFailure { return .fail(failure) }
                return .proceed
            }
            return .wait(startRefresh(&state))
        }
        switch step {
        case .wait(let task): try await Self.wait(for: task)
        case .fail(let error): throw error
        case .proceed: return
        }
    }

    /// Waits for `task`, or until the waiting task is cancelled: the refresh goes on for the
    /// others, and this request stops waiting at once.
    private static func wait(for task: Task<Credential, any Error>) async throws {
        let waiter = Waiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard waiter.install(continuation) else { return }
                Task {
                    let result = await task.result
                    waiter.resume(with: result.map { _ in () })
                }
            }
        } onCancel: {
            waiter.resume(with: .failure(CancellationError()))
        }
    }

    var isRefreshingHere: Bool { AuthenticatorContext.refreshing == ObjectIdentifier(self) }
}

/// One request waiting for a refresh: resumed once, by the refresh's end or by its own
/// cancellation, whichever comes first.
private final class Waiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var early: Result<Void, any Error>?
        var resumed = false
    }
    private let state = Locked(State())

    /// Keeps `continuation`; resumes it at once and returns `false` when the wait already ended.
    func install(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let early: Result<Void, any Error>? = state.withLock { state in
            if let early = state.early {
                state.resumed = true
                return early
            }
            state.continuation = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    func resume(with result: Result<Void, any Error>) {
        let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard !state.resumed else { return nil }
            guard let continuation = state.continuation else {
                if state.early == nil { state.early = result }
                return nil
            }
            state.resumed = true
            state.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}

/// A refresh succeeded and yet left no credential: cannot happen, reported rather than trapped.
struct MissingCredential: Error, CustomStringConvertible {
    var description: String { "the authenticator has no credential after refreshing" }
}

extension Provider {
    /// A copy that authenticates every request to its base URL's origin with `authenticator`,
    /// refreshing the credential when the server refuses it.
    public func authenticated<Credential>(with authenticator: Authenticator<Credential>) -> Provider {
        var copy = self
        copy.authenticator = authenticator
        return copy
    }
}

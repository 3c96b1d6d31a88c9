import HTTPTypes

/// The attempts of one request so far, and why the last was not retried.
struct RetryRecord: Sendable {
    var attempts: [CourierError.Attempt] = []
    var stoppedBecause: String?

    mutating func append(_ number: Int, status: HTTPResponse.Status?, failure: CourierError? = nil, wait: Duration? = nil) {
        let outcome: String
        var kind: CourierError.Kind?
        if let status {
            outcome = "\(status.code) \(status.displayPhrase)"
        } else if let error = failure {
            kind = error.kind
            outcome = "\(error.kind): \(error.message)"
        } else {
            outcome = "no response"
        }
        attempts.append(CourierError.Attempt(number: number, status: status, failure: kind, outcome: outcome, wait: wait))
    }

    /// The last outcome, recorded: returned when it is a response, thrown when it is a failure.
    mutating func finish<Outcome>(_ outcome: Result<Outcome, CourierError>, attempt: Int, status: HTTPResponse.Status?) throws(CourierError) -> (Outcome, RetryRecord) {
        if attempts.isEmpty && stoppedBecause == nil {
            return (try outcome.get(), self)
        }
        append(attempt, status: status, failure: outcome.failure)
        switch outcome {
        case .success(let value): return (value, self)
        case .failure(let error): throw attach(error)
        }
    }

    /// `error` with these attempts, when there is more than the one that made it.
    func attach(_ error: CourierError) -> CourierError {
        attempts.isEmpty && stoppedBecause == nil ? error : error.with(attempts: attempts, stoppedBecause: stoppedBecause)
    }
}

extension Result {
    /// The error, when this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The value, when this is a success.
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

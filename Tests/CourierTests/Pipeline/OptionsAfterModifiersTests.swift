import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// Sets the standard retry policy on every request, as a modifier type.
private struct RetryEverything: RequestModifier {
    func modify(req: inout RequestBuilder) throws {
        req.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
    }
}

private struct Account: Codable, Equatable, Sendable {
    var displayName: String
}

/// Every per-request option a modifier may set is read after the modifiers, once: the retries
/// and reliability articles list `RequestBuilder.retryPolicy`, `.timeouts` and the coders as ways
/// to set them, and a modifier is one of those ways.
@Suite("Options set by a modifier are the ones a request is sent under", .serialized, .timeLimit(.minutes(2)))
struct OptionsAfterModifiersTests {
    @Test("A retry policy set in a closure modifier or a RequestModifier retries: three arrivals", arguments: TransportKind.allCases)
    func retryPolicyFromModifier(transport: TransportKind) async throws {
        var base = try await transport.faultProvider(idle: .seconds(5))
        base.clock = RecordingClock()
        let providers = [
            base.modifyRequests { $0.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none) },
            base.modifyRequests(RetryEverything()),
        ]
        for provider in providers {
            let name = scriptName("modifier-retry", transport)
            FaultServer.script(name, [.answer(status: 503), .answer(status: 503), .answer(status: 200, body: "done")])
            let text = try await provider.send(Request(.get, "/script/:name", receiving: .text).parameter("name", name))
            #expect(text == "done")
            #expect(FaultServer.arrivals(ofScript: name).count == 3)
        }
    }

    @Test("A total bound set in a modifier ends a call that the server leaves waiting", arguments: TransportKind.allCases)
    func totalFromModifier(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(30))
            .modifyRequests { $0.timeouts.total = .milliseconds(400) }
        let name = scriptName("modifier-total", transport)
        FaultServer.script(name, [.stall])
        let started = ContinuousClock.now
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/:name", receiving: .text).parameter("name", name))
        }
        #expect(error?.kind == .timeout)
        // The provider's idle bound is 30 s: only the modifier's bound can end it this soon, with
        // room for a slow machine.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("An idle bound set in a modifier reaches the transport", arguments: TransportKind.allCases)
    func idleFromModifier(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(30))
            .modifyRequests { $0.timeouts.idle = .seconds(1) }
        let name = scriptName("modifier-idle", transport)
        FaultServer.script(name, [.stall])
        let started = ContinuousClock.now
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/:name", receiving: .text).parameter("name", name))
        }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("A key mapping set in a modifier decodes the response", arguments: TransportKind.allCases)
    func keyMappingFromModifier(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
            .modifyRequests { $0.keyMapping = .snakeCase }
        let name = scriptName("modifier-keys", transport)
        FaultServer.script(name, [.answer(status: 200, headers: [("Content-Type", "application/json")], body: #"{"display_name":"Ada"}"#)])
        let account = try await provider.send(Request(.get, "/script/:name", receiving: .json(Account.self)).parameter("name", name))
        #expect(account == Account(displayName: "Ada"))
    }
}

public import Foundation
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift): the document has models and no operation, so the server answers nothing, and
/// its `Components.Schemas.User` is what the tests compare the Courier client's `User` with.
public enum TypeOverridesPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {}

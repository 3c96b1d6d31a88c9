import Foundation

/// The files the plugin reads from a target.
enum Inputs {
    static let documentNames = ["openapi.yaml", "openapi.yml", "openapi.json"]
    static let configurationName = "courier-openapi.json"
}

/// A plugin failure, told to the person building.
struct PluginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

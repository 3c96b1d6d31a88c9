import Foundation
import PackagePlugin

/// Generates a target's Courier client at build time from the `openapi.yaml` (or `.yml`, or
/// `openapi.json`) among its sources, with the options of a `courier-openapi.json` beside it
/// (`{"name": "Bookshop", "mock": true, "protocols": "one"}`, each optional). The client is never written into the
/// package: it is rebuilt whenever the document or the options change.
@main
struct CourierOpenAPIPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url)
        let documents = files.filter { Inputs.documentNames.contains($0.lastPathComponent) }
        guard let document = documents.first else {
            throw PluginFailure("target \(target.name) has no \(Inputs.documentNames.joined(separator: ", ")) for courier-openapi to generate from")
        }
        guard documents.count == 1 else {
            throw PluginFailure("target \(target.name) has \(documents.count) OpenAPI documents; courier-openapi reads one per target")
        }
        let configuration = files.first { $0.lastPathComponent == Inputs.configurationName }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)Client.swift")
        var arguments = [document.path(percentEncoded: false), "--output", output.path(percentEncoded: false)]
        if let configuration { arguments += ["--config", configuration.path(percentEncoded: false)] }
        return [
            .buildCommand(
                displayName: "Generating the Courier client of \(target.name) from \(document.lastPathComponent)",
                executable: try context.tool(named: "courier-openapi").url,
                arguments: arguments,
                inputFiles: [document] + (configuration.map { [$0] } ?? []),
                outputFiles: [output]
            )
        ]
    }
}

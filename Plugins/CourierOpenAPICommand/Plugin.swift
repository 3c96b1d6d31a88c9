import Foundation
import PackagePlugin

/// `swift package generate-courier-client [--target NAME]`: writes each target's Courier client
/// into its sources as `<Target>Client.swift`, from the `openapi.yaml` (or `.yml`, or
/// `openapi.json`) there and the options of a `courier-openapi.json` beside it — for those who
/// commit the generated code (the document may be excluded from the target's build).
@main
struct CourierOpenAPICommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let named = Set(extractor.extractOption(named: "target"))
        let targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }.filter { named.isEmpty || named.contains($0.name) }
        let tool = try context.tool(named: "courier-openapi").url
        var generated = 0
        for target in targets {
            // The target's folder as it is, not only its sources: a target that commits its
            // client excludes the document from its build.
            // The sources first, as the build plugin reads them; then the folder, in name order.
            let listed = ((try? FileManager.default.contentsOfDirectory(at: target.directoryURL, includingPropertiesForKeys: nil)) ?? [])
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let files = target.sourceFiles.map(\.url) + listed
            guard let document = files.first(where: { Inputs.documentNames.contains($0.lastPathComponent) }) else { continue }
            let output = target.directoryURL.appending(path: "\(target.name)Client.swift")
            var arguments = [document.path(percentEncoded: false), "--output", output.path(percentEncoded: false)]
            if let configuration = files.first(where: { $0.lastPathComponent == Inputs.configurationName }) {
                arguments += ["--config", configuration.path(percentEncoded: false)]
            }
            let process = try Process.run(tool, arguments: arguments)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw PluginFailure("courier-openapi failed for target \(target.name) (exit status \(process.terminationStatus))")
            }
            print("wrote \(output.path(percentEncoded: false))")
            generated += 1
        }
        if generated == 0 {
            throw PluginFailure("no target\(named.isEmpty ? "" : " of \(named.sorted().joined(separator: ", "))") has an \(Inputs.documentNames.joined(separator: ", "))")
        }
    }
}

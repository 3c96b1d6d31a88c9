import Foundation
import Testing

/// `Tests/CourierMacroExpansions` is the macro plugin's sources, linked one entry at a time: a file
/// or folder added to the plugin without a link would be missing from the library these tests use.
@Test("Every source of the macro plugin but its @main is linked into CourierMacroExpansions")
func everyPluginSourceIsLinked() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let files = FileManager.default
    let plugin = try files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/CourierMacros").path)
    let linked = try files.contentsOfDirectory(atPath: root.appendingPathComponent("Tests/CourierMacroExpansions").path)
    #expect(plugin.contains("Plugin.swift"))
    #expect(Set(plugin).subtracting(["Plugin.swift"]) == Set(linked))
    for entry in linked {
        let destination = try files.destinationOfSymbolicLink(atPath: root.appendingPathComponent("Tests/CourierMacroExpansions/\(entry)").path)
        #expect(destination == "../../Sources/CourierMacros/\(entry)")
    }
}

import Foundation
import Testing

/// Every Swift sample in the README and the DocC articles is compiled by this target: each
/// ```` ```swift ```` block must equal a region of a file under `Tests/DocumentationTests`,
/// marked `// sample: <name>` … `// end sample`. The comparison ignores indentation, blank lines
/// and `import` lines, and skips region lines ending in `//-` (what a sample needs in order to
/// compile but the page does not show, such as the function around its statements). A block whose
/// first line is `// Papyrus`, `// Postie`, `// Requests`, `// APIKit` or `// Endpoints` shows
/// another library's code in a migration guide and is not Courier's to compile; one whose first
/// line starts with `// Package.swift` is a manifest fragment.
@Suite struct SampleCheckTests {
    @Test func everySampleIsCompiled() throws {
        let samples = try Samples.load()
        #expect(!samples.blocks.isEmpty)
        for block in samples.blocks where block.foreignLibrary == nil && !block.isManifest {
            let isCompiled = samples.regions.contains { $0.lines == block.lines }
            #expect(
                isCompiled,
                "\(block.location): this sample matches no `// sample:` region in Tests/DocumentationTests; \(samples.nearest(to: block))"
            )
        }
    }

    @Test func everyRegionIsShown() throws {
        let samples = try Samples.load()
        let shown = Set(samples.blocks.map(\.lines))
        for region in samples.regions {
            let isShown = shown.contains(region.lines)
            #expect(isShown, "\(region.location): sample '\(region.name)' appears in no page")
        }
        let names = samples.regions.map(\.name)
        #expect(Set(names).count == names.count, "sample names repeat: \(names.sorted())")
    }

    @Test func otherLibrariesCodeOnlyInMigrationGuides() throws {
        for block in try Samples.load().blocks {
            guard let library = block.foreignLibrary else { continue }
            #expect(block.file.hasPrefix("Migrating"), "\(block.location): \(library) code outside a migration guide")
        }
    }

    /// The Reliability article shows the fault table of the README, which `FaultInjectionTests`
    /// checks against the suite.
    @Test func reliabilityTableMatchesTheReadme() throws {
        func table(in url: URL) throws -> [Substring] {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard let start = text.range(of: "| fault | URLSession | AsyncHTTPClient | test |") else { return [] }
            return Array(text[start.lowerBound...].split(separator: "\n").prefix { $0.hasPrefix("|") })
        }
        let readme = try table(in: Samples.root.appending(path: "README.md"))
        let article = try table(in: Samples.root.appending(path: "Sources/Courier/Courier.docc/Reliability.md"))
        #expect(readme.count > 10)
        #expect(article == readme)
    }

    /// Each public top-level type, protocol and macro of `Courier` is listed under a topic of the
    /// catalog, except the `__` entry points of generated code, which DocC hides.
    @Test func everyPublicTypeUnderATopic() throws {
        let root = Samples.root
        let catalog = root.appending(path: "Sources/Courier/Courier.docc")
        let pages = try FileManager.default.contentsOfDirectory(atPath: catalog.path)
            .filter { $0.hasSuffix(".md") }
            .map { try String(contentsOf: catalog.appending(path: $0), encoding: .utf8) }
        let topicLinks = pages.flatMap { page -> [String] in
            guard let topics = page.range(of: "## Topics") else { return [] }
            return page[topics.upperBound...].split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("- ``"), let end = line.dropFirst(4).firstIndex(of: "`") else { return nil }
                let symbol = line[line.index(line.startIndex, offsetBy: 4)..<end]
                return String(symbol.prefix { $0 != "(" && $0 != "/" && $0 != "-" })
            }
        }
        let declared = try Samples.publicTopLevelNames(in: root.appending(path: "Sources/Courier"))
        #expect(declared.count > 50)
        for name in declared.sorted() where !name.hasPrefix("__") && !topicLinks.contains(name) {
            Issue.record("public `\(name)` is under no topic of Courier.docc")
        }
    }
}

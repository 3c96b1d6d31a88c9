import Foundation

/// The Swift blocks of the documentation and the sample regions that compile them.
struct Samples {
    struct Block {
        var file: String
        var line: Int
        var lines: [String]
        var foreignLibrary: String?
        /// A fragment of a `Package.swift` (first line `// Package.swift…`): SwiftPM's to compile, not a test's.
        var isManifest: Bool { lines.first?.hasPrefix("// Package.swift") ?? false }
        var location: String { "\(file):\(line)" }
    }

    struct Region {
        var name: String
        var file: String
        var line: Int
        var lines: [String]
        var location: String { "\(file):\(line)" }
    }

    static let foreignLibraries = ["Papyrus", "Postie", "Requests", "APIKit", "Endpoints"]

    /// The package's root, three folders above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    var blocks: [Block] = []
    var regions: [Region] = []

    static func load() throws -> Samples {
        var samples = Samples()
        var pages = [root.appending(path: "README.md")]
        let sources = root.appending(path: "Sources")
        for case let url as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        where url.pathExtension == "md" && url.path.contains(".docc/") {
            pages.append(url)
        }
        for page in pages {
            samples.blocks += try blocks(in: String(contentsOf: page, encoding: .utf8), file: page.lastPathComponent)
        }
        // Examples/ compiles the samples that need a package the test build must not (swift-otel,
        // which does not build under ThreadSanitizer).
        for folder in ["Tests/DocumentationTests", "Examples/Sources"] {
            let url = root.appending(path: folder)
            for case let url as URL in FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)!
            where url.pathExtension == "swift" {
                samples.regions += try regions(in: String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
            }
        }
        return samples
    }

    /// Lines as compared: trimmed, without blank lines, `import` lines or comments that end a line
    /// with `//-`.
    static func normalized(_ lines: some Sequence<Substring>) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("@testable import ") }
    }

    static func blocks(in page: String, file: String) -> [Block] {
        var found: [Block] = []
        var open: (line: Int, lines: [Substring])?
        var inOtherFence = false
        for (index, line) in page.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var current = open {
                if trimmed == "```" {
                    let lines = normalized(current.lines)
                    let first = lines.first ?? ""
                    let library = foreignLibraries.first { first == "// \($0)" }
                    found.append(Block(file: file, line: current.line, lines: lines, foreignLibrary: library))
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if inOtherFence {
                if trimmed == "```" { inOtherFence = false }
            } else if trimmed == "```swift" {
                open = (index + 1, [])
            } else if trimmed.hasPrefix("```") {
                inOtherFence = true
            }
        }
        return found
    }

    static func regions(in source: String, file: String) -> [Region] {
        var found: [Region] = []
        var open: (name: String, line: Int, lines: [Substring])?
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// sample: ") {
                open = (String(trimmed.dropFirst("// sample: ".count)), index + 1, [])
            } else if trimmed == "// end sample", let current = open {
                found.append(Region(name: current.name, file: file, line: current.line, lines: normalized(current.lines)))
                open = nil
            } else if var current = open, !trimmed.hasSuffix("//-") {
                current.lines.append(line)
                open = current
            }
        }
        return found
    }

    /// A hint for a block that matches nothing: the region sharing its first line, and the first line that differs.
    func nearest(to block: Block) -> String {
        guard let region = regions.first(where: { $0.lines.first == block.lines.first }) else {
            return "no region starts with `\(block.lines.first ?? "")`"
        }
        for (index, line) in block.lines.enumerated() where index >= region.lines.count || region.lines[index] != line {
            let other = index < region.lines.count ? region.lines[index] : "(the region ends)"
            return "region '\(region.name)' differs at its line \(index + 1): page `\(line)`, region `\(other)`"
        }
        return "region '\(region.name)' has more lines than the page's block"
    }

    /// The names of `public` declarations at the top level of the Swift files under `folder`.
    static func publicTopLevelNames(in folder: URL) throws -> Set<String> {
        var names: Set<String> = []
        let declaration = /^(?:@[A-Za-z]+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias|macro)\s+([A-Za-z_][A-Za-z0-9_]*)/
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        where url.pathExtension == "swift" {
            var previous = ""
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                // `@_spi(…) public` declarations are not public API.
                let spi = line.hasPrefix("@_spi") || previous.hasPrefix("@_spi")
                if !spi, let match = line.firstMatch(of: declaration) { names.insert(String(match.1)) }
                previous = String(line)
            }
        }
        return names
    }
}

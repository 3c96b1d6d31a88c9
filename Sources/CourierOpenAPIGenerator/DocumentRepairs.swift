import Foundation

/// Mistakes of a document that need not stop generation, set right in its tree before OpenAPIKit
/// reads it (which refuses the whole document for any of them), each with a warning.
enum DocumentRepairs {
    /// The methods a path item holds operations under.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// Removes from every security requirement — the document's and each operation's — the
    /// schemes that `components.securitySchemes` does not declare; a requirement left empty
    /// goes too, as it would otherwise mean "no credentials".
    static func dropUndeclaredSchemes(_ root: inout [String: Any]) -> [GeneratorWarning] {
        let declared = Set(((root["components"] as? [String: Any])?["securitySchemes"] as? [String: Any])?.keys.map { $0 } ?? [])
        var warnings: [GeneratorWarning] = []
        func repaired(_ requirements: Any?, at pointer: String) -> [Any]? {
            guard let requirements = requirements as? [Any] else { return nil }
            var changed = false
            var kept: [Any] = []
            for (index, requirement) in requirements.enumerated() {
                guard let schemes = requirement as? [String: Any] else {
                    kept.append(requirement)
                    continue
                }
                let undeclared = schemes.keys.filter { !declared.contains($0) }.sorted()
                guard !undeclared.isEmpty else {
                    kept.append(requirement)
                    continue
                }
                changed = true
                for name in undeclared {
                    warnings.append(GeneratorWarning(
                        pointer: "\(pointer)/\(index)/\(name.pointerToken)",
                        message: "the security scheme `\(name)` is not declared in components.securitySchemes: left out"))
                }
                let rest = schemes.filter { declared.contains($0.key) }
                if !rest.isEmpty || schemes.isEmpty { kept.append(rest) }
            }
            return changed ? kept : nil
        }
        if let fixed = repaired(root["security"], at: "#/security") { root["security"] = fixed }
        guard var paths = root["paths"] as? [String: Any] else { return warnings }
        for path in paths.keys.sorted() {
            guard var item = paths[path] as? [String: Any] else { continue }
            var changed = false
            for method in methods {
                guard var operation = item[method] as? [String: Any],
                    let fixed = repaired(operation["security"], at: "#/paths/\(path.pointerToken)/\(method)/security")
                else { continue }
                operation["security"] = fixed
                item[method] = operation
                changed = true
            }
            if changed { paths[path] = item }
        }
        root["paths"] = paths
        return warnings
    }
}

import Foundation

/// A unique script name for one test and transport.
func scriptName(_ test: String, _ transport: TransportKind) -> String {
    "\(test)-\(transport.rawValue)-\(UUID().uuidString.prefix(8))"
}

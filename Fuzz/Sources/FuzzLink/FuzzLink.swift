// The `Link` header (RFC 8288) as pagination reads it.
//
// Input: one header value. Parsing never traps; every target is what stood between `<` and the
// first `>` after it; relation types are lower-cased and never empty; the same value always
// parses the same way; a value of links written back out parses to the same links.
@_spi(Fuzzing) import Courier
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let links = __fuzzLinks(text)
    for link in links {
        guard !link.target.contains(">") else { fatalError("a target holds '>': \(link.target.debugDescription)") }
        guard link.relations.allSatisfy({ !$0.isEmpty && $0 == $0.lowercased() }) else {
            fatalError("relations \(link.relations) from \(text.debugDescription)")
        }
    }
    let again = __fuzzLinks(text)
    guard again.map(\.target) == links.map(\.target), again.map(\.relations) == links.map(\.relations) else {
        fatalError("two parses of \(text.debugDescription) differ")
    }
    // Written back with plain tokens, links whose targets and relations are simple read the same.
    let simple = links.filter { link in
        !link.target.contains(where: { ",;\"".contains($0) })
            && link.relations.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") } }
    }
    let written = simple.map { "<\($0.target)>; rel=\"\($0.relations.joined(separator: " "))\"" }.joined(separator: ", ")
    let reread = __fuzzLinks(written)
    guard reread.map(\.target) == simple.map(\.target), reread.map(\.relations) == simple.map(\.relations) else {
        fatalError("\(written.debugDescription) reads back as \(reread.map(\.target))")
    }
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

import CourierOpenAPIGenerator
import Foundation

/// `courier-openapi DOCUMENT [--output FILE] [--config FILE] [--name NAME] [--mock] [--protocols tag|one]`:
/// writes the Courier client for an OpenAPI document, to FILE or to standard output; warnings go
/// to standard error. A configuration file is JSON, `{"name": "Bookshop", "mock": true,
/// "protocols": "one"}`, each optional; the options given on the command line win.
let usage = "usage: courier-openapi DOCUMENT [--output FILE] [--config FILE] [--name NAME] [--mock] [--protocols tag|one]"

/// What a configuration file may say.
struct ConfigurationFile: Decodable {
    var name: String?
    var mock: Bool?
    var protocols: ClientGenerator.Configuration.Protocols?
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

var arguments = CommandLine.arguments.dropFirst()
var input: String?
var output: String?
var configuration = ClientGenerator.Configuration()
var named: String?
var mocked = false
var grouping: ClientGenerator.Configuration.Protocols?
while let argument = arguments.popFirst() {
    switch argument {
    case "--config":
        guard let value = arguments.popFirst() else { fail("\(usage)\n--config needs a file") }
        do {
            let file = try JSONDecoder().decode(ConfigurationFile.self, from: Data(contentsOf: URL(fileURLWithPath: value)))
            configuration.name = file.name ?? configuration.name
            configuration.mock = file.mock ?? configuration.mock
            configuration.protocols = file.protocols ?? configuration.protocols
        } catch {
            fail("\(value): error: not a courier-openapi configuration ({\"name\": …, \"mock\": …, \"protocols\": \"tag\" or \"one\"}): \(error)")
        }
    case "--output", "-o":
        guard let value = arguments.popFirst() else { fail("\(usage)\n--output needs a file") }
        output = value
    case "--name":
        guard let value = arguments.popFirst() else { fail("\(usage)\n--name needs a name") }
        named = value
    case "--mock":
        mocked = true
    case "--protocols":
        guard let value = arguments.popFirst(), let choice = ClientGenerator.Configuration.Protocols(rawValue: value) else {
            fail("\(usage)\n--protocols needs `tag` (one protocol per tag) or `one`")
        }
        grouping = choice
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        guard input == nil, !argument.hasPrefix("-") else { fail("\(usage)\nunexpected argument: \(argument)") }
        input = argument
    }
}
guard let input else { fail(usage) }
if let named { configuration.name = named }
if mocked { configuration.mock = true }
if let grouping { configuration.protocols = grouping }

let text: String
do {
    text = try String(contentsOfFile: input, encoding: .utf8)
} catch {
    fail("\(input): error: cannot be read: \(error.localizedDescription)")
}
do {
    let generated = try ClientGenerator(configuration: configuration).generate(text, fileName: input)
    for warning in generated.warnings { FileHandle.standardError.write(Data("\(input): \(warning)\n".utf8)) }
    if let output {
        try Data(generated.source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } else {
        print(generated.source, terminator: "")
    }
} catch let error as GeneratorError {
    fail(error.description)
} catch {
    fail("\(output ?? "output"): error: cannot be written: \(error.localizedDescription)")
}

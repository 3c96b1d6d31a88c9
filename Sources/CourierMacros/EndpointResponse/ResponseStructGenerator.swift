/// Writes the `ResponseDecodable` conformance of a parsed response struct.
enum ResponseStructGenerator {
    static func generate(_ model: ResponseStructModel) -> String {
        var body: [String] = []
        if let format = model.format { body.append("let decoder = (\(format) as Courier.BodyFormat).__decoder(or: decoder)") }
        if !model.hasErrorBody { body.append("try response.__validate()") }
        for property in model.properties {
            let target = "self.\(APIGenerator.reference(property.name))"
            // The line stands at the property's declaration, so that a type the response cannot
            // be read as is reported there and not inside the expansion.
            if let location = property.sourceLocation { body.append(location) }
            switch property.kind {
            case .body, .errorBody:
                let call = property.isOptional ? "decodeBody" : "__requireBody"
                body.append("\(target) = try response.\(call)(\(property.wrappedType).self, decoder: decoder, when: \(property.detail ?? ""))")
            case .header:
                let call = property.isOptional ? "__optionalHeader" : "__header"
                body.append("\(target) = try response.\(call)(\(APIGenerator.literal(property.detail ?? "")), as: \(property.wrappedType).self)")
            case .statusCode:
                body.append("\(target) = response.status.code")
            case .cookies:
                body.append("\(target) = response.cookies")
            case .nested:
                body.append("\(target) = try \(property.wrappedType)(from: response, decoder: decoder)")
            }
        }
        if model.properties.contains(where: { $0.sourceLocation != nil }) { body.append("#sourceLocation()") }
        var members = "/// Reads this response's properties from `response`.\n"
        members += "\(model.access)init(from response: Courier.Response, decoder: any Courier.BodyDecoder) throws(Courier.CourierError) {\n"
        members += body.map { "    " + $0 }.joined(separator: "\n") + "\n}"
        if let format = model.format {
            members += "\n\n\(model.access)static var acceptedContentType: String? { (\(format) as Courier.BodyFormat).__accept }"
        }
        return members
    }
}

public import HTTPTypes

/// A response's head as the pipeline carries it: HTTPTypes' message, or the status alone with the
/// header fields still in the transport's form until something reads them.
///
/// A call that decodes a JSON body reads the status and nothing else of the head, so a transport
/// that can defer the conversion (the AsyncHTTPClient transport) saves building every field; the
/// first reader of ``headerFields`` or ``message`` pays for it, once.
package struct ResponseHead: Sendable {
    private enum Storage: Sendable {
        case message(HTTPResponse)
        case deferred(HTTPResponse.Status, any DeferredFields)
    }

    private var storage: Storage

    /// A head in HTTPTypes' form.
    package init(_ message: HTTPResponse) {
        storage = .message(message)
    }

    /// A head whose fields `fields` converts when they are first read.
    package init(status: HTTPResponse.Status, fields: any DeferredFields) {
        storage = .deferred(status, fields)
    }

    /// The status.
    package var status: HTTPResponse.Status {
        switch storage {
        case .message(let message): message.status
        case .deferred(let status, _): status
        }
    }

    /// The header fields, in the order received.
    package var headerFields: HTTPFields {
        switch storage {
        case .message(let message): message.headerFields
        case .deferred(_, let fields): fields.httpFields
        }
    }

    /// The fields still in the transport's form, when the head was made with them.
    package var deferredFields: (any DeferredFields)? {
        if case .deferred(_, let fields) = storage { return fields }
        return nil
    }

    /// The head as HTTPTypes has it.
    package var message: HTTPResponse {
        switch storage {
        case .message(let message): message
        case .deferred(let status, let fields): HTTPResponse(status: status, headerFields: fields.httpFields)
        }
    }
}

/// Response header fields that a transport converts to HTTPTypes' form when first read, and keeps.
/// A class, so that a head carrying them is copied with one reference.
package protocol DeferredFields: AnyObject, Sendable {
    var httpFields: HTTPFields { get }
}

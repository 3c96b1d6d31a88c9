public import Foundation
import HTTPTypes

/// Where the page after this one is, or that there is none.
public struct NextPage: Sendable {
    let change: @Sendable (inout RequestBuilder) -> Void

    /// The page at `url`, absolute or relative to the page's own URL, sent as it is written
    /// (its query replaces the request's).
    public static func url(_ url: URL) -> NextPage {
        NextPage { request in
            request.absoluteURL = url
            request.queryItems = []
            request.parameters = []
        }
    }

    /// The same request with the query item `name` set to `value` (a cursor, a page number),
    /// replacing any earlier value of it.
    public static func query(_ name: String, _ value: String) -> NextPage {
        NextPage { request in
            request.queryItems.removeAll { $0.key == name }
            request.addQuery(name, value: value)
        }
    }

    /// The same request changed as `change` says.
    public static func modify(_ change: @escaping @Sendable (inout RequestBuilder) -> Void) -> NextPage {
        NextPage(change: change)
    }
}

/// One page as the next-page rule sees it: its value, in ``page``.
public struct PageContext<Page: Sendable>: Sendable {
    /// The page's value.
    public let page: Page
    /// The response it was read from (its body already decoded into `page`).
    let response: Response
    /// How many pages came before this one.
    let index: Int

    /// The `next` target of the response's `Link` header (RFC 8288), resolved against the
    /// page's URL; `nil` when there is none. The default rule of `pages(_:limit:next:)`.
    @usableFromInline var linkedNext: URL? {
        guard let base = response.request?.url else { return nil }
        for value in response.head.headerFields[values: .link] {
            for link in LinkHeader.parse(value) where link.relations.contains("next") {
                if let url = URL(string: link.target, relativeTo: base)?.absoluteURL { return url }
            }
        }
        return nil
    }
}

/// The pages of a request, each one a request of its own through the whole pipeline — so
/// retries, authentication, validation and timeouts apply to every page.
///
/// ```swift
/// for try await page in provider.pages(Request(.get, "/repos", receiving: .json([Repo].self))) {
///     print(page.count)
/// }
/// let issues = provider.pages(Request(issues), limit: 10) { context in
///     context.page.nextCursor.map { .query("cursor", $0) }
/// }
/// for try await issue in issues.items(\.items) { … }
/// ```
public struct Pages<Page: Sendable>: AsyncSequence, Sendable {
    let provider: Provider
    let first: Request<Page>
    let limit: Int
    let next: @Sendable (PageContext<Page>) -> NextPage?

    /// An iterator that sends the next page's request when the previous page has been handed over.
    public func makeAsyncIterator() -> some AsyncIteratorProtocol<Page, CourierError> { PageIterator(pages: self, request: first) }

    /// The items of every page, in order: `pages.items(\.results)`.
    public func items<Item: Sendable>(_ items: @escaping @Sendable (Page) -> [Item]) -> some AsyncSequence<Item, CourierError> & Sendable {
        PageItems(pages: self, items: items)
    }
}

/// Reads the pages one by one.
struct PageIterator<Page: Sendable>: AsyncIteratorProtocol {
    let pages: Pages<Page>
    var request: Request<Page>?
    var index = 0

    /// The next page; `nil` after the last one or the limit.
    mutating func next() async throws(CourierError) -> Page? {
        guard let current = request, index < pages.limit else { return nil }
        let (page, response) = try await pages.provider.send(current.keepingResponse())
        let context = PageContext(page: page, response: response, index: index)
        index += 1
        if let following = pages.next(context) {
            var upcoming = current
            following.change(&upcoming.builder)
            request = upcoming
        } else {
            request = nil
        }
        return page
    }
}

/// The items of every page of a ``Pages`` sequence, one by one.
struct PageItems<Page: Sendable, Item: Sendable>: AsyncSequence, Sendable {
    let pages: Pages<Page>
    let items: @Sendable (Page) -> [Item]

    func makeAsyncIterator() -> Iterator { Iterator(pages: PageIterator(pages: pages, request: pages.first), items: items) }

    /// Reads the items one by one, sending a page's request when the items before it ran out.
    struct Iterator: AsyncIteratorProtocol {
        var pages: PageIterator<Page>
        let items: @Sendable (Page) -> [Item]
        var pending: [Item] = []
        var position = 0

        mutating func next() async throws(CourierError) -> Item? {
            while position == pending.count {
                guard let page = try await pages.next() else { return nil }
                pending = items(page)
                position = 0
            }
            defer { position += 1 }
            return pending[position]
        }
    }
}

extension Provider {
    /// The pages of `first`: it is sent, then the page after each page as `next` says — by
    /// default the `next` link of the response's `Link` header (RFC 8288) — up to `limit` pages.
    public func pages<Page: Sendable>(
        _ first: Request<Page>,
        limit: Int = .max,
        next: @escaping @Sendable (PageContext<Page>) -> NextPage? = { $0.linkedNext.map(NextPage.url) }
    ) -> Pages<Page> {
        Pages(provider: self, first: first, limit: max(limit, 0), next: next)
    }
}

extension Request {
    /// This request reading its value together with its response.
    func keepingResponse() -> Request<(Value, Response)> {
        receiving(.withResponse(decoder))
    }
}

/// The `Link` header (RFC 8288 §3): comma-separated `<target>` references, each with
/// `; name=value` parameters, values quoted or not.
enum LinkHeader {
    struct Link: Equatable {
        var target: String
        /// The `rel` parameter's relation types, lower-cased.
        var relations: [String]
        var parameters: [String: String]
    }

    /// The links of one `Link` field value; malformed parts are skipped.
    static func parse(_ value: String) -> [Link] {
        var links: [Link] = []
        var scalars = Substring(value).unicodeScalars[...]
        func skipSpace() { while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() } }
        while !scalars.isEmpty {
            skipSpace()
            guard scalars.first == "<", let close = scalars.firstIndex(of: ">") else {
                // Not a link: skip to the next comma outside quotes.
                skip(&scalars)
                continue
            }
            let target = String(scalars[scalars.index(after: scalars.startIndex)..<close])
            scalars = scalars[scalars.index(after: close)...]
            var parameters: [String: String] = [:]
            while true {
                skipSpace()
                guard scalars.first == ";" else { break }
                scalars.removeFirst()
                skipSpace()
                var name = ""
                while let first = scalars.first, first != "=", first != ";", first != ",", first != " ", first != "\t" {
                    name.unicodeScalars.append(first)
                    scalars.removeFirst()
                }
                skipSpace()
                var parameter = ""
                if scalars.first == "=" {
                    scalars.removeFirst()
                    skipSpace()
                    if scalars.first == "\"" {
                        scalars.removeFirst()
                        while let first = scalars.first, first != "\"" {
                            scalars.removeFirst()
                            if first == "\\", let escaped = scalars.first {
                                parameter.unicodeScalars.append(escaped)
                                scalars.removeFirst()
                            } else {
                                parameter.unicodeScalars.append(first)
                            }
                        }
                        if !scalars.isEmpty { scalars.removeFirst() }
                    } else {
                        while let first = scalars.first, first != ";", first != ",", first != " ", first != "\t" {
                            parameter.unicodeScalars.append(first)
                            scalars.removeFirst()
                        }
                    }
                }
                let key = name.lowercased()
                // The first occurrence of a parameter counts (RFC 8288 §3.3 for `rel`).
                if !key.isEmpty, parameters[key] == nil { parameters[key] = parameter }
            }
            let relations = (parameters["rel"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            links.append(Link(target: target, relations: relations, parameters: parameters))
            skip(&scalars)
        }
        return links
    }

    /// Drops everything up to and including the next comma that is not inside quotes.
    private static func skip(_ scalars: inout Substring.UnicodeScalarView) {
        var quoted = false
        while let first = scalars.first {
            scalars.removeFirst()
            if first == "\"" { quoted.toggle() }
            if first == ",", !quoted { return }
        }
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288).
    static let link = HTTPField.Name("Link")!
}

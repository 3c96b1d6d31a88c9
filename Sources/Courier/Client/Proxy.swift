public import Foundation

/// A proxy a provider's requests go through: an HTTP proxy (a `CONNECT` tunnel for `https`, the
/// absolute form for `http`), with credentials if it asks for them, or a SOCKS5 proxy.
///
/// ```swift
/// let proxy = Proxy.http(host: "proxy.internal", port: 3128, username: "ada", password: "secret")
///     .excluding(["localhost", ".internal.example.com"])
/// let provider = try Provider(baseURL: "https://api.example.com").with(proxy: proxy)
/// ```
///
/// Courier does not read `HTTPS_PROXY` or `NO_PROXY` by itself; ``fromEnvironment(_:scheme:)``
/// reads them when you ask. The proxy's credentials go to the proxy alone, never to the origin.
public struct Proxy: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's protocol.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// An HTTP proxy: `CONNECT` for `https`, the absolute form for `http`.
        public static let http = Kind(name: "http")
        /// A SOCKS5 proxy, without authentication.
        public static let socks5 = Kind(name: "socks5")
        /// `http` or `socks5`.
        public var description: String { name }
    }

    /// HTTP or SOCKS5.
    public let kind: Kind
    /// The proxy's host.
    public let host: String
    /// The proxy's port.
    public let port: Int
    /// The user name sent to the proxy in `Proxy-Authorization`, if any.
    public let username: String?
    /// The password sent with ``username``.
    let password: String?
    /// Hosts reached directly rather than through the proxy: a name (`localhost`), a domain and
    /// its subdomains (`.example.com` or `example.com`), an IP address, or `*` for every host.
    public private(set) var excludedHosts: [String] = []

    /// An HTTP proxy at `host:port`, with Basic credentials when given.
    public static func http(host: String, port: Int, username: String? = nil, password: String? = nil) -> Proxy {
        Proxy(kind: .http, host: host, port: port, username: username, password: password)
    }

    /// A SOCKS5 proxy at `host:port`.
    public static func socks5(host: String, port: Int = 1080) -> Proxy {
        Proxy(kind: .socks5, host: host, port: port, username: nil, password: nil)
    }

    /// This proxy, with `hosts` reached directly (`NO_PROXY`'s rules: a name, a domain with or
    /// without a leading dot or `*.`, an address, or `*`; a trailing dot and a `:port` are
    /// ignored, so a rule with a port excludes the host on every port; address ranges in CIDR
    /// form are not read).
    public func excluding(_ hosts: [String]) -> Proxy {
        var copy = self
        copy.excludedHosts += hosts.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return copy
    }

    /// Whether requests to `host` go directly rather than through the proxy.
    public func excludes(_ host: String) -> Bool {
        let host = Self.bareHost(host.lowercased())
        return excludedHosts.contains { rule in
            if rule == "*" { return true }
            var domain = rule
            if domain.hasPrefix("*") { domain.removeFirst() }
            if domain.hasPrefix(".") { domain.removeFirst() }
            domain = Self.bareHost(Self.withoutPort(domain))
            guard !domain.isEmpty else { return false }
            return host == domain || host.hasSuffix("." + domain)
        }
    }

    /// `host` without a trailing dot or the brackets of an IPv6 address.
    private static func bareHost(_ host: String) -> String {
        var host = Substring(host)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }

    /// `rule` without a `:port`: after a name or an IPv4 address, or after an IPv6 address in
    /// brackets.
    private static func withoutPort(_ rule: String) -> String {
        if rule.hasPrefix("["), let close = rule.firstIndex(of: "]") { return String(rule[...close]) }
        guard rule.filter({ $0 == ":" }).count == 1, let colon = rule.firstIndex(of: ":"), Int(rule[rule.index(after: colon)...]) != nil else { return rule }
        return String(rule[..<colon])
    }

    /// The proxy the environment names for `scheme` — `HTTPS_PROXY` (or `https_proxy`) for
    /// `https`, `HTTP_PROXY` for `http`, then `ALL_PROXY` — with `NO_PROXY`'s exclusions; `nil`
    /// when none is set. A value that is not `http://[user:password@]host[:port]` or
    /// `socks5://host[:port]` throws, naming the variable.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment, scheme: String = "https"
    ) throws(CourierError) -> Proxy? {
        let names = (scheme == "http" ? ["HTTP_PROXY", "http_proxy"] : ["HTTPS_PROXY", "https_proxy"]) + ["ALL_PROXY", "all_proxy"]
        guard let (name, value) = names.lazy.compactMap({ name in environment[name].map { (name, $0) } }).first(where: { !$0.1.isEmpty }) else {
            return nil
        }
        let text = value.contains("://") ? value : "http://" + value
        guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty else {
            throw CourierError(.proxy("\(name) is \(quoted(value)), which is not a proxy address"))
        }
        let proxy: Proxy
        switch url.scheme?.lowercased() {
        case "http": proxy = .http(host: host, port: url.port ?? 80, username: url.user?.removingPercentEncoding, password: url.password?.removingPercentEncoding)
        case "socks5", "socks5h": proxy = .socks5(host: host, port: url.port ?? 1080)
        default:
            throw CourierError(.proxy("\(name) is \(quoted(value)): only http:// and socks5:// proxies are supported"))
        }
        let excluded = (environment["NO_PROXY"] ?? environment["no_proxy"] ?? "").split(separator: ",").map(String.init)
        return proxy.excluding(excluded)
    }

    /// `http://user@host:port` or `socks5://host:port`: never the password.
    public var description: String {
        "\(kind)://" + (username.map { "\($0)@" } ?? "") + "\(host):\(port)"
            + (excludedHosts.isEmpty ? "" : " (not for \(excludedHosts.joined(separator: ", ")))")
    }
}

import Foundation

/// Whether, and for how long, to keep a response on disk.
public enum HTTPStoreDecision: Sendable, Equatable {
    /// Keep nothing; `reason` says why (for logs).
    case doNotStore(reason: String)
    /// Store with these attributes (expiry already resolved, never nil).
    case store(DiskEntryAttributes)
}

/// Turns HTTP response headers into a store decision and an expiry date (RFC 9111, simplified
/// for a cache of immutable-ish image bytes). A pure function of its inputs.
///
/// - `Cache-Control: no-store` is never stored; in a shared cache, neither is `private`.
/// - `no-cache` (or `Pragma: no-cache` with no Cache-Control) is stored but always stale, so
///   every use revalidates; without an ETag or Last-Modified it is not stored at all.
/// - Freshness lifetime: `s-maxage` (shared caches only), else `max-age`, else `Expires − Date`
///   (an unparseable `Expires` means already expired), else `defaultMaxAge`. The `Age` header
///   is subtracted. Clock skew between server and client does not matter: `Date` is only used
///   relative to `Expires`.
/// - A response that is stale on arrival and has no validators is not stored (it could never
///   be used).
///
/// ```swift
/// switch HTTPCachePolicy.decision(headers: response.headers, now: Date(), defaultMaxAge: 7 * 86_400) {
/// case .store(let attributes): try await store.store(body, forKey: key, attributes: attributes)
/// case .doNotStore: break
/// }
/// ```
public enum HTTPCachePolicy {
    /// The decision for a response with `headers` (names case-insensitive, repeats allowed) received at `now`.
    public static func decision(headers: [(name: String, value: String)], now: Date,
                                defaultMaxAge: TimeInterval, isSharedCache: Bool = false) -> HTTPStoreDecision {
        let evaluation = evaluate(headers: headers, now: now, defaultMaxAge: defaultMaxAge, isSharedCache: isSharedCache)
        if let forbidden = evaluation.forbiddenReason { return .doNotStore(reason: forbidden) }
        let attributes = evaluation.attributes
        if attributes.validators.isEmpty {
            if attributes.requiresRevalidation {
                return .doNotStore(reason: "no-cache without ETag or Last-Modified: could never be used")
            }
            if let expiresAt = attributes.expiresAt, expiresAt <= now {
                return .doNotStore(reason: "stale on arrival without ETag or Last-Modified: could never be used")
            }
        }
        return .store(attributes)
    }

    /// What the headers say, before deciding whether storing is useful: `forbiddenReason` is
    /// set for `no-store` (and `private` in a shared cache); `attributes.expiresAt` is never nil.
    /// ``DiskStore/refresh(forKey:notModifiedHeaders:)`` uses this for 304 responses, which
    /// usually omit the validators the stored entry already has.
    public static func evaluate(headers: [(name: String, value: String)], now: Date, defaultMaxAge: TimeInterval,
                                isSharedCache: Bool = false) -> (attributes: DiskEntryAttributes, forbiddenReason: String?) {
        func values(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }
        func first(_ name: String) -> String? {
            values(name).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }

        let cacheControl = values("Cache-Control")
        let directives = parseDirectives(cacheControl)
        let validators = DiskEntryValidators(etag: first("ETag"), lastModified: first("Last-Modified"))
        let contentType = first("Content-Type")
        var forbidden: String?
        if directives["no-store"] != nil {
            forbidden = "Cache-Control: no-store"
        } else if isSharedCache, directives["private"] != nil {
            forbidden = "Cache-Control: private in a shared cache"
        }
        // `no-cache="field"` only restricts those fields; the bare directive forces revalidation.
        let noCache = (directives["no-cache"].map { $0 == nil } ?? false)
            || (cacheControl.isEmpty && values("Pragma").contains { $0.lowercased().contains("no-cache") })
        if noCache {
            return (DiskEntryAttributes(contentType: contentType, expiresAt: now, requiresRevalidation: true,
                                        validators: validators), forbidden)
        }

        let lifetime: TimeInterval
        if isSharedCache, let shared = seconds(directives["s-maxage"] ?? nil) {
            lifetime = shared
        } else if let maxAge = seconds(directives["max-age"] ?? nil) {
            lifetime = maxAge
        } else if let expiresText = first("Expires") {
            if let expires = HTTPDate.parse(expiresText) {
                let origin = first("Date").flatMap(HTTPDate.parse) ?? now
                lifetime = expires.timeIntervalSince(origin)
            } else {
                lifetime = 0   // RFC 9111 §5.3: an invalid Expires (often "0") means already expired
            }
        } else {
            lifetime = defaultMaxAge
        }
        let age = first("Age").flatMap { TimeInterval($0) }.map { max(0, $0) } ?? 0
        let remaining = min(max(0, lifetime - age), maximumLifetime)
        return (DiskEntryAttributes(contentType: contentType, expiresAt: now.addingTimeInterval(remaining),
                                    requiresRevalidation: false, validators: validators), forbidden)
    }

    /// The same, for headers already folded into a dictionary (names case-insensitive).
    public static func decision(headers: [String: String], now: Date, defaultMaxAge: TimeInterval,
                                isSharedCache: Bool = false) -> HTTPStoreDecision {
        decision(headers: headers.map { (name: $0.key, value: $0.value) }, now: now,
                 defaultMaxAge: defaultMaxAge, isSharedCache: isSharedCache)
    }

    /// Cache-Control directives by lowercased name; the value is nil for a bare directive.
    /// The first occurrence of a directive wins.
    static func parseDirectives(_ headerValues: [String]) -> [String: String?] {
        var directives: [String: String?] = [:]
        for headerValue in headerValues {
            for part in splitOutsideQuotes(headerValue) {
                let item = part.trimmingCharacters(in: .whitespaces)
                guard !item.isEmpty else { continue }
                let name: String
                var value: String?
                if let equals = item.firstIndex(of: "=") {
                    name = item[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                    var raw = item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                    if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { raw = String(raw.dropFirst().dropLast()) }
                    value = raw
                } else {
                    name = item.lowercased()
                }
                if directives[name] == nil { directives[name] = .some(value) }
            }
        }
        return directives
    }

    /// Lifetimes are capped at 100 years so dates stay representable everywhere.
    static let maximumLifetime: TimeInterval = 100 * 365 * 86_400

    /// Delta-seconds: a non-negative integer; anything else is ignored (nil).
    private static func seconds(_ text: String?) -> TimeInterval? {
        guard let text, !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return TimeInterval(Int(text) ?? Int.max)   // overflow means "very long", per RFC 9111 §1.2.2
    }

    private static func splitOutsideQuotes(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(text[start ..< index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }
}

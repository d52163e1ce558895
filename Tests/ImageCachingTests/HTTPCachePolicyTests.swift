import Foundation
import Testing
@testable import ImageCaching

@Suite("HTTP cache policy")
struct HTTPCachePolicyTests {
    static let now = Date(timeIntervalSince1970: 784_111_777)   // Sun, 06 Nov 1994 08:49:37 GMT
    static let week: TimeInterval = 7 * 86_400

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var headers: [(name: String, value: String)]
        var shared = false
        /// Seconds of freshness from now, or nil when the response must not be stored.
        var lifetime: TimeInterval?
        var revalidate = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no headers: default max age", headers: [], lifetime: week),
        Case(name: "max-age", headers: [("Cache-Control", "public, max-age=3600")], lifetime: 3600),
        Case(name: "header names are case-insensitive", headers: [("cache-control", "MAX-AGE=60")], lifetime: 60),
        Case(name: "Age is subtracted", headers: [("Cache-Control", "max-age=3600"), ("Age", "600")], lifetime: 3000),
        Case(name: "no-store", headers: [("Cache-Control", "max-age=60, no-store")], lifetime: nil),
        Case(name: "no-store in a second header", headers: [("Cache-Control", "max-age=60"), ("Cache-Control", "no-store")], lifetime: nil),
        Case(name: "no-cache with ETag: stored, always stale",
             headers: [("Cache-Control", "no-cache"), ("ETag", "\"x\"")], lifetime: 0, revalidate: true),
        Case(name: "no-cache without validators: pointless", headers: [("Cache-Control", "no-cache")], lifetime: nil),
        Case(name: "no-cache with field names only restricts fields",
             headers: [("Cache-Control", "no-cache=\"Set-Cookie, X\", max-age=5")], lifetime: 5),
        Case(name: "Pragma no-cache without Cache-Control",
             headers: [("Pragma", "no-cache"), ("Last-Modified", "Sat, 05 Nov 1994 08:49:37 GMT")], lifetime: 0, revalidate: true),
        Case(name: "s-maxage ignored by a private cache", headers: [("Cache-Control", "max-age=10, s-maxage=100")], lifetime: 10),
        Case(name: "s-maxage wins in a shared cache", headers: [("Cache-Control", "max-age=10, s-maxage=100")], shared: true, lifetime: 100),
        Case(name: "private is fine for a private cache", headers: [("Cache-Control", "private, max-age=10")], lifetime: 10),
        Case(name: "private in a shared cache", headers: [("Cache-Control", "private, max-age=10")], shared: true, lifetime: nil),
        Case(name: "Expires relative to Date",
             headers: [("Date", "Sun, 06 Nov 1994 08:00:00 GMT"), ("Expires", "Sun, 06 Nov 1994 09:00:00 GMT")], lifetime: 3600),
        Case(name: "Expires without Date is relative to now",
             headers: [("Expires", "Sun, 06 Nov 1994 09:49:37 GMT")], lifetime: 3600),
        Case(name: "max-age beats Expires", headers: [("Expires", "Sun, 06 Nov 1994 09:49:37 GMT"), ("Cache-Control", "max-age=7")], lifetime: 7),
        Case(name: "invalid Expires means expired: not stored without validators", headers: [("Expires", "0")], lifetime: nil),
        Case(name: "invalid Expires with ETag: stored stale", headers: [("Expires", "0"), ("ETag", "W/\"1\"")], lifetime: 0),
        Case(name: "max-age=0 without validators", headers: [("Cache-Control", "max-age=0")], lifetime: nil),
        Case(name: "malformed max-age falls back to the default", headers: [("Cache-Control", "max-age=abc")], lifetime: week),
    ]

    @Test("store decision and expiry", arguments: cases)
    func decision(_ testCase: Case) {
        let decision = HTTPCachePolicy.decision(headers: testCase.headers, now: Self.now, defaultMaxAge: Self.week,
                                                isSharedCache: testCase.shared)
        switch (decision, testCase.lifetime) {
        case (.doNotStore, nil):
            break
        case let (.store(attributes), lifetime?):
            #expect(attributes.expiresAt == Self.now.addingTimeInterval(lifetime))
            #expect(attributes.requiresRevalidation == testCase.revalidate)
        default:
            Issue.record("got \(decision), expected lifetime \(String(describing: testCase.lifetime))")
        }
    }

    @Test("validators and content type are carried into the attributes")
    func validators() throws {
        let decision = HTTPCachePolicy.decision(
            headers: [("ETag", "\"abc\""), ("Last-Modified", "Sat, 05 Nov 1994 08:49:37 GMT"), ("Content-Type", "image/webp")],
            now: Self.now, defaultMaxAge: 60)
        guard case .store(let attributes) = decision else { Issue.record("not stored"); return }
        #expect(attributes.validators == DiskEntryValidators(etag: "\"abc\"", lastModified: "Sat, 05 Nov 1994 08:49:37 GMT"))
        #expect(attributes.contentType == "image/webp")
    }

    @Test("HTTP dates in all three formats", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func httpDates(_ text: String) {
        #expect(HTTPDate.parse(text) == Self.now)
    }

    @Test("invalid HTTP dates are rejected", arguments: ["0", "", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                                                         "Sun, 06 Nov 1994 25:49:37 GMT", "yesterday"])
    func invalidDates(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("formatting round-trips")
    func formatting() {
        #expect(HTTPDate.format(Self.now) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let date = Date(timeIntervalSince1970: 1_709_251_199)   // 2024-02-29 23:59:59, a leap day
        #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
        #expect(HTTPDate.format(date) == "Thu, 29 Feb 2024 23:59:59 GMT")
    }
}

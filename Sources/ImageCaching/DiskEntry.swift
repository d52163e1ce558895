import Foundation

/// The HTTP validators of a stored response, sent back as `If-None-Match` /
/// `If-Modified-Since` when a stale entry is revalidated.
public struct DiskEntryValidators: Sendable, Equatable, Codable {
    /// The `ETag` response header, verbatim (quotes and `W/` included).
    public var etag: String?
    /// The `Last-Modified` response header, verbatim.
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to revalidate with.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// What the caller says about bytes it stores: how long they stay fresh and how to revalidate.
/// ``HTTPCachePolicy`` derives it from response headers.
public struct DiskEntryAttributes: Sendable, Equatable {
    /// The `Content-Type` of the response, if known.
    public var contentType: String?
    /// When the entry stops being fresh; nil means the store's default maximum age from now.
    public var expiresAt: Date?
    /// `Cache-Control: no-cache`: stored, but stale from the start (always revalidated).
    public var requiresRevalidation: Bool
    /// ETag and Last-Modified.
    public var validators: DiskEntryValidators

    public init(contentType: String? = nil, expiresAt: Date? = nil, requiresRevalidation: Bool = false,
                validators: DiskEntryValidators = DiskEntryValidators()) {
        self.contentType = contentType
        self.expiresAt = expiresAt
        self.requiresRevalidation = requiresRevalidation
        self.validators = validators
    }
}

/// Everything the store keeps about an entry besides its bytes; written in the entry's file header.
public struct DiskEntryMetadata: Sendable, Equatable, Codable {
    /// The key the entry was stored under (the file name is its SHA-256).
    public var key: String
    /// Length of the stored bytes.
    public var size: Int
    /// The `Content-Type` given when storing.
    public var contentType: String?
    /// When the bytes were stored.
    public var storedAt: Date
    /// When the entry stops being fresh.
    public var expiresAt: Date
    /// Stale from the start (`Cache-Control: no-cache`).
    public var requiresRevalidation: Bool
    /// ETag and Last-Modified.
    public var validators: DiskEntryValidators
    /// SHA-256 of the bytes, lowercase hex; checked on every read.
    public var checksum: String

    /// Whether the entry may be used without revalidation at `now`.
    public func isFresh(at now: Date) -> Bool { !requiresRevalidation && now < expiresAt }
}

/// Whether a stored entry may be used as is.
public enum DiskEntryFreshness: Sendable, Equatable {
    /// Within its freshness lifetime: use it.
    case fresh
    /// Past its lifetime (or `no-cache`), but revalidatable: send these validators and, on a
    /// 304, call ``DiskStore/refresh(forKey:attributes:)``.
    case stale(DiskEntryValidators)
}

/// A stored entry as read from disk: bytes whose checksum was verified, plus metadata.
public struct DiskEntry: Sendable, Equatable {
    /// The stored bytes.
    public var data: Data
    /// Key, dates, validators, content type, checksum.
    public var metadata: DiskEntryMetadata
    /// Evaluated when the entry was read.
    public var freshness: DiskEntryFreshness
}

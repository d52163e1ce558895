/// Every failure ImagePipeline reports is one case of this type, worded so a user can act on it.
///
/// Cancellation is not an error case: a cancelled call throws Swift's `CancellationError`.
///
/// ```swift
/// do {
///     let image = try await pipeline.image(url)
/// } catch ImagePipelineError.httpStatus(let status, _) where status == 404 {
///     // missing on the server
/// } catch let error as ImagePipelineError {
///     print(error)   // a one-line explanation
/// }
/// ```
public enum ImagePipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: Decoding and encoding

    /// The bytes are an image format this package does not decode (BMP, TIFF, HEIC, ...).
    case unsupportedFormat(ImageFormat)
    /// The bytes are not recognisable as any image format.
    case unknownFormat
    /// The data claims a known format but is damaged or truncated; `message` is the codec's own.
    case corruptData(format: ImageFormat, message: String)
    /// The header declares more pixels than the configured limit; nothing was allocated.
    case imageTooLarge(width: Int, height: Int, maxPixelCount: Int)
    /// An encoder refused the image (`message` is the codec's own).
    case encodingFailed(format: ImageFormat, message: String)

    // MARK: Loading

    /// The URL could not be parsed or lacks a host.
    case invalidURL(String)
    /// The URL's scheme is not one the loader handles (http, https, file, data).
    case unsupportedScheme(String)
    /// The host name did not resolve.
    case hostNotFound(host: String, message: String)
    /// The TCP connection could not be made (refused, unreachable).
    case connectionFailed(message: String)
    /// The TLS handshake or certificate verification failed.
    case tlsFailed(message: String)
    /// A time limit ran out.
    case timedOut(TimeoutKind)
    /// The server redirected more often than allowed, or in a loop.
    case tooManyRedirects(limit: Int)
    /// The body is larger than the configured maximum (`declared` when Content-Length said so up front).
    case responseTooLarge(limit: Int, declared: Int?)
    /// The server answered with a status other than 2xx (and other than a 304 the caller asked for).
    case httpStatus(Int, url: String)
    /// The connection ended before the body was complete.
    case connectionDropped(bytesReceived: Int)
    /// The request modifier refused to let the request go out.
    case requestRefused(reason: String)
    /// A file: URL could not be read.
    case fileUnreadable(path: String, message: String)
    /// Any other transfer failure, with the transport's own message.
    case transferFailed(message: String)

    // MARK: Caching and the pipeline

    /// The request asked for cached data only, and nothing was cached.
    case notCached
    /// The disk store could not write or read (disk full, permissions); the store stays consistent.
    case diskStoreFailed(message: String)
    /// A processor failed; `processor` is its identifier.
    case processingFailed(processor: String, message: String)

    /// Which time limit ran out.
    public enum TimeoutKind: String, Sendable, Equatable {
        /// Connecting (DNS, TCP and TLS) took too long.
        case connect
        /// The whole transfer took longer than the total timeout.
        case total
        /// The transfer received too few bytes for too long (a stalled server).
        case stall
    }

    public var description: String {
        switch self {
        case .unsupportedFormat(let format):
            return "Unsupported image format: \(format.rawValue) is recognised but not decoded by ImagePipeline"
        case .unknownFormat:
            return "Unknown image format: the data does not start like any known image format"
        case let .corruptData(format, message):
            return "Corrupt \(format.rawValue) data: \(message)"
        case let .imageTooLarge(width, height, limit):
            return "Image too large: \(width)x\(height) is \(width * height) pixels, over the limit of \(limit)"
        case let .encodingFailed(format, message):
            return "Encoding \(format.rawValue) failed: \(message)"
        case .invalidURL(let url):
            return "Invalid URL: \(url)"
        case .unsupportedScheme(let scheme):
            return "Unsupported URL scheme: \(scheme) (http, https, file and data are supported)"
        case let .hostNotFound(host, message):
            return "Host not found: \(host) (\(message))"
        case .connectionFailed(let message):
            return "Connection failed: \(message)"
        case .tlsFailed(let message):
            return "TLS failed: \(message)"
        case .timedOut(let kind):
            return "Timed out (\(kind.rawValue) timeout)"
        case .tooManyRedirects(let limit):
            return "Too many redirects (more than \(limit), or a loop)"
        case let .responseTooLarge(limit, declared):
            if let declared { return "Response too large: \(declared) bytes declared, limit \(limit)" }
            return "Response too large: more than the limit of \(limit) bytes"
        case let .httpStatus(status, url):
            return "HTTP status \(status) for \(url)"
        case .connectionDropped(let bytes):
            return "Connection dropped after \(bytes) bytes of the body"
        case .requestRefused(let reason):
            return "Request refused: \(reason)"
        case let .fileUnreadable(path, message):
            return "Cannot read file \(path): \(message)"
        case .transferFailed(let message):
            return "Transfer failed: \(message)"
        case .notCached:
            return "Not cached: the request allows only cached data and none was found"
        case .diskStoreFailed(let message):
            return "Disk store failed: \(message)"
        case let .processingFailed(processor, message):
            return "Processor \(processor) failed: \(message)"
        }
    }
}

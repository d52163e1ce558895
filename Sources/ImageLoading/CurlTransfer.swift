import CCurl
import CImageSupport
import Foundation
import ImageCore

/// One HTTP transfer on the engine thread: its request, the sink it feeds, and the state the
/// libcurl callbacks build up (headers, body bytes not yet delivered, the first error seen).
///
/// After ``CurlMultiEngine/submit(_:)`` the object is touched only by the engine thread.
final class CurlTransfer: @unchecked Sendable {   // safety argued in the comment beside it
    // Sendable because it is handed to the engine once (through the engine's locked inbox)
    // and from then on read and written only on the engine thread.
    let id: UInt64
    let request: DataRequest
    /// The priority the transfer waits at in the queue (raised by joins of more urgent callers).
    var queuedPriority: DataRequest.Priority = .normal
    let sink: DataTransfer.Sink

    /// Set while the transfer runs; returned to the engine's pool when it ends.
    var easy: UnsafeMutableRawPointer?
    var requestHeaders: UnsafeMutablePointer<curl_slist>?
    /// Holds libcurl's message for the last failure (CURL_ERROR_SIZE bytes).
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    var statusCode = 0
    var headerFields: [HeaderField] = []
    /// Set once the final response's head is known (it may still wait in `pendingHead`).
    var headDelivered = false
    /// The head, until the end of the engine round delivers it.
    var pendingHead: ResponseHead?
    /// Body bytes received so far (decoded), for limits and `connectionDropped`.
    var bodyBytesReceived = 0
    /// Body bytes received in this engine round, delivered as one chunk at its end.
    var pendingBody = Data()
    var isPendingFlush = false
    /// The error to report instead of libcurl's code when a callback aborted the transfer.
    var failure: ImagePipelineError?
    /// Set when the consumer went away; the engine removes the transfer.
    var consumerGone = false
    var isCancelled = false

    let maxResponseSize: Int
    /// `request.url.absoluteString`, set by ``CurlEasySetup`` (which passes it to curl).
    var requestURLString = ""
    unowned(unsafe) var engine: CurlMultiEngine?   // the engine outlives every transfer it runs

    init(id: UInt64, request: DataRequest, sink: DataTransfer.Sink, maxResponseSize: Int = .max) {
        self.id = id
        self.request = request
        self.sink = sink
        self.maxResponseSize = maxResponseSize
        errorBuffer.initialize(to: 0)
    }

    deinit {
        errorBuffer.deallocate()
        if let requestHeaders { curl_slist_free_all(requestHeaders) }
    }

    var errorMessage: String {
        let message = String(cString: errorBuffer)
        return message
    }

    // MARK: Callbacks (engine thread, inside curl_multi_perform)

    /// One header line (status line, field, or the blank line that ends a header block).
    /// Parsed on the raw bytes: this runs for every header of every response on the engine
    /// thread, and Foundation's trimming and comparisons (NSString bridging) cost more than the
    /// rest of a loopback transfer.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == ASCII.lineFeed || bytes[end - 1] == ASCII.carriageReturn { end -= 1 }
        if end == 0 { return endOfHeaderBlock() }
        let line = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        if ASCII.hasPrefix(line, "HTTP/") {
            // A new response (after a redirect or a 1xx): start over.
            headerFields.removeAll(keepingCapacity: true)
            statusCode = ASCII.statusCode(ofStatusLine: line)
            return true
        }
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = ASCII.trimmingOptionalWhitespace(UnsafeRawBufferPointer(rebasing: line[..<colon]))
            let value = ASCII.trimmingOptionalWhitespace(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
            headerFields.append(HeaderField(name: String(decoding: name, as: UTF8.self),
                                            value: String(decoding: value, as: UTF8.self)))
        }
        return true
    }

    private func endOfHeaderBlock() -> Bool {
        if (100 ..< 200).contains(statusCode) { return true }
        let hasLocation = headerFields.contains { ASCII.equalsIgnoringCase($0.name, "location") }
        if [301, 302, 303, 307, 308].contains(statusCode) && hasLocation { return true }   // curl follows it
        if statusCode == 304 || (200 ..< 300).contains(statusCode) {
            return deliverHead()
        }
        failure = .httpStatus(statusCode, url: effectiveURL.absoluteString)
        return false
    }

    var effectiveURL: URL {
        var pointer: UnsafePointer<CChar>?
        if let easy, cis_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer {
            let string = String(cString: pointer)
            // Without a redirect curl reports the URL it was given: reuse the request's URL
            // (equal to what parsing would give) instead of parsing it again.
            if request.url.baseURL == nil, string == requestURLString { return request.url }
            if let url = URL(string: string) { return url }
        }
        return request.url
    }

    /// Prepares the response head, delivered with the round's body bytes at the end of the
    /// engine round (one consumer wake-up for both instead of two); `false` aborts the transfer
    /// (declared body too large).
    func deliverHead() -> Bool {
        guard !headDelivered else { return true }
        headDelivered = true
        var declared: curl_off_t = -1
        if let easy { _ = cis_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) }
        if request.method == .get, declared > maxResponseSize {
            failure = .responseTooLarge(limit: maxResponseSize, declared: Int(declared))
            return false
        }
        let encoding = headerFields.first { ASCII.equalsIgnoringCase($0.name, "content-encoding") }?.value
        let isEncoded = encoding.map { !ASCII.equalsIgnoringCase($0, "identity") } ?? false
        let expected = declared >= 0 && !isEncoded && request.method == .get ? Int(declared) : nil
        if let expected { pendingBody.reserveCapacity(min(expected, 1 << 20)) }
        pendingHead = ResponseHead(statusCode: statusCode, url: effectiveURL, headerFields: headerFields,
                                   expectedContentLength: expected)
        markPendingFlush()
        return true
    }

    /// Body bytes (already decoded by libcurl); `false` aborts the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !headDelivered, !deliverHead() { return false }
        bodyBytesReceived += bytes.count
        if bodyBytesReceived > maxResponseSize {
            failure = .responseTooLarge(limit: maxResponseSize, declared: nil)
            return false
        }
        pendingBody.append(bytes.assumingMemoryBound(to: UInt8.self))
        markPendingFlush()
        return true
    }

    private func markPendingFlush() {
        if !isPendingFlush {
            isPendingFlush = true
            engine?.markPendingFlush(self)
        }
    }

    /// Delivers what this round produced: the head if it is new, then the body bytes as one chunk.
    func flushPending() {
        isPendingFlush = false
        if let head = pendingHead {
            pendingHead = nil
            if !sink.yield(.response(head)) {
                consumerGone = true
                return
            }
        }
        guard !pendingBody.isEmpty else { return }
        let chunk = pendingBody
        pendingBody = Data()
        if !sink.yield(.chunk(chunk)) { consumerGone = true }
    }
}

/// Byte-level helpers for HTTP header lines (ASCII by the protocol).
enum ASCII {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    static func hasPrefix(_ bytes: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = prefix.utf8Start
        for offset in 0 ..< count where bytes[offset] != start[offset] { return false }
        return true
    }

    /// Drops spaces and tabs (HTTP's optional whitespace) at both ends.
    static func trimmingOptionalWhitespace(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[lower ..< upper])
    }

    /// The number after the protocol in "HTTP/1.1 200 OK" (0 when there is none).
    static func statusCode(ofStatusLine line: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while index < line.count, line[index] != 0x20 { index += 1 }
        while index < line.count, line[index] == 0x20 { index += 1 }
        var code = 0
        var digits = 0
        while index < line.count, line[index] != 0x20 {
            let byte = line[index]
            guard byte >= 0x30, byte <= 0x39, digits < 9 else { return 0 }
            code = code * 10 + Int(byte - 0x30)
            digits += 1
            index += 1
        }
        return digits > 0 ? code : 0
    }

    /// Case-insensitive equality for ASCII; `lowercase` must be ASCII lowercase.
    static func equalsIgnoringCase(_ string: String, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard string.utf8.count == count else { return false }
        let expected = lowercase.utf8Start
        var offset = 0
        for byte in string.utf8 {
            let folded = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            if folded != expected[offset] { return false }
            offset += 1
        }
        return true
    }
}

// MARK: C trampolines: libcurl calls these with the transfer as userdata.

let curlWriteTrampoline: cis_curl_data_callback = { bytes, size, count, userdata in
    let length = size * count
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let accepted = transfer.receiveBody(UnsafeRawBufferPointer(start: bytes, count: length))
    return accepted ? length : 0
}

let curlHeaderTrampoline: cis_curl_data_callback = { bytes, size, count, userdata in
    let length = size * count
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let accepted = transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length))
    return accepted ? length : 0
}

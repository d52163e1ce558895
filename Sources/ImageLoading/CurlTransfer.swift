import CCurl
import CImageSupport
import Foundation
import ImageCore

/// One HTTP transfer on the engine thread: its request, the sink it feeds, and the state the
/// libcurl callbacks build up (headers, body bytes not yet delivered, the first error seen).
///
/// After ``CurlMultiEngine/submit(_:)`` the object is touched only by the engine thread.
final class CurlTransfer: @unchecked Sendable {
    // Sendable because it is handed to the engine once (through the engine's locked inbox)
    // and from then on read and written only on the engine thread.
    let id: UInt64
    let request: DataRequest
    let sink: DataTransfer.Sink

    /// Set while the transfer runs; returned to the engine's pool when it ends.
    var easy: UnsafeMutableRawPointer?
    var requestHeaders: UnsafeMutablePointer<curl_slist>?
    /// Holds libcurl's message for the last failure (CURL_ERROR_SIZE bytes).
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    var statusCode = 0
    var headerFields: [HeaderField] = []
    var headDelivered = false
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
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Drop the line break byte-wise ("\r\n" is a single Character in Swift).
        var length = bytes.count
        while length > 0, bytes[length - 1] == 0x0A || bytes[length - 1] == 0x0D { length -= 1 }
        let line = Substring(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or a 1xx): start over.
            headerFields.removeAll(keepingCapacity: true)
            let parts = line.split(separator: " ", maxSplits: 2)
            statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return true
        }
        if !line.isEmpty {
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headerFields.append(HeaderField(name: name, value: value))
            }
            return true
        }
        return endOfHeaderBlock()
    }

    private func endOfHeaderBlock() -> Bool {
        if (100 ..< 200).contains(statusCode) { return true }
        let hasLocation = headerFields.contains { $0.name.caseInsensitiveCompare("Location") == .orderedSame }
        if [301, 302, 303, 307, 308].contains(statusCode) && hasLocation { return true }   // curl follows it
        if statusCode == 304 || (200 ..< 300).contains(statusCode) {
            return deliverHead()
        }
        failure = .httpStatus(statusCode, url: effectiveURL.absoluteString)
        return false
    }

    var effectiveURL: URL {
        var pointer: UnsafePointer<CChar>?
        if let easy, cis_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer,
           let url = URL(string: String(cString: pointer)) {
            return url
        }
        return request.url
    }

    /// Sends the response head; `false` aborts the transfer (declared body too large, or no consumer).
    func deliverHead() -> Bool {
        guard !headDelivered else { return true }
        headDelivered = true
        var declared: curl_off_t = -1
        if let easy { _ = cis_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) }
        if request.method == .get, declared > maxResponseSize {
            failure = .responseTooLarge(limit: maxResponseSize, declared: Int(declared))
            return false
        }
        let encoding = headerFields.first { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }?.value
        let isEncoded = encoding.map { $0.lowercased() != "identity" } ?? false
        let expected = declared >= 0 && !isEncoded && request.method == .get ? Int(declared) : nil
        if let expected { pendingBody.reserveCapacity(min(expected, 1 << 20)) }
        let head = ResponseHead(statusCode: statusCode, url: effectiveURL, headerFields: headerFields,
                                expectedContentLength: expected)
        if !sink.yield(.response(head)) {
            consumerGone = true
            return false
        }
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
        if !isPendingFlush {
            isPendingFlush = true
            engine?.markPendingFlush(self)
        }
        return true
    }

    /// Delivers the bytes gathered in this round as one chunk.
    func flushBody() {
        isPendingFlush = false
        guard !pendingBody.isEmpty else { return }
        let chunk = pendingBody
        pendingBody = Data()
        if !sink.yield(.chunk(chunk)) { consumerGone = true }
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

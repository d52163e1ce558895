import Foundation
import ImageCore

/// Decodes `data:` URLs (RFC 2397): `data:[<media type>][;base64],<data>`, the data either
/// base64 or percent-encoded.
enum DataURLDecoder {
    static func load(_ url: URL, maxSize: Int) -> DataTransfer {
        let (transfer, sink) = DataTransfer.makeTransfer()
        do {
            let (mediaType, body) = try decode(url.absoluteString)
            if body.count > maxSize { throw ImagePipelineError.responseTooLarge(limit: maxSize, declared: body.count) }
            let head = ResponseHead(statusCode: 200, url: url,
                                    headerFields: [HeaderField(name: "Content-Type", value: mediaType),
                                                   HeaderField(name: "Content-Length", value: String(body.count))],
                                    expectedContentLength: body.count)
            sink.yield(.response(head))
            if !body.isEmpty { sink.yield(.chunk(body)) }
            sink.finish()
        } catch {
            sink.fail(error)
        }
        return transfer
    }

    /// Returns the media type (defaulted per RFC 2397) and the decoded bytes.
    static func decode(_ string: String) throws -> (mediaType: String, body: Data) {
        let invalid = ImagePipelineError.invalidURL(String(string.prefix(64)))
        guard string.lowercased().hasPrefix("data:"), let comma = string.firstIndex(of: ",") else { throw invalid }
        let meta = string[string.index(string.startIndex, offsetBy: 5) ..< comma]
        var parameters = meta.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        var mediaType = parameters.joined(separator: ";")
        if mediaType.isEmpty || mediaType.hasPrefix(";") { mediaType = "text/plain" + (mediaType.isEmpty ? ";charset=US-ASCII" : mediaType) }
        guard let payload = percentDecode(string[string.index(after: comma)...]) else { throw invalid }
        if isBase64 {
            let text = String(decoding: payload.filter { !($0 == 32 || $0 == 10 || $0 == 13 || $0 == 9) }, as: UTF8.self)
            var padded = text
            while padded.count % 4 != 0 { padded.append("=") }
            guard let body = Data(base64Encoded: padded) else { throw invalid }
            return (mediaType, body)
        }
        return (mediaType, payload)
    }

    /// `%XX` escapes to bytes; `nil` on a malformed escape.
    static func percentDecode(_ text: Substring) -> Data? {
        var bytes = Data()
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

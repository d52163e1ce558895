import CCurl
import ImageCore

/// Translates a finished transfer's libcurl result into the package's error type.
enum CurlErrorMapping {
    static func error(for code: CURLcode, transfer: CurlTransfer, maxRedirects: Int) -> ImagePipelineError {
        let message = transfer.errorMessage.isEmpty ? String(cString: curl_easy_strerror(code)) : transfer.errorMessage
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return .hostNotFound(host: transfer.request.url.host ?? "", message: message)
        case CURLE_COULDNT_CONNECT:
            return .connectionFailed(message: message)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(timeoutKind(message: message))
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: maxRedirects)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionDropped(bytesReceived: transfer.bodyBytesReceived)
        case CURLE_URL_MALFORMAT:
            return .invalidURL(transfer.request.url.absoluteString)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unsupportedScheme(message)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .tlsFailed(message: message)
        default:
            return .transferFailed(message: message)
        }
    }

    /// libcurl reports every time limit as CURLE_OPERATION_TIMEDOUT; its message is the only
    /// thing that says which one ran out ("Operation too slow" for the low-speed limit,
    /// "Connection timed out"/"Resolving timed out" while connecting, "Operation timed out"
    /// for the total limit).
    static func timeoutKind(message: String) -> ImagePipelineError.TimeoutKind {
        let lowered = message.lowercased()
        if lowered.contains("too slow") { return .stall }
        if lowered.contains("connection timed out") || lowered.contains("connection timeout")
            || lowered.contains("resolving timed out") {
            return .connect
        }
        return .total
    }
}

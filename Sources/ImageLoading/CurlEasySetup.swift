import CCurl
import CImageSupport
import Foundation
import ImageCore

/// Applies a request and the loader's policies to an easy handle (engine thread).
enum CurlEasySetup {
    /// Returns an error when the request cannot be expressed (bad header, option refused).
    static func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer,
                          configuration: CurlDataLoader.Configuration, share: UnsafeMutableRawPointer?) -> ImagePipelineError? {
        let request = transfer.request
        var failed: CURLcode = CURLE_OK
        func check(_ code: CURLcode) { if code != CURLE_OK, failed == CURLE_OK { failed = code } }

        transfer.requestURLString = request.url.absoluteString
        check(cis_easy_setopt_string(easy, CURLOPT_URL, transfer.requestURLString))
        // Only web protocols, also after redirects: a redirect must not reach file:// or others.
        check(cis_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(cis_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        check(cis_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        switch request.method {
        case .get: check(cis_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case .head: check(cis_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        }

        // Redirects.
        check(cis_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1))
        check(cis_easy_setopt_long(easy, CURLOPT_MAXREDIRS, configuration.maxRedirects))

        // Time limits.
        check(cis_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout)))
        check(cis_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds(request.timeout ?? configuration.totalTimeout)))
        let stallSeconds = max(1, Int(configuration.stallTimeout.components.seconds))
        check(cis_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, max(1, configuration.stallMinimumBytesPerSecond)))
        check(cis_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, stallSeconds))

        // Connection reuse and HTTP/2 come from the shared multi handle; DNS from the share handle.
        if let share { check(cis_easy_setopt_pointer(easy, CURLOPT_SHARE, share)) }
        check(cis_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        if request.url.scheme?.lowercased() == "https" {
            // Wait for a connection that may multiplex rather than opening one more.
            check(cis_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
        }
        check(cis_easy_setopt_long(easy, CURLOPT_TCP_NODELAY, 1))
        check(cis_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 64 << 10))
        // "" = every encoding the linked libcurl can decode; bodies arrive decoded.
        check(cis_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""))
        check(cis_easy_setopt_string(easy, CURLOPT_USERAGENT, configuration.userAgent))

        // TLS: verified unless the host was explicitly listed as insecure.
        let insecure = request.url.host.map { configuration.insecureHosts.contains($0.lowercased()) } ?? false
        check(cis_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, insecure ? 0 : 1))
        check(cis_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, insecure ? 0 : 2))

        // Request headers.
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.effectiveHeaders.sorted(by: { $0.key < $1.key }) {
            guard isValidHeader(name: name, value: value) else {
                curl_slist_free_all(list)
                return .requestRefused(reason: "header \(name) is not a valid HTTP header")
            }
            list = curl_slist_append(list, "\(name): \(value)")
        }
        transfer.requestHeaders = list
        if let list { check(cis_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))) }

        // Callbacks and diagnostics.
        let userdata = Unmanaged.passUnretained(transfer).toOpaque()
        check(cis_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteTrampoline))
        check(cis_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata))
        check(cis_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderTrampoline))
        check(cis_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata))
        check(cis_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(transfer.errorBuffer)))

        if failed != CURLE_OK {
            if failed == CURLE_UNSUPPORTED_PROTOCOL { return .unsupportedScheme(request.url.scheme ?? "") }
            return .transferFailed(message: "curl_easy_setopt: \(String(cString: curl_easy_strerror(failed)))")
        }
        return nil
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// Refuses header injection: names are tokens, values carry no line breaks.
    private static func isValidHeader(name: String, value: String) -> Bool {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else { return false }
        return !value.utf8.contains { $0 == 10 || $0 == 13 || $0 == 0 }
    }
}

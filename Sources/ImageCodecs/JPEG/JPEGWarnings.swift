/// Which libjpeg warnings still leave a complete, correct image.
///
/// TurboJPEG reports a warning (`TJERR_WARNING`) for conditions that range from harmless
/// ("extraneous bytes before marker", an unknown JFIF version) to a truncated file, which it
/// pads with grey. Only the harmless ones may pass as success; every other warning is treated
/// as corrupt data. The rule was checked against the whole test corpus (every JPEG decodes).
/// TurboJPEG keeps only the last message, and a truncation warning always comes last.
enum JPEGWarnings {
    private static let harmless = [
        "extraneous bytes before marker",          // padding or garbage between segments
        "unknown JFIF revision",                    // future JFIF versions
        "thumbnail image size does not match",     // a broken JFIF thumbnail we never use
        "bad ICC marker",                           // a damaged colour profile we ignore anyway
        "Unknown Adobe color transform",            // libjpeg falls back to the usual transform
        "Invalid SOS parameters for sequential JPEG",  // some camera firmware; decodes fine
    ]

    static func isHarmless(_ message: String) -> Bool {
        harmless.contains { message.localizedCaseInsensitiveContains($0) }
    }
}

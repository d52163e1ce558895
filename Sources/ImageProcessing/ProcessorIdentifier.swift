import ImageCore

/// Builds identifiers in the documented `name(key=value,...)` form.
enum ProcessorIdentifier {
    /// `name(k1=v1,k2=v2)`; the order of `parameters` is part of the format.
    static func make(_ name: String, _ parameters: KeyValuePairs<String, String>) -> String {
        name + "(" + parameters.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + ")"
    }

    /// The shortest exact decimal form of a number: `8` rather than `8.0`, `2.5`, `0.1`.
    /// Swift's `description` is already shortest-round-trip, so it is stable across platforms.
    static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }

    /// Escapes the characters that structure identifiers (`%`, `(`, `)`, `,`, `=`, `|`) as `%XX`,
    /// so caller-given text cannot imitate a built-in processor or a chain boundary.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%", "(", ")", ",", "=", "|":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "%" + (hex.count < 2 ? "0" + hex : hex)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension ImagePipelineError {
    /// A ``processingFailed(processor:message:)`` for `processor`.
    static func processing(_ processor: some ImageProcessor, _ message: String) -> ImagePipelineError {
        .processingFailed(processor: processor.identifier, message: message)
    }
}

extension ResponseHead {
    /// Header fields as a dictionary with lowercased names; a repeated name keeps its first value.
    var headerDictionary: [String: String] {
        var result: [String: String] = [:]
        for field in headerFields where result[field.name.lowercased()] == nil {
            result[field.name.lowercased()] = field.value
        }
        return result
    }
}

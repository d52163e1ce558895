/// Priority of a request: orders queued transfers and sets the priority of the work's tasks.
public typealias RequestPriority = DataRequest.Priority

extension DataRequest.Priority {
    /// The Swift task priority used for decoding and processing at this request priority.
    var taskPriority: TaskPriority {
        switch self {
        case .veryLow, .low: return .low
        case .normal: return .medium
        case .high, .veryHigh: return .high
        }
    }
}

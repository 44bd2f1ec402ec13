extension Value {
    /// Never a value's `plainCase`: what `plainCase(of:)` gives a type whose values need a check.
    static let notPlain: UInt8 = 0xFF

    /// A byte naming the case of a value that is stored as given whenever its attribute has the
    /// case's own type (an int64, bool, date or uuid); `notPlain - 1` for any other value, so
    /// it never equals `plainCase(of:)` of a type. What `Entity.convertedRecord` compares first.
    @inline(__always)
    var plainCase: UInt8 {
        switch self {
        case .int64: 0
        case .bool: 1
        case .date: 2
        case .uuid: 3
        default: Self.notPlain &- 1
        }
    }

    /// The `plainCase` of a value of `type` needing no check, or `notPlain`.
    static func plainCase(of type: AttributeType) -> UInt8 {
        switch type {
        case .int64: 0
        case .bool: 1
        case .date: 2
        case .uuid: 3
        case .double, .string, .bytes: notPlain
        }
    }
}

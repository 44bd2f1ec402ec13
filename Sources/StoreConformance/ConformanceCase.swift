import StoreCore

/// One conformance case: a group (the feature it covers), a name, the capabilities it needs,
/// and a body that throws `ConformanceFailure` (or any error) when the backend misbehaves.
public struct ConformanceCase: Sendable, Identifiable, CustomStringConvertible {
    public let group: String
    public let name: String
    /// The case is skipped, with the reason, when the backend lacks any of these.
    public let requires: Capabilities
    let body: @Sendable (ConformanceContext) throws -> Void

    public init(_ group: String, _ name: String, requires: Capabilities = [],
                _ body: @escaping @Sendable (ConformanceContext) throws -> Void) {
        self.group = group
        self.name = name
        self.requires = requires
        self.body = body
    }

    /// A case that loads `SocialFixture` before its body.
    public static func seeded(_ group: String, _ name: String, requires: Capabilities = [],
                              _ body: @escaping @Sendable (ConformanceContext) throws -> Void) -> ConformanceCase {
        ConformanceCase(group, name, requires: requires) { ctx in
            try ctx.seed()
            try body(ctx)
        }
    }

    /// `group.name`, unique in the kit.
    public var id: String { "\(group).\(name)" }
    public var description: String { id }
}

/// A difference between what the kit expected and what the backend did.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

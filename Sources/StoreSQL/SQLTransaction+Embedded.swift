import StoreCore

extension SQLTransaction {
    /// Throws `constraintViolation` when an embedded record this transaction inserted, linked
    /// or unlinked exists without an owner. A driver calls it after the closure returns and
    /// before it commits, and rolls back when it throws.
    public func checkEmbeddedOwners() throws {
        try embedded.requireOwners(in: self)
    }
}

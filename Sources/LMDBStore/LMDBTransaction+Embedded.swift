import StoreCore

extension LMDBTransaction {
    /// Throws `constraintViolation` when an embedded record this transaction inserted, linked
    /// or unlinked exists without an owner. The store calls it after the closure returns and
    /// before it commits, and aborts when it throws.
    func checkEmbeddedOwners() throws {
        try embedded.requireOwners(in: self)
    }
}

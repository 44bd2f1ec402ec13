extension ReadTransaction {
    /// The default `forEachPacked`: each row of `forEach` packed into one reused buffer.
    public func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        try PackedRowBuilder.packEach({ try forEach(query, $0) }, body)
    }
}

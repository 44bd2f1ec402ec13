extension ReadTransaction {
    /// The default `forEachPacked`: each row of `forEach` packed into one reused buffer.
    public func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        var builder: PackedRowBuilder?
        try forEach(query) { row in
            if builder == nil { builder = PackedRowBuilder(row.entity) }
            try body(builder!.pack(row))
        }
    }
}

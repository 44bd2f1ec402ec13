import Foundation
import GRDB
import StoreBenchKit
import StoreCore

/// The query workloads in GRDB: the SQLite floor's statements (`FloorSQL.statement`) from
/// `db.cachedStatement(sql:)`, arguments set unchecked, rows read through `Row.fetchCursor`
/// by index, blobs through `withUnsafeData` (no copy).
extension PlainGRDBProgram {
    public func runQueries(_ queries: [FloorQuery], timer: OperationTimer) throws -> Int {
        var rows = TouchRows()
        try timer.each(queries.count) { i in
            try read { db in try Self.run(queries[i], db, into: &rows) }
        }
        return rows.sum
    }

    public func queryDigest(_ queries: [FloorQuery]) throws -> String {
        var rows = DigestRows()
        try read { db in
            for q in queries {
                try Self.run(q, db, into: &rows)
                rows.endQuery()
            }
        }
        return rows.digest.hex
    }

    /// `sb_fold(text, options)`: `TextFolding.fold`, NULL for NULL.
    static let fold = DatabaseFunction("sb_fold", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let options = Int64.fromDatabaseValue(values[1]) else { return nil }
        return TextFolding.fold(text, StringOptions(rawValue: UInt8(truncatingIfNeeded: options)))
    }

    private static func run<S: QueryRowSink>(_ q: FloorQuery, _ db: Database, into sink: inout S) throws {
        let (sql, arguments, kind) = FloorSQL.statement(q)
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(StatementArguments(arguments.map(databaseValue)))
        let rows = try Row.fetchCursor(statement)
        while let row = try rows.next() {
            switch kind {
            case .posts:
                try emitPost(row, &sink)
                if case .postsAndComments = q { try comments(of: row[0], db, into: &sink) }
            case .users: try emitUser(row, &sink)
            case .count: sink.count(row[0])
            }
        }
    }

    private static func comments<S: QueryRowSink>(of post: Int64, _ db: Database, into sink: inout S) throws {
        let statement = try db.cachedStatement(sql: FloorSQL.commentsOfPost)
        statement.setUncheckedArguments([post])
        let rows = try Row.fetchCursor(statement)
        while let row = try rows.next() {
            sink.beginRecord(BenchSchema.comment)
            sink.int(row[0])
            sink.string(row[1])
            sink.date(row[2])
            sink.endRecord()
        }
    }

    private static func emitPost<S: QueryRowSink>(_ row: Row, _ sink: inout S) throws {
        sink.beginRecord(BenchSchema.post)
        sink.int(row[0])
        sink.string(row[1])
        sink.string(row[2])
        sink.int(row[3])
        sink.date(row[4])
        sink.optional(row[5] as Double?) { $0.double($1) }
        sink.bool(row[6])
        sink.endRecord()
    }

    private static func emitUser<S: QueryRowSink>(_ row: Row, _ sink: inout S) throws {
        sink.beginRecord(BenchSchema.user)
        sink.int(row[0])
        sink.string(row[1])
        sink.string(row[2])
        sink.optional(row[3] as String?) { $0.string($1) }
        sink.optional(row[4] as Int64?) { $0.int($1) }
        sink.double(row[5])
        sink.bool(row[6])
        sink.date(row[7])
        try row.withUnsafeData(atIndex: 8) { data in
            if let data { data.withUnsafeBytes { sink.bytes($0) } } else { sink.null() }
        }
        try row.withUnsafeData(atIndex: 9) { data in
            if let data { data.withUnsafeBytes { sink.uuid($0) } } else { sink.null() }
        }
        sink.endRecord()
    }
}

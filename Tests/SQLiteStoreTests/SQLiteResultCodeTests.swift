import CSQLite
import StoreCore
import StoreSQL
import Testing

/// StoreSQL's `SQLiteResultCode`, which has no C import, against SQLite itself: the primary
/// codes against its header, the extended ones (macros Swift does not import) against what it
/// returns.
@Suite("SQLiteResultCode")
struct SQLiteResultCodeTests {
    static let header: [SQLiteResultCode: Int32] = [
        .ok: SQLITE_OK, .error: SQLITE_ERROR, .internal: SQLITE_INTERNAL, .permission: SQLITE_PERM,
        .abort: SQLITE_ABORT, .busy: SQLITE_BUSY, .locked: SQLITE_LOCKED, .noMemory: SQLITE_NOMEM,
        .readOnly: SQLITE_READONLY, .interrupt: SQLITE_INTERRUPT, .ioError: SQLITE_IOERR, .corrupt: SQLITE_CORRUPT,
        .notFound: SQLITE_NOTFOUND, .full: SQLITE_FULL, .cantOpen: SQLITE_CANTOPEN, .protocol: SQLITE_PROTOCOL,
        .empty: SQLITE_EMPTY, .schema: SQLITE_SCHEMA, .tooBig: SQLITE_TOOBIG, .constraint: SQLITE_CONSTRAINT,
        .mismatch: SQLITE_MISMATCH, .misuse: SQLITE_MISUSE, .noLargeFileSupport: SQLITE_NOLFS, .authorization: SQLITE_AUTH,
        .format: SQLITE_FORMAT, .range: SQLITE_RANGE, .notADatabase: SQLITE_NOTADB, .notice: SQLITE_NOTICE,
        .warning: SQLITE_WARNING, .row: SQLITE_ROW, .done: SQLITE_DONE,
    ]

    @Test("every primary code has the header's number")
    func primaryCodes() {
        #expect(Set(Self.header.keys) == Set(SQLiteResultCode.allCases.filter { $0.rawValue <= 0xFF }))
        for (code, number) in Self.header { #expect(code.rawValue == number, "\(code.name)") }
    }

    @Test("every extended constraint code is the one SQLite returns")
    func extendedCodes() {
        var db: OpaquePointer?
        sqlite3_open(":memory:", &db)
        defer { sqlite3_close(db) }
        sqlite3_extended_result_codes(db, 1)
        func run(_ sql: String) -> Int32 { sqlite3_exec(db, sql, nil, nil, nil) }
        #expect(run("""
            PRAGMA foreign_keys = ON; CREATE TABLE p (id INTEGER PRIMARY KEY); INSERT INTO p VALUES (1);
            CREATE TABLE r (x); INSERT INTO r (rowid, x) VALUES (1, 1);
            CREATE TABLE t (k TEXT PRIMARY KEY, u UNIQUE, n NOT NULL, c CHECK (c > 0), f REFERENCES p(id));
            INSERT INTO t VALUES ('a', 1, 1, 1, 1)
            """) == SQLITE_OK)
        #expect(run("INSERT INTO t VALUES ('a', 2, 1, 1, 1)") == SQLiteResultCode.constraintPrimaryKey.rawValue)
        #expect(run("INSERT INTO t VALUES ('b', 1, 1, 1, 1)") == SQLiteResultCode.constraintUnique.rawValue)
        #expect(run("INSERT INTO t VALUES ('b', 2, NULL, 1, 1)") == SQLiteResultCode.constraintNotNull.rawValue)
        #expect(run("INSERT INTO t VALUES ('b', 2, 1, 0, 1)") == SQLiteResultCode.constraintCheck.rawValue)
        #expect(run("INSERT INTO t VALUES ('b', 2, 1, 1, 9)") == SQLiteResultCode.constraintForeignKey.rawValue)
        #expect(run("INSERT INTO r (rowid, x) VALUES (1, 2)") == SQLiteResultCode.constraintRowID.rawValue)
        #expect(SQLiteResultCode.allCases.filter { $0.rawValue > 0xFF }.allSatisfy { SQLiteResultCode.primary(of: $0.rawValue) == .constraint })
    }

    @Test("names: listed codes by their own, other extended codes by their primary code, unknown codes by number")
    func names() {
        #expect(SQLiteResultCode.constraintUnique.name == "SQLITE_CONSTRAINT_UNIQUE")
        #expect(SQLiteResultCode.name(of: SQLITE_NOTADB) == "SQLITE_NOTADB")
        #expect(SQLiteResultCode.name(of: 517 /* SQLITE_BUSY_SNAPSHOT */) == "SQLITE_BUSY")
        #expect(SQLiteResultCode.name(of: 0xFE) == "SQLITE_254")
    }

    @Test("an error's message ends with the code's name and number")
    func message() {
        let e = SQLResultCode.error(517 /* SQLITE_BUSY_SNAPSHOT */, native: "database is locked", sql: nil)
        #expect(e.category == .busy)
        #expect(e.message == "the store is locked (database is locked) (SQLITE_BUSY, 517)")
        let given = SQLResultCode.error(SQLITE_CANTOPEN, native: "unable to open", sql: nil, message: "cannot open x")
        #expect(given.message == "cannot open x (SQLITE_CANTOPEN, 14)")
    }
}

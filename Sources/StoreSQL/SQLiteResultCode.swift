/// SQLite's result codes, numbered as SQLite documents them (https://sqlite.org/rescode.html),
/// for drivers that have no C import: every primary code, and the extended codes the stores
/// tell apart. An extended code's low byte is its primary code.
///
/// ```swift
/// SQLiteResultCode.primary(of: 2067)   // .constraint
/// SQLiteResultCode.name(of: 2067)      // "SQLITE_CONSTRAINT_UNIQUE"
/// ```
public enum SQLiteResultCode: Int32, Sendable, CaseIterable {
    case ok = 0
    case error = 1
    case `internal` = 2
    case permission = 3
    case abort = 4
    case busy = 5
    case locked = 6
    case noMemory = 7
    case readOnly = 8
    case interrupt = 9
    case ioError = 10
    case corrupt = 11
    case notFound = 12
    case full = 13
    case cantOpen = 14
    case `protocol` = 15
    case empty = 16
    case schema = 17
    case tooBig = 18
    case constraint = 19
    case mismatch = 20
    case misuse = 21
    case noLargeFileSupport = 22
    case authorization = 23
    case format = 24
    case range = 25
    case notADatabase = 26
    case notice = 27
    case warning = 28
    case row = 100
    case done = 101

    case constraintCheck = 275
    case constraintForeignKey = 787
    case constraintNotNull = 1299
    case constraintPrimaryKey = 1555
    case constraintUnique = 2067
    case constraintRowID = 2579

    /// The primary code of a result code (its low byte), or nil when SQLite defines none.
    public static func primary(of code: Int32) -> SQLiteResultCode? {
        SQLiteResultCode(rawValue: code & 0xFF)
    }

    /// SQLite's name for a result code, e.g. `SQLITE_CONSTRAINT_UNIQUE`; an extended code not
    /// listed here is named by its primary code, and a code SQLite does not define `SQLITE_<n>`.
    public static func name(of code: Int32) -> String {
        (SQLiteResultCode(rawValue: code) ?? primary(of: code))?.name ?? "SQLITE_\(code)"
    }

    /// SQLite's name for the code, e.g. `SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`.
    public var name: String {
        switch self {
        case .ok: "SQLITE_OK"
        case .error: "SQLITE_ERROR"
        case .internal: "SQLITE_INTERNAL"
        case .permission: "SQLITE_PERM"
        case .abort: "SQLITE_ABORT"
        case .busy: "SQLITE_BUSY"
        case .locked: "SQLITE_LOCKED"
        case .noMemory: "SQLITE_NOMEM"
        case .readOnly: "SQLITE_READONLY"
        case .interrupt: "SQLITE_INTERRUPT"
        case .ioError: "SQLITE_IOERR"
        case .corrupt: "SQLITE_CORRUPT"
        case .notFound: "SQLITE_NOTFOUND"
        case .full: "SQLITE_FULL"
        case .cantOpen: "SQLITE_CANTOPEN"
        case .protocol: "SQLITE_PROTOCOL"
        case .empty: "SQLITE_EMPTY"
        case .schema: "SQLITE_SCHEMA"
        case .tooBig: "SQLITE_TOOBIG"
        case .constraint: "SQLITE_CONSTRAINT"
        case .mismatch: "SQLITE_MISMATCH"
        case .misuse: "SQLITE_MISUSE"
        case .noLargeFileSupport: "SQLITE_NOLFS"
        case .authorization: "SQLITE_AUTH"
        case .format: "SQLITE_FORMAT"
        case .range: "SQLITE_RANGE"
        case .notADatabase: "SQLITE_NOTADB"
        case .notice: "SQLITE_NOTICE"
        case .warning: "SQLITE_WARNING"
        case .row: "SQLITE_ROW"
        case .done: "SQLITE_DONE"
        case .constraintCheck: "SQLITE_CONSTRAINT_CHECK"
        case .constraintForeignKey: "SQLITE_CONSTRAINT_FOREIGNKEY"
        case .constraintNotNull: "SQLITE_CONSTRAINT_NOTNULL"
        case .constraintPrimaryKey: "SQLITE_CONSTRAINT_PRIMARYKEY"
        case .constraintUnique: "SQLITE_CONSTRAINT_UNIQUE"
        case .constraintRowID: "SQLITE_CONSTRAINT_ROWID"
        }
    }
}

import GRDB
import StoreCore
import StoreSQL

/// GRDB's `DatabaseError` as `StoreError`: the category from SQLite's extended result code,
/// with the native code, message and SQL kept. Internal helpers.
enum GRDBErrors {
    static func storeError(_ e: DatabaseError) -> StoreError {
        let code = e.extendedResultCode.rawValue
        let native = e.message ?? "SQLite error \(code)"
        let category = SQLResultCode.category(for: code)
        return StoreError(category, SQLResultCode.describe(category, native: native),
                          nativeCode: code, nativeMessage: native, context: e.sql)
    }

    /// Runs `body`, turning a `DatabaseError` into a `StoreError`; other errors pass through.
    @inline(__always)
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as DatabaseError {
            throw storeError(e)
        }
    }
}

/// Registers StoreSQL's functions (`SQLFunctions`) on a GRDB connection. Internal.
enum GRDBFunctions {
    static let fold = DatabaseFunction(SQLFunctions.fold, argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return SQLFunctions.fold(text, options: Int64.fromDatabaseValue(values[1]) ?? 0)
    }

    static let like = DatabaseFunction(SQLFunctions.like, argumentCount: 3, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return nil }
        return SQLFunctions.like(text, foldedPattern: pattern, options: Int64.fromDatabaseValue(values[2]) ?? 0)
    }

    static func register(on db: Database) {
        db.add(function: fold)
        db.add(function: like)
    }
}

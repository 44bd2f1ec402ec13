import Foundation
import StoreCore

/// What a driver checks of an existing store file before SQLite opens it, so that damage SQLite
/// would read past is a typed error and nothing is written to the file.
///
/// ```swift
/// try SQLStoreFile.checkBeforeOpening(path)   // then sqlite3_open_v2 / DatabasePool(path:)
/// ```
public enum SQLStoreFile {
    /// SQLite's header: the magic string, the page size at 16, the page count at 28 (valid
    /// when the change counter at 24 equals the version-valid-for number at 92).
    static let magic = Array("SQLite format 3\0".utf8)

    /// Throws `io` for a path that is not a regular file, and `corrupted` for a file that is
    /// not a SQLite database or is shorter than its header says (cut short). A missing file
    /// passes: the driver creates a store. A file whose WAL holds frames is left to SQLite,
    /// whose recovery reads the pages the WAL holds. A file a store of this process holds open
    /// is not read (`hold`).
    public static func checkBeforeOpening(_ path: String) throws {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch { return }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw StoreError(.io, "\(path) is not a regular file (\(attributes[.type].map { "\($0)" } ?? "unknown type")); a SQLite store is one file: give a path to a file or to a missing one")
        }
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        guard size > 0 else {
            throw StoreError(.corrupted, "\(path) is empty (0 bytes): a store file is created complete, so this one lost its contents; restore it from a copy, or remove it to start a new store")
        }
        // A file a store of this process holds was checked when it was opened, and is not read
        // here (`read`, `hold`).
        guard let header = read(path, 100) else { return }
        guard header.count == 100, Array(header[0..<16]) == magic else {
            throw StoreError(.corrupted, "\(path) is not a SQLite database (its first bytes are not SQLite's header); nothing was written to it",
                             nativeCode: SQLiteResultCode.notADatabase.rawValue, nativeMessage: SQLiteResultCode.notADatabase.name)
        }
        guard !walHoldsFrames(path) else { return }
        let pageSize = UInt64(be(header, 16, 2) == 1 ? 65_536 : be(header, 16, 2))
        let pages = UInt64(be(header, 28, 4))
        guard pageSize >= 512, pages > 0, be(header, 24, 4) == be(header, 92, 4) else { return }
        if size < pages * pageSize {
            throw StoreError(.corrupted, "\(path) is cut short: its header counts \(pages) pages of \(pageSize) bytes (\(pages * pageSize) bytes), the file has \(size); restore it from a copy",
                             nativeCode: SQLiteResultCode.corrupt.rawValue, nativeMessage: SQLiteResultCode.corrupt.name)
        }
    }

    /// Creates the store file at `path` complete or not at all, when it is missing (see
    /// `StoreDirectory.createFile`): `build` writes a new store at the temporary path it is given.
    public static func createIfMissing(_ path: String, build: (String) throws -> Void) throws {
        try StoreDirectory.createFile(path, companions: ["-wal", "-shm", "-journal"], build: build)
    }

    /// `error` as a driver reports it when the store at `path` could not be opened for
    /// writing: a `readOnly` error from SQLite (read-only media, no permission) says so and
    /// names what to do; other errors pass as they are.
    public static func openingForWrites(_ path: String, _ error: Error) -> Error {
        guard let e = error as? StoreError, e.category == .readOnly else { return error }
        return StoreError(.readOnly, "\(path) cannot be written (read-only media, or no permission): to read it, open it with StoreOptions(readOnly: true)",
                          nativeCode: e.nativeCode, nativeMessage: e.nativeMessage, context: e.context)
    }

    /// Whether the file's header says WAL mode (bytes 18 and 19 are 2): switching such a file
    /// to WAL writes nothing.
    /// False for a file a store of this process holds (it is not read: `read`), so the caller
    /// checks it through SQLite, which shares the process's locks.
    public static func isInWALMode(_ path: String) -> Bool {
        guard let header = read(path, 20), header.count == 20 else { return false }
        return header[18] == 2 && header[19] == 2
    }

    /// A `file:` URI opening `path` as immutable (SQLite takes no lock, reads no WAL), its
    /// reserved characters escaped. SQLite must accept URIs (`SQLITE_OPEN_URI`).
    public static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for c in path.unicodeScalars {
            escaped += c == "%" || c == "?" || c == "#" ? "%" + String(c.value, radix: 16, uppercase: true) : String(c)
        }
        return "file:\(escaped)?immutable=1"
    }

    /// The first `count` bytes of the file (fewer when it is shorter), or nil when unreadable or
    /// held by a store of this process (closing a descriptor of it would drop its locks: `hold`).
    private static func read(_ path: String, _ count: Int) -> [UInt8]? {
        guard !isHeld(path), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)).map { [UInt8]($0 ?? Data()) }
    }

    /// Whether `path-wal` holds more than its 32-byte header.
    private static func walHoldsFrames(_ path: String) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.uint64Value ?? 0
        return size > 32
    }

    /// The big-endian number of `width` bytes at `offset`.
    private static func be(_ b: [UInt8], _ offset: Int, _ width: Int) -> UInt32 {
        b[offset..<offset + width].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

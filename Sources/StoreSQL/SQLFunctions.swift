import StoreCore

/// The SQL functions the compiled SQL calls, giving SQLite the semantics StoreCore defines
/// and SQLite lacks. A driver registers both on every connection, deterministic, calling
/// these implementations:
///
/// - `sb_fold(text, options)`: `TextFolding.fold`, for `[c]`/`[d]` comparisons and sorts;
/// - `sb_like(text, foldedPattern, options)`: NSPredicate `LIKE` (`*` and `?` wildcards).
///
/// Both return NULL for NULL text. A driver also registers the row checksum functions (C
/// target `CRowChecksum`), which keep the checksum of a record's attributes in `sb_sum`.
public enum SQLFunctions {
    /// The name of the row checksum function: `sb_row_sum(firstOrdinal, v…)`.
    public static let rowChecksum = "sb_row_sum"
    /// The function that swaps changed columns' terms in a checksum: `(sum, ordinal, old, new, …)`.
    public static let rowChecksumReplace = "sb_row_sum_replace"
    /// Wrapping addition of two checksums.
    public static let rowChecksumAdd = "sb_row_sum_add"
    /// The column of every entity table that holds its row's checksum.
    public static let checksumColumn = "sb_sum"

    /// The name of the folding function (2 arguments).
    public static let fold = "sb_fold"
    /// The name of the `LIKE` function (3 arguments).
    public static let like = "sb_like"

    /// `sb_fold`'s result for non-NULL text.
    @inline(__always)
    public static func fold(_ text: String, options: Int64) -> String {
        TextFolding.fold(text, StringOptions(rawValue: UInt8(truncatingIfNeeded: options)))
    }

    /// `sb_like`'s result for non-NULL text and pattern.
    @inline(__always)
    public static func like(_ text: String, foldedPattern: String, options: Int64) -> Bool {
        TextFolding.like(text, foldedPattern: foldedPattern, StringOptions(rawValue: UInt8(truncatingIfNeeded: options)))
    }
}

import Foundation

// MARK: - sb_fold and sb_like over bytes, for a driver's C registration (internal helpers exposed)

extension SQLFunctions {
    /// `sb_fold` over `length` bytes of UTF-8 text, NULs included: what a driver registers in C
    /// (`sb_register_text_functions` of CRowChecksum) so that text is never cut at a NUL. The
    /// result is `malloc`ed, for SQLite to free. Threading: any thread.
    public static let foldBytes: @convention(c) (UnsafePointer<UInt8>?, Int32, Int64, UnsafeMutablePointer<Int64>?)
        -> UnsafeMutablePointer<UInt8>? = { text, length, options, outLength in
            guard let text, let outLength else { return nil }
            var folded = fold(String(decoding: UnsafeBufferPointer(start: text, count: Int(length)), as: UTF8.self), options: options)
            return folded.withUTF8 { bytes in
                guard let out = malloc(max(bytes.count, 1))?.assumingMemoryBound(to: UInt8.self) else { return nil }
                if let base = bytes.baseAddress { out.initialize(from: base, count: bytes.count) }
                outLength.pointee = Int64(bytes.count)
                return out
            }
        }

    /// `sb_like` over the bytes of the text and of the folded pattern, NULs included: 1 or 0.
    public static let likeBytes: @convention(c) (UnsafePointer<UInt8>?, Int32, UnsafePointer<UInt8>?, Int32, Int64) -> Int32 = {
        text, textLength, pattern, patternLength, options in
        guard let text, let pattern else { return 0 }
        let t = String(decoding: UnsafeBufferPointer(start: text, count: Int(textLength)), as: UTF8.self)
        let p = String(decoding: UnsafeBufferPointer(start: pattern, count: Int(patternLength)), as: UTF8.self)
        return like(t, foldedPattern: p, options: options) ? 1 : 0
    }
}

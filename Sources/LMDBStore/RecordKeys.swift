/// A record's primary key and index keys, encoded one after the other in one buffer, with
/// where each ends: borrowed views, valid only while both buffers are. Internal.
struct RecordKeys {
    let bytes: UnsafeRawBufferPointer
    /// `ends[0]`: where the primary key ends; `ends[i + 1]`: where index `i`'s key ends.
    let ends: UnsafeBufferPointer<Int>

    var primary: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<ends[0]]) }

    func index(_ i: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[ends[i]..<ends[i &+ 1]]) }
}

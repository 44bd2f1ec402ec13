import Foundation

/// Linux's `struct procmap_query` (`linux/fs.h`, kernel 6.11): asked of an open
/// `/proc/self/maps` with `ioctl(PROCMAP_QUERY)`, it returns one mapping, with no path
/// printed. Debian 12's headers predate it, so its layout is written out here. Internal.
struct ProcMapQuery {
    var size = UInt64(MemoryLayout<ProcMapQuery>.size)
    var queryFlags: UInt64 = 0
    var queryAddress: UInt64 = 0
    var start: UInt64 = 0
    var end: UInt64 = 0
    var flags: UInt64 = 0
    var pageSize: UInt64 = 0
    var offset: UInt64 = 0
    var inode: UInt64 = 0
    var deviceMajor: UInt32 = 0
    var deviceMinor: UInt32 = 0
    var nameSize: UInt32 = 0
    var buildIDSize: UInt32 = 0
    var nameAddress: UInt64 = 0
    var buildIDAddress: UInt64 = 0

    /// `_IOWR('f', 17, struct procmap_query)`.
    static let request: UInt = 0xC000_0000 | UInt(104 << 16) | UInt(UInt8(ascii: "f")) << 8 | 17
    /// The mapping at or after the address, among those backed by a file.
    static let coveringOrNextFileBacked: UInt64 = 0x10 | 0x20

    /// The mapping of the file `inode` on the device `major:minor` from its offset 0; `.unknown`
    /// when the process maps it nowhere; nil when the kernel does not answer the query.
    static func locate(inode: UInt64, major: UInt64, minor: UInt64) -> MapRegion? {
        guard MemoryLayout<ProcMapQuery>.size == 104 else { return nil }
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address: UInt64 = 0
        while true {
            var q = ProcMapQuery()
            q.queryFlags = coveringOrNextFileBacked
            q.queryAddress = address
            guard withUnsafeMutablePointer(to: &q, { ioctl(fd, request, $0) }) == 0 else { return errno == ENOENT ? .unknown : nil }
            if q.inode == inode && UInt64(q.deviceMajor) == major && UInt64(q.deviceMinor) == minor && q.offset == 0 {
                return MapRegion(start: UInt(q.start), end: UInt(q.end))
            }
            guard q.end > address else { return nil }
            address = q.end
        }
    }
}

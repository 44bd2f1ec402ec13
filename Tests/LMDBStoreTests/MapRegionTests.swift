import Foundation
@testable import LMDBStore
import Testing

/// Finding a mapped file's address range, which bounds every key and value LMDB hands out:
/// the kernel's `PROCMAP_QUERY` (Linux 6.11+) and the text of `/proc/self/maps` agree.
@Suite("the map region of a file")
struct MapRegionTests {
    /// A file of `pages` pages mapped from offset 0; its inode, device numbers and address.
    static func mapFile(pages: Int) throws -> (inode: UInt64, major: UInt64, minor: UInt64, address: UInt, length: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("map-region-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT, 0o600)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        let length = pages * Int(getpagesize())
        try #require(ftruncate(fd, off_t(length)) == 0)
        let p = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
        try #require(p != MAP_FAILED)
        var st = stat()
        try #require(fstat(fd, &st) == 0)
        let (major, minor) = MapRegion.deviceNumbers(UInt64(st.st_dev))
        return (UInt64(st.st_ino), major, minor, UInt(bitPattern: p), length)
    }

    @Test func bothWaysFindTheMappingAndAgree() throws {
        let m = try Self.mapFile(pages: 3)
        defer { munmap(UnsafeMutableRawPointer(bitPattern: m.address), m.length) }
        let text = MapRegion.fromMapsText(inode: m.inode, major: m.major, minor: m.minor)
        #expect(text.start == m.address && text.end == m.address + UInt(m.length))
        if let queried = ProcMapQuery.locate(inode: m.inode, major: m.major, minor: m.minor) {
            #expect(queried.start == text.start && queried.end == text.end)
        }
    }

    @Test func aFileMappedNowhereIsUnknown() throws {
        let m = try Self.mapFile(pages: 1)
        munmap(UnsafeMutableRawPointer(bitPattern: m.address), m.length)
        #expect(MapRegion.fromMapsText(inode: m.inode, major: m.major, minor: m.minor).start == 0)
        if let queried = ProcMapQuery.locate(inode: m.inode, major: m.major, minor: m.minor) { #expect(queried.start == 0) }
    }

    @Test func thisKernelAnswersTheQueryWhenItIsNewEnough() {
        var u = utsname()
        uname(&u)
        let release = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let parts = release.split(separator: ".").prefix(2).compactMap { Int($0.prefix { $0.isNumber }) }
        guard parts.count == 2, (parts[0], parts[1]) >= (6, 11) else { return }
        #expect(ProcMapQuery.locate(inode: 1, major: 0, minor: 0) != nil, "Linux \(release) should answer PROCMAP_QUERY")
    }
}

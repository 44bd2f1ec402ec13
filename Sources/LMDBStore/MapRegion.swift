import CLMDB
import Foundation

/// The address range of an environment's memory map of `data.mdb` in this process, found in
/// `/proc/self/maps` by the file's inode (LMDB does not expose its map address unless the map
/// is fixed). Found again after every resize, which may move the map. Internal.
///
/// This runs at every open, and printing the map list costs the kernel about 1 ms in a Swift
/// process: Linux 6.11 and later answer `PROCMAP_QUERY` instead, one mapping per call with
/// no paths printed (`ProcMapQuery`); older kernels' text is read.
struct MapRegion: Sendable {
    let start: UInt
    let end: UInt

    static let unknown = MapRegion(start: 0, end: 0)

    /// The mapping of the environment's data file, or `unknown` when it cannot be found.
    static func locate(_ env: OpaquePointer) -> MapRegion {
        guard let st = dataFileStatus(env) else { return .unknown }
        let (major, minor) = deviceNumbers(UInt64(st.st_dev)), inode = UInt64(st.st_ino)
        return ProcMapQuery.locate(inode: inode, major: major, minor: minor) ?? fromMapsText(inode: inode, major: major, minor: minor)
    }

    /// A `dev_t`'s major and minor numbers (glibc's layout).
    static func deviceNumbers(_ dev: UInt64) -> (major: UInt64, minor: UInt64) {
        (((dev >> 8) & 0xFFF) | ((dev >> 32) & ~UInt64(0xFFF)), (dev & 0xFF) | ((dev >> 12) & ~UInt64(0xFF)))
    }

    /// The mapping of the file `inode` on the device `major:minor` from offset 0, read from the
    /// text of `/proc/self/maps` ("start-end perms offset dev inode path"), or `unknown`.
    static func fromMapsText(inode: UInt64, major: UInt64, minor: UInt64) -> MapRegion {
        guard let bytes = readAll("/proc/self/maps") else { return .unknown }
        let maps = String(decoding: bytes, as: UTF8.self)
        let device = String(format: "%02llx:%02llx", major, minor)   // as /proc prints it
        for line in maps.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 5, UInt64(f[4]) == inode, f[3] == device, UInt64(f[2], radix: 16) == 0 else { continue }
            let range = f[0].split(separator: "-")
            guard range.count == 2, let a = UInt(range[0], radix: 16), let b = UInt(range[1], radix: 16) else { continue }
            return MapRegion(start: a, end: b)
        }
        return .unknown
    }

    /// `fstat` of the environment's data file, or `nil`.
    static func dataFileStatus(_ env: OpaquePointer) -> stat? {
        var fd: Int32 = -1
        var st = stat()
        guard mdb_env_get_fd(env, &fd) == 0, fd >= 0, fstat(fd, &st) == 0 else { return nil }
        return st
    }

    /// A whole file read with `read(2)` until its end: Foundation's `String(contentsOfFile:)`
    /// came back without the mapping under the full test suite (a /proc file has no size).
    static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue } else { return nil } }
            if n == 0 { return out }
            out += chunk[..<n]
        }
    }
}

import CLMDB
import Foundation

/// The address range of an environment's memory map of `data.mdb` in this process, found in
/// `/proc/self/maps` by the file's inode (LMDB does not expose its map address unless the map
/// is fixed). Found again after every resize, which may move the map. Internal.
///
/// This runs at every open, and printing the map list costs the kernel about 1 ms in a Swift
/// process: Linux 6.11 and later answer `PROCMAP_QUERY` instead, one mapping per call with
/// no paths printed (`ProcMapQuery`); older kernels' text is read as bytes, field by field.
struct MapRegion: Sendable {
    let start: UInt
    let end: UInt

    static let unknown = MapRegion(start: 0, end: 0)

    /// The mapping of the environment's data file, or `unknown` when it cannot be found.
    static func locate(_ env: OpaquePointer) -> MapRegion {
        guard let st = dataFileStatus(env) else { return .unknown }
        // The file's device as major and minor numbers (glibc's dev_t layout).
        let dev = UInt64(st.st_dev)
        let major = ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~UInt64(0xFFF))
        let minor = (dev & 0xFF) | ((dev >> 12) & ~UInt64(0xFF))
        let inode = UInt64(st.st_ino)
        return ProcMapQuery.locate(inode: inode, major: major, minor: minor) ?? fromMapsText(inode: inode, major: major, minor: minor)
    }

    /// The mapping of the file `inode` on the device `major:minor` from offset 0, read from the
    /// text of `/proc/self/maps`, or `unknown`.
    static func fromMapsText(inode: UInt64, major: UInt64, minor: UInt64) -> MapRegion {
        guard let maps = readAll("/proc/self/maps") else { return .unknown }
        // The device as /proc prints it: "major:minor" in hex.
        let file = MapLine.Wanted(device: Array(String(format: "%02llx:%02llx", major, minor).utf8), inode: Array(String(inode).utf8))
        return maps.withUnsafeBufferPointer { b in
            var start = 0
            while start < b.count {
                let end = b[start...].firstIndex(of: UInt8(ascii: "\n")) ?? b.count
                if let region = MapLine(b[start..<end]).region(of: file) { return region }
                start = end + 1
            }
            return .unknown
        }
    }

    /// `fstat` of the environment's data file, or `nil`.
    static func dataFileStatus(_ env: OpaquePointer) -> stat? {
        var fd: Int32 = -1
        var st = stat()
        guard mdb_env_get_fd(env, &fd) == 0, fd >= 0, fstat(fd, &st) == 0 else { return nil }
        return st
    }

    /// A whole file read with `read(2)` (a /proc file has no size to ask for), or nil.
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

/// One line of `/proc/self/maps`: "start-end perms offset dev inode path". Internal.
struct MapLine {
    struct Wanted {
        let device: [UInt8]
        let inode: [UInt8]
    }

    let bytes: Slice<UnsafeBufferPointer<UInt8>>

    init(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) { self.bytes = bytes }

    /// The line's address range when it maps `file` from offset 0.
    func region(of file: Wanted) -> MapRegion? {
        let f = fields(5)
        guard f.count == 5, bytes[f[4]].elementsEqual(file.inode), bytes[f[3]].elementsEqual(file.device),
              bytes[f[2]].allSatisfy({ $0 == UInt8(ascii: "0") }),
              let dash = bytes[f[0]].firstIndex(of: UInt8(ascii: "-")),
              let a = Self.hex(bytes[f[0].lowerBound..<dash]), let b = Self.hex(bytes[(dash + 1)..<f[0].upperBound]) else { return nil }
        return MapRegion(start: a, end: b)
    }

    /// The ranges of the first `n` space-separated fields.
    private func fields(_ n: Int) -> [Range<Int>] {
        var out: [Range<Int>] = [], i = bytes.startIndex
        out.reserveCapacity(n)
        while out.count < n && i < bytes.endIndex {
            while i < bytes.endIndex && bytes[i] == UInt8(ascii: " ") { i += 1 }
            let s = i
            while i < bytes.endIndex && bytes[i] != UInt8(ascii: " ") { i += 1 }
            if i > s { out.append(s..<i) }
        }
        return out
    }

    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var v: UInt = 0
        for d in digits {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt(d - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return v
    }
}

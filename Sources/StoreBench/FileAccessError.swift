import Foundation

/// A file or folder the CLI could not read or write, with the system's reason, as one line:
/// `cannot write Reports/latest.json: Permission denied`. `path` is as the user gave it.
public struct FileAccessError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case read, write
        case createFolder = "create the folder"
    }

    public let operation: Operation
    public let path: String
    /// The system's words (`strerror`), e.g. `Permission denied`, `Not a directory`.
    public let reason: String

    public init(_ operation: Operation, _ path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// The error Foundation threw for `path`, reduced to its POSIX reason.
    public init(_ operation: Operation, _ path: String, _ error: any Error) {
        self.init(operation, path, reason: Self.reason(of: error))
    }

    public var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }

    /// The POSIX reason behind a Foundation file error (`strerror` of its errno), else its
    /// localized description.
    static func reason(of error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}

import Foundation
import StoreCore

/// What a backend author implements to run the kit: how to open a store of a schema in a
/// directory. The kit gives every case a fresh, empty temporary directory, reopens the store
/// there when a case asks for it, and removes the directory afterwards.
///
/// ```swift
/// struct MyHarness: ConformanceHarness {
///     let name = "mystore"
///     func open(schema: Schema, directory: URL) throws -> any Repository {
///         try MyStore(directory: directory, schema: schema)
///     }
/// }
/// let report = ConformanceKit.run(MyHarness())
/// ```
///
/// `open` must create the store when the directory is empty and open the existing one
/// otherwise. Threading: called from the thread running the case.
public protocol ConformanceHarness: Sendable {
    /// The backend's name, as it appears in reports.
    var name: String { get }
    func open(schema: Schema, directory: URL) throws -> any Repository
    /// Opens with a migration plan (`StoreOptions.migrations`): what the `migrations` group
    /// calls. The default throws `unsupported`; a harness whose backend declares `migrations`
    /// implements it.
    func open(schema: Schema, directory: URL, migrations: MigrationPlan) throws -> any Repository
    /// Opens the existing store read-only (`StoreOptions.readOnly`): what the `readOnly` group
    /// calls. The default throws `unsupported`; a harness whose backend declares
    /// `readOnlyMode` implements it.
    func openReadOnly(schema: Schema, directory: URL) throws -> any Repository
    /// Rewrites the closed store in `directory` without the space of deleted records
    /// (`BackendDescriptor.compact`): what the `compaction` group calls. The default throws
    /// `unsupported`; a harness whose backend declares `compaction` implements it.
    func compact(schema: Schema, directory: URL) throws
    /// Checks the closed store in `directory` for damage (`BackendDescriptor.verify`): what the
    /// `verify` group calls on damaged copies. The default opens the store (read-only where the
    /// harness can) and runs `verify()`; a backend whose engine may crash reading a damaged
    /// file checks the file first.
    func verify(schema: Schema, directory: URL) throws -> VerificationReport
}

extension ConformanceHarness {
    public func open(schema: Schema, directory: URL, migrations: MigrationPlan) throws -> any Repository {
        throw StoreError(.unsupported, "the harness '\(name)' cannot open a store with a migration plan: implement open(schema:directory:migrations:)")
    }

    public func openReadOnly(schema: Schema, directory: URL) throws -> any Repository {
        throw StoreError(.unsupported, "the harness '\(name)' cannot open a store read-only: implement openReadOnly(schema:directory:)")
    }

    public func verify(schema: Schema, directory: URL) throws -> VerificationReport {
        try VerificationReport.ofStore {
            do { return try openReadOnly(schema: schema, directory: directory) } catch let e as StoreError where e.category == .unsupported {
                return try open(schema: schema, directory: directory)
            }
        }
    }

    public func compact(schema: Schema, directory: URL) throws {
        throw StoreError(.unsupported, "the harness '\(name)' cannot compact a store: implement compact(schema:directory:)")
    }
}

/// A harness over a `BackendDescriptor` (what the CLI's registry holds).
public struct DescriptorHarness: ConformanceHarness {
    public let descriptor: BackendDescriptor
    public let options: StoreOptions

    public init(_ descriptor: BackendDescriptor, options: StoreOptions = StoreOptions(durability: .relaxed)) {
        self.descriptor = descriptor
        self.options = options
    }

    public var name: String { descriptor.name }

    public func open(schema: Schema, directory: URL) throws -> any Repository {
        try descriptor.open(schema, directory, options)
    }

    public func open(schema: Schema, directory: URL, migrations: MigrationPlan) throws -> any Repository {
        var options = options
        options.migrations = migrations
        return try descriptor.open(schema, directory, options)
    }

    public func openReadOnly(schema: Schema, directory: URL) throws -> any Repository {
        try descriptor.open(schema, directory, options.readingOnly)
    }

    public func verify(schema: Schema, directory: URL) throws -> VerificationReport {
        try descriptor.verify(schema, directory, options)
    }

    public func compact(schema: Schema, directory: URL) throws {
        guard let compact = descriptor.compact else {
            throw StoreError(.unsupported, "\(descriptor.name) has no compaction (its descriptor's compact is nil)")
        }
        try compact(schema, directory, options)
    }
}

import Foundation
import StoreBenchKit

/// A YCSB core workload, read from its property file: the `usertable` shape, the load and run
/// phases' sizes, the operation mix and the request distribution.
///
/// ```swift
/// let spec = try YCSBWorkloadSpec(file: "Fixtures/ycsb/workloada")
/// spec.readProportion        // 0.5
/// spec.requestDistribution   // .zipfian
/// ```
///
/// Every property of YCSB's `CoreWorkload` and client is known, so YCSB's own files run as
/// shipped. One whose value StoreBench does not implement (a `hotspot` distribution, a
/// field-length histogram, data-integrity checks, a throughput target, another workload class)
/// is `unsupported` and names it; a property YCSB does not have is `unknownProperties`. A client
/// setting that changes nothing here (`measurementtype=histogram`, `histogram.buckets`, …) is
/// kept in `settingsWithoutEffect`, which the cells record and the report lists.
public struct YCSBWorkloadSpec: Sendable, Equatable {
    public enum InsertOrder: String, CaseIterable, Sendable { case hashed, ordered }
    public enum ScanLengthDistribution: String, CaseIterable, Sendable { case uniform, zipfian }

    public var name: String
    public var recordCount = 1_000
    public var operationCount = 1_000
    public var threadCount = 1
    public var table = "usertable"
    public var fieldCount = 10
    public var fieldLength = 100
    public var fieldNamePrefix = "field"
    public var readAllFields = true
    public var writeAllFields = false
    public var readProportion = 0.95
    public var updateProportion = 0.05
    public var insertProportion = 0.0
    public var scanProportion = 0.0
    public var readModifyWriteProportion = 0.0
    public var requestDistribution = KeyDistribution.uniform
    public var minScanLength = 1
    public var maxScanLength = 1_000
    public var scanLengthDistribution = ScanLengthDistribution.uniform
    public var insertOrder = InsertOrder.hashed
    public var insertStart = 0
    /// Records this client loads, from `insertStart` (`insertcount`; all of them by default).
    public var insertCount: Int?
    public var zipfianConstant = ZipfianGenerator.ycsbConstant
    /// Key numbers are padded with zeros to this many digits (`zeropadding`; 1 pads nothing).
    public var zeroPadding = 1
    /// Settings of the file that change nothing here (a YCSB client setting such as
    /// `measurementtype=histogram`, a hotspot fraction without the hotspot distribution), by key.
    public var settingsWithoutEffect: [String: String] = [:]

    /// YCSB's defaults (CoreWorkload's), named `name`.
    public init(name: String) { self.name = name }

    /// Reads the property file at `path`.
    public init(file path: String) throws {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw YCSBPropertyError(.invalidValue(property: "file", value: path), "cannot read the YCSB workload file \(path): \(error.localizedDescription)")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        try self.init(YCSBProperties.parse(text, source: path), name: name, source: path)
    }

    /// Builds the workload from parsed properties; `source` names the file in errors.
    public init(_ p: YCSBProperties, name: String, source: String) throws {
        self.name = name
        let reader = Reader(properties: p, source: source)
        // The workload class first: a TimeSeriesWorkload file is refused for that, not for its properties.
        try reader.unsupportedUnless("workload", in: YCSBClientSettings.coreWorkloadClasses)
        let unknown = p.values.keys.filter { !Self.known.contains($0) && YCSBClientSettings.withoutEffect($0) == nil }.sorted()
        guard unknown.isEmpty else {
            let listed = unknown.map { "\($0) (line \(p.lines[$0] ?? 0))" }.joined(separator: ", ")
            throw YCSBPropertyError(.unknownProperties(unknown), "\(source): YCSB's core workload has no property \(listed); known: \(Self.known.sorted().joined(separator: ", "))")
        }
        settingsWithoutEffect = try YCSBClientSettings.check(p, reader)
        recordCount = try reader.int("recordcount", recordCount, min: 1)
        operationCount = try reader.int("operationcount", operationCount, min: 0)
        threadCount = try reader.int("threadcount", threadCount, min: 1)
        table = reader.string("table", table)
        fieldCount = try reader.int("fieldcount", fieldCount, min: 1)
        fieldLength = try reader.int("fieldlength", fieldLength, min: 0)
        fieldNamePrefix = reader.string("fieldnameprefix", fieldNamePrefix)
        readAllFields = try reader.bool("readallfields", readAllFields)
        writeAllFields = try reader.bool("writeallfields", writeAllFields)
        readProportion = try reader.proportion("readproportion", readProportion)
        updateProportion = try reader.proportion("updateproportion", updateProportion)
        insertProportion = try reader.proportion("insertproportion", insertProportion)
        scanProportion = try reader.proportion("scanproportion", scanProportion)
        readModifyWriteProportion = try reader.proportion("readmodifywriteproportion", readModifyWriteProportion)
        requestDistribution = try reader.choice("requestdistribution", requestDistribution,
                                                unsupported: ["hotspot", "exponential", "sequential"])
        minScanLength = try reader.int("minscanlength", minScanLength, min: 1)
        maxScanLength = try reader.int("maxscanlength", maxScanLength, min: minScanLength)
        scanLengthDistribution = try reader.choice("scanlengthdistribution", scanLengthDistribution, unsupported: [])
        insertOrder = try reader.choice("insertorder", insertOrder, unsupported: [])
        insertStart = try reader.int("insertstart", insertStart, min: 0)
        insertCount = try p.values["insertcount"].map { _ in try reader.int("insertcount", 0, min: 0) }
        zipfianConstant = try reader.double("zipfian.constant", zipfianConstant, above: 0)
        zeroPadding = try reader.int("zeropadding", zeroPadding, min: 1)
        let total = readProportion + updateProportion + insertProportion + scanProportion + readModifyWriteProportion
        guard total > 0 else {
            throw YCSBPropertyError(.invalidValue(property: "readproportion", value: "0"), "\(source): every operation proportion is 0; give at least one of readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion")
        }
    }

    /// Every property YCSB's core workload and client read from a workload file: those that
    /// shape the run here, those followed only at YCSB's default, and those without effect
    /// (`YCSBClientSettings`; also any `htrace.*`).
    public static let known: Set<String> = Set([
        "workload", "recordcount", "operationcount", "threadcount", "table", "fieldcount", "fieldlength",
        "fieldnameprefix", "readallfields", "writeallfields",
        "readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion",
        "requestdistribution", "minscanlength", "maxscanlength", "scanlengthdistribution", "insertorder",
        "insertstart", "insertcount", "zipfian.constant", "zeropadding",
    ]).union(YCSBClientSettings.onlyAt.keys).union(YCSBClientSettings.withoutEffect.keys)
}

extension YCSBWorkloadSpec {
    /// Typed reads of properties with their messages. Internal helper.
    struct Reader {
        let properties: YCSBProperties
        let source: String

        /// `file:line` of `key`, for messages.
        func at(_ key: String) -> String { "\(source):\(properties.lines[key] ?? 0)" }

        func string(_ key: String, _ fallback: String) -> String { properties.values[key] ?? fallback }

        func int(_ key: String, _ fallback: Int, min: Int) throws -> Int {
            guard let raw = properties.values[key] else { return fallback }
            guard let v = Int(raw), v >= min else {
                throw YCSBPropertyError(.invalidValue(property: key, value: raw), "\(at(key)): \(key)=\(raw) must be a whole number of at least \(min)")
            }
            return v
        }

        func double(_ key: String, _ fallback: Double, above bound: Double) throws -> Double {
            guard let raw = properties.values[key] else { return fallback }
            guard let v = Double(raw), v.isFinite, v > bound else {
                throw YCSBPropertyError(.invalidValue(property: key, value: raw), "\(at(key)): \(key)=\(raw) must be a number above \(bound)")
            }
            return v
        }

        func proportion(_ key: String, _ fallback: Double) throws -> Double {
            guard let raw = properties.values[key] else { return fallback }
            guard let v = Double(raw), v >= 0, v <= 1 else {
                throw YCSBPropertyError(.invalidValue(property: key, value: raw), "\(at(key)): \(key)=\(raw) must be a proportion between 0 and 1")
            }
            return v
        }

        func bool(_ key: String, _ fallback: Bool) throws -> Bool {
            guard let raw = properties.values[key] else { return fallback }
            switch raw.lowercased() {
            case "true": return true
            case "false": return false
            default: throw YCSBPropertyError(.invalidValue(property: key, value: raw), "\(at(key)): \(key)=\(raw) must be true or false")
            }
        }

        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ fallback: T, unsupported: [String]) throws -> T where T.RawValue == String {
            guard let raw = properties.values[key] else { return fallback }
            if let v = T(rawValue: raw) { return v }
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            if unsupported.contains(raw) {
                throw YCSBPropertyError(.unsupported(property: key, value: raw), "\(at(key)): \(key)=\(raw) is YCSB's but StoreBench does not implement it; use one of \(names)")
            }
            throw YCSBPropertyError(.invalidValue(property: key, value: raw), "\(at(key)): \(key)=\(raw) is not one of \(names)")
        }

        /// A property StoreBench accepts only with these values (its default among them).
        func unsupportedUnless(_ key: String, in accepted: [String]) throws {
            guard let raw = properties.values[key], !accepted.contains(raw) else { return }
            throw YCSBPropertyError(.unsupported(property: key, value: raw), "\(at(key)): \(key)=\(raw) is not implemented by StoreBench; accepted: \(accepted.joined(separator: ", "))")
        }
    }
}

import StoreBenchKit

/// The properties of YCSB's workload files beyond the workload itself: the client's and the
/// core workload's settings that change nothing in StoreBench (accepted, and recorded so the
/// report can say they had no effect), those StoreBench follows only at YCSB's default, and the
/// workload classes it runs. From YCSB's `workloads/workload_template`, `CoreWorkload.java`,
/// `Client.java`, `DBWrapper.java` and `measurements/*.java`.
enum YCSBClientSettings {
    /// The workload classes StoreBench runs: YCSB's core workload, by its current and old package.
    static let coreWorkloadClasses = ["site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload"]

    /// Properties that change nothing here, with why.
    static let withoutEffect: [String: String] = [
        "measurementtype": "latencies are always an HdrHistogram",
        "histogram.buckets": "YCSB's bucket histogram is not used",
        "timeseries.granularity": "YCSB's time series is not used",
        "hdrhistogram.percentiles": "the report gives p95 and p99",
        "hdrhistogram.fileoutput": "no histogram files are written",
        "hdrhistogram.output.path": "no histogram files are written",
        "measurement.histogram.verbose": "no buckets are printed",
        "measurement.interval": "operations are not throttled, so intended and actual latencies agree",
        "measurement.trackjvm": "no JVM",
        "measurement.raw.output_file": "no raw data points are written",
        "measurement.raw.no_summary": "no raw data points are written",
        "db": "the backends come from --backends",
        "exporter": "results go to StoreBench's report and JSON",
        "exportfile": "results go to StoreBench's report and JSON",
        "status": "the runner shows progress",
        "status.interval": "the runner shows progress",
        "label": "the runner shows progress",
        "spin.sleep": "operations are not throttled",
        "reportlatencyforeacherror": "a failed operation fails the cell",
        "latencytrackederrors": "a failed operation fails the cell",
        "core_workload_insertion_retry_limit": "a failed insert fails the cell",
        "core_workload_insertion_retry_interval": "a failed insert fails the cell",
        "core_workload_insertion_keep_going_on_error": "a failed insert fails the cell",
        "maxscanrate": "CloudBigtable2Client only",
        "scanoptimelimit": "CloudBigtable2Client only",
        "discardscannedrecord": "CloudBigtable2Client only",
        "columnfamily": "no column families here",
        "hotspotdatafraction": "only for requestdistribution=hotspot",
        "hotspotopnfraction": "only for requestdistribution=hotspot",
        "exponential.percentile": "only for requestdistribution=exponential",
        "exponential.frac": "only for requestdistribution=exponential",
        "minfieldlength": "only for a uniform or zipfian fieldlengthdistribution",
        "fieldlengthhistogram": "only for fieldlengthdistribution=histogram",
        "readallfieldsbyname": "a read fetches the whole record by key",
    ]

    /// Tracing settings (`htrace.sampler.classes`, …): no effect either.
    static let withoutEffectPrefix = "htrace."

    /// Properties StoreBench follows only at these values (YCSB's default first): other values
    /// change the run in ways it does not implement.
    static let onlyAt: [String: [String]] = [
        "fieldlengthdistribution": ["constant"],
        "dataintegrity": ["false"],
        "target": ["0"],
        "maxexecutiontime": ["0", ""],
        "dotransactions": ["true"],
    ]

    /// The values YCSB's client accepts for `measurementtype`.
    static let measurementTypes = ["hdrhistogram", "histogram", "timeseries", "raw"]

    /// Why `key` changes nothing here, or nil when it does (or is unknown).
    static func withoutEffect(_ key: String) -> String? {
        withoutEffect[key] ?? (key.hasPrefix(withoutEffectPrefix) ? "no tracing here" : nil)
    }

    /// The settings of `p` that change nothing here (`measurementtype=hdrhistogram` is what
    /// StoreBench does, so it is not among them), after checking the values StoreBench follows
    /// only at YCSB's default.
    static func check(_ p: YCSBProperties, _ reader: YCSBWorkloadSpec.Reader) throws -> [String: String] {
        for (key, accepted) in onlyAt.sorted(by: { $0.key < $1.key }) { try reader.unsupportedUnless(key, in: accepted) }
        if let type = p.values["measurementtype"], !measurementTypes.contains(type) {
            throw YCSBPropertyError(.invalidValue(property: "measurementtype", value: type),
                                    "\(reader.at("measurementtype")): measurementtype=\(type) is not one of \(measurementTypes.joined(separator: ", "))")
        }
        return p.values.filter { key, value in withoutEffect(key) != nil && !(key == "measurementtype" && value == "hdrhistogram") }
    }
}

import Foundation
import StoreBench
import Testing

/// YCSB property files: the six committed core workloads, Java properties syntax, and the
/// errors for a malformed line, an unknown property and an unsupported value.
@Suite("YCSB workload files")
struct YCSBWorkloadSpecTests {
    private func spec(_ text: String) throws -> YCSBWorkloadSpec {
        try YCSBWorkloadSpec(YCSBProperties.parse(text, source: "test"), name: "test", source: "test")
    }

    private func error(_ text: String) -> YCSBPropertyError? {
        do { _ = try spec(text); return nil } catch let e as YCSBPropertyError { return e } catch { return nil }
    }

    @Test func theSixCoreWorkloadsParse() throws {
        let dir = Bench.fixtures.appendingPathComponent("ycsb")
        var mixes: [String: [Double]] = [:]
        for letter in ["a", "b", "c", "d", "e", "f"] {
            let s = try YCSBWorkloadSpec(file: dir.appendingPathComponent("workload\(letter)").path)
            #expect(s.name == "workload\(letter)")
            #expect(s.recordCount == 1_000 && s.operationCount == 1_000 && s.fieldCount == 10 && s.fieldLength == 100)
            mixes[letter] = [s.readProportion, s.updateProportion, s.insertProportion, s.scanProportion, s.readModifyWriteProportion]
            #expect(s.requestDistribution == (letter == "d" ? KeyDistribution.latest : .zipfian))
        }
        #expect(mixes["a"] == [0.5, 0.5, 0, 0, 0])
        #expect(mixes["b"] == [0.95, 0.05, 0, 0, 0])
        #expect(mixes["c"] == [1, 0, 0, 0, 0])
        #expect(mixes["d"] == [0.95, 0, 0.05, 0, 0])
        #expect(mixes["e"] == [0, 0, 0.05, 0.95, 0])
        #expect(mixes["f"] == [0.5, 0, 0, 0, 0.5])
        #expect(try YCSBWorkloadSpec(file: dir.appendingPathComponent("workloade").path).maxScanLength == 100)
    }

    @Test func javaPropertiesSyntax() throws {
        let p = try YCSBProperties.parse("""
            # comment
              ! another
            recordcount = 5000
            operationcount: 20
            table  users
            fieldnameprefix=f\\
                ield
            readproportion=0.25
            readproportion=0.75
            """, source: "t")
        #expect(p.values == ["recordcount": "5000", "operationcount": "20", "table": "users", "fieldnameprefix": "field", "readproportion": "0.75"])
        #expect(p.lines["readproportion"] == 9)
    }

    @Test func aMalformedLineNamesItsLine() {
        let e = error("recordcount=10\n=5\n")
        #expect(e?.kind == .syntax(line: 2))
        #expect(e?.message.contains("test:2") == true)
        #expect(error("recordcount")?.kind == .syntax(line: 1))
    }

    @Test func unknownPropertiesAreNamed() {
        let e = error("recordcount=10\nreadproprtion=0.5\nfoo=1\n")
        #expect(e?.kind == .unknownProperties(["foo", "readproprtion"]))
        #expect(e?.message.contains("readproprtion (line 2)") == true)
    }

    @Test func unsupportedValuesAreNotIgnored() {
        #expect(error("requestdistribution=hotspot")?.kind == .unsupported(property: "requestdistribution", value: "hotspot"))
        #expect(error("fieldlengthdistribution=histogram")?.kind == .unsupported(property: "fieldlengthdistribution", value: "histogram"))
        #expect(error("requestdistribution=exponential")?.kind == .unsupported(property: "requestdistribution", value: "exponential"))
        #expect(error("target=1000")?.kind == .unsupported(property: "target", value: "1000"))
        #expect(error("dotransactions=false")?.kind == .unsupported(property: "dotransactions", value: "false"))
        #expect(error("measurementtype=csv")?.kind == .invalidValue(property: "measurementtype", value: "csv"))
        #expect(error("dataintegrity=true")?.kind == .unsupported(property: "dataintegrity", value: "true"))
        #expect(error("workload=site.ycsb.workloads.TimeSeriesWorkload")?.kind == .unsupported(property: "workload", value: "site.ycsb.workloads.TimeSeriesWorkload"))
    }

    @Test func badValuesSayWhatIsAccepted() {
        #expect(error("recordcount=many")?.kind == .invalidValue(property: "recordcount", value: "many"))
        #expect(error("readproportion=1.5")?.kind == .invalidValue(property: "readproportion", value: "1.5"))
        #expect(error("requestdistribution=zipf")?.message.contains("uniform, zipfian, latest") == true)
        #expect(error("readproportion=0\nupdateproportion=0")?.kind == .invalidValue(property: "readproportion", value: "0"))
        #expect(error("minscanlength=10\nmaxscanlength=5")?.kind == .invalidValue(property: "maxscanlength", value: "5"))
    }

    /// YCSB's own files, copied verbatim under Tests/StoreBenchTests/Fixtures/ycsb.
    static let official = Bench.root.appendingPathComponent("Tests/StoreBenchTests/Fixtures/ycsb")

    @Test func everyOfficialWorkloadFileParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.official.path).filter { $0.contains("workload") }.sorted()
        #expect(files == ["tsworkload_template", "tsworkloada", "workload_template", "workloada", "workloadb", "workloadc", "workloadd",
                          "workloade", "workloadf"])
        for file in files {
            let path = Self.official.appendingPathComponent(file).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("Licensed under the Apache License, Version 2.0"), "\(file) keeps its license header")
            let properties = try YCSBProperties.parse(text, source: file)
            #expect(properties.values["recordcount"] != nil && properties.values["workload"] != nil, "\(file)")
            do {
                let spec = try YCSBWorkloadSpec(file: path)
                #expect(!file.hasPrefix("ts"), "\(file) is a TimeSeriesWorkload")
                #expect(properties.values.keys.allSatisfy(YCSBWorkloadSpec.known.contains), "\(file)")
                #expect(spec.recordCount == Int(properties.values["recordcount"]!))
            } catch let e as YCSBPropertyError {
                #expect(file.hasPrefix("ts"), "\(file): \(e)")
                #expect(e.kind == .unsupported(property: "workload", value: "site.ycsb.workloads.TimeSeriesWorkload"), "refused for its class, by name")
            }
        }
    }

    @Test func theTemplateRunsAsShippedAndSaysWhatHasNoEffect() throws {
        let t = try YCSBWorkloadSpec(file: Self.official.appendingPathComponent("workload_template").path)
        #expect(t.recordCount == 1_000_000 && t.operationCount == 3_000_000 && t.requestDistribution == .zipfian)
        #expect(t.readProportion == 0.95 && t.updateProportion == 0.05 && t.maxScanLength == 1_000 && t.insertOrder == .hashed)
        #expect(Set(t.settingsWithoutEffect.keys) == ["measurementtype", "histogram.buckets", "timeseries.granularity", "hotspotdatafraction",
                                                      "hotspotopnfraction", "maxscanrate", "scanoptimelimit", "discardscannedrecord"])
        #expect(t.settingsWithoutEffect["measurementtype"] == "histogram")
        let a = try YCSBWorkloadSpec(file: Self.official.appendingPathComponent("workloada").path)
        #expect(a.settingsWithoutEffect.isEmpty && a.readProportion == 0.5 && a.updateProportion == 0.5)
        #expect(try spec("measurementtype=hdrhistogram").settingsWithoutEffect.isEmpty, "what StoreBench does is not listed")
        #expect(try spec("htrace.sampler.classes=AlwaysSampler\nexporter=site.ycsb.measurements.exporter.JSONMeasurementsExporter")
            .settingsWithoutEffect.count == 2)
    }

    @Test func zeroPaddingPadsKeyNumbers() throws {
        var s = try spec("insertorder=ordered\nzeropadding=8")
        #expect(s.zeroPadding == 8)
        #expect(try YCSBTable(s).keyName(42) == "user00000042")
        s.zeroPadding = 1
        #expect(try YCSBTable(s).keyName(42) == "user42")
        #expect(error("zeropadding=0")?.kind == .invalidValue(property: "zeropadding", value: "0"))
    }

    @Test func defaultsAreYCSBs() throws {
        let s = try spec("")
        #expect(s.readProportion == 0.95 && s.updateProportion == 0.05 && s.requestDistribution == .uniform)
        #expect(s.table == "usertable" && s.fieldNamePrefix == "field" && s.insertOrder == .hashed && s.maxScanLength == 1_000)
        #expect(s.zipfianConstant == 0.99)
    }
}

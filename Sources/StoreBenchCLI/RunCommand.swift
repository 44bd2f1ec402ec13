import ArgumentParser
import Foundation
import StoreBench
import StoreCore

extension Profile: ExpressibleByArgument {}
extension MeasureMode: ExpressibleByArgument {}
extension KeyDistribution: ExpressibleByArgument {}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Measure backends on identical data; write a Markdown report and its JSON.",
        discussion: """
            Every (backend, workload, scale) cell runs in its own child process, so peak memory \
            belongs to it; a cell that crashes or passes the time limit is reported as failed and the \
            run goes on. The bare C-API floors of SQLite and LMDB run beside the backends, and every \
            backend is also given as a multiple of its engine's floor. Reference programs check the floors \
            (the rows workloads as plain C loops) and the GRDB peer (GRDB used directly). Every workload runs \
            in rounds across the targets; times and ratios are medians with intervals, and a winner is named \
            only when its interval clears the runner-up's. Each cell also counts its allocations per operation \
            (deterministic, for CI gates). Build in release first: `swift build -c release` (the report states the build).

            Examples:
              storebench run --profile quick                       # what `make bench` runs
              storebench run --backends sqlite,lmdb --workloads 'crud.read-pk.*' --scale quick
              storebench run --profile standard --out Reports      # the reference report
              storebench run --measure instructions --backends sqlite --workloads rows   # callgrind counts, tiny scale
              storebench run --ycsb Fixtures/ycsb/workloada           # a YCSB property file on every backend
            --out (and the folder of --json) is created and probed with a test file before the first cell, so a \
            folder the report cannot be written to fails at once, not after the run.
            A long cell shows it is alive: on a terminal the progress line shows its time and phase (loading, \
            warm-up, measuring, counting allocations), rewritten every second; otherwise (CI logs) a line \
            `still running <cell>: 1 min 30 s, <phase>` appears every --heartbeat seconds.
            Ctrl-C, SIGTERM and SIGHUP end the running cell and still write the report and JSON of the cells \
            that ran, then print one line: `storebench: interrupted by SIGINT after 12 of 255 cells; partial \
            results in Reports/latest.json`. A cell never outlives the runner, even one killed with SIGKILL.
            Exit status: 0 when every cell ran, 1 when a cell failed or timed out, 64 for bad arguments, \
            73 when --out or --json cannot be written (one line names the file and the reason), 128 + the signal \
            when stopped by one (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
            """
    )

    @Option(help: "Comma-separated backends (default: all). Known: \(Registry.names.joined(separator: ", ")).")
    var backends: String?

    @Option(help: ArgumentHelp("Comma-separated workload names, categories (\(Suites.registered.filter(\.inProfiles).map(\.category.rawValue).joined(separator: ", "))) or globs like 'crud.*.single'. Default: the profile's."))
    var workloads: String?

    @Option(help: ArgumentHelp("A YCSB workload property file to run on every backend (repeatable); with it, only what --ycsb and --workloads name runs.", discussion: """
        The file is read as YCSB reads it (key=value lines, # comments; a later line overrides): recordcount, \
        operationcount, threadcount, the five proportions, requestdistribution (uniform, zipfian, latest), field \
        count and length, scan lengths, insert order, insertstart/insertcount, zeropadding. YCSB's own files \
        (workload_template, workloada…f) run as shipped: settings of YCSB's client or of features not in play \
        (measurementtype, histogram.buckets, timeseries.granularity, hotspot fractions, exporter, …) change \
        nothing here; they are recorded in the cell's parameters and listed in the report's YCSB section. A \
        property YCSB does not have is an error naming it; a value StoreBench does not implement (hotspot, a \
        field length histogram, target, another workload class such as TimeSeriesWorkload) is an error saying so.
        """, valueName: "file"))
    var ycsb: [String] = []

    @Option(help: "Comma-separated scales from the fixtures folder (tiny, quick, standard, large). Default: the profile's.")
    var scale: String?

    @Option(help: "Settings preset: quick (the quick scale, 5 rounds, up to 12 where a comparison is undecided, a reduced concurrency set; `make bench`, under 5 minutes), standard (quick+standard, 5 rounds, up to 16; the reference, within 30 minutes), full (up to large, 1 round of 3 repetitions).")
    var profile: Profile = .quick

    @Option(help: ArgumentHelp("What cells measure: time, or instructions under callgrind (valgrind).", discussion: """
        instructions runs each cell under `valgrind --tool=callgrind`, counting only the measured repetition: the same \
        count for the same build on any machine. It is about 50 times slower, so it defaults to the tiny scale, 1 round.
        """))
    var measure: MeasureMode = .time

    @Option(help: "Measured repetitions per cell (default: the profile's).")
    var repetitions: Int?

    @Option(help: ArgumentHelp("Rounds per workload (default: the profile's).", discussion: """
        The cells of one workload run in turn across the targets this many times; each result pools its rounds and \
        every ratio (× floor, backend ÷ backend) is the median of the per-round ratios, so drift between rounds cancels.
        """))
    var rounds: Int?

    @Option(help: "Rounds a noisy workload may reach (default: the profile's; equal to --rounds turns extra rounds off).")
    var maxRounds: Int?

    @Option(help: "Warm-up repetitions per cell, not measured (default: 1).")
    var warmup: Int?

    @Option(help: "Durability for every backend and floor: durable (fsync at commit) or relaxed.")
    var durability: Durability = .durable

    @Option(help: ArgumentHelp("How the workloads that pick random keys with repeats (crud.read-pk.*, crud.update.*, query.traversal) draw them; deletes and upserts keep distinct uniform keys: uniform, zipfian (θ 0.99, popular keys scattered, as YCSB) or latest (the newest keys most popular).", valueName: "distribution"))
    var distribution: KeyDistribution = .uniform

    @Option(help: "Equivalence margin in percent: two backends within it count as equivalent, one beyond it as faster; extra rounds go to comparisons not yet decided (default: 5).")
    var margin: Double = DecisionRule.defaultMargin * 100

    @Option(help: "Directory for latest.md and latest.json.")
    var out: String = "Reports"

    @Option(help: "Where to write the JSON results (default: <out>/latest.json).")
    var json: String?

    @Option(help: ArgumentHelp("Seconds between `still running <cell>` lines when standard error is not a terminal (CI logs).",
                               valueName: "seconds"))
    var heartbeat: Double = 30

    @Option(help: "Seconds a cell may run before it is stopped (default: the profile's).")
    var cellTimeout: Double?

    @Option(help: "The folder of dataset specifications (default: ./Fixtures, else the one beside the build).")
    var fixtures: String?

    @Option(help: ArgumentHelp("Run one part of the plan: INDEX/COUNT, e.g. 2/4; `storebench merge` joins the parts.", discussion: """
        The plan's workloads are dealt to COUNT shards, each workload whole (every backend, floor and scale), so every \
        ratio compares cells of one machine; the deal is balanced by expected time (see --balance) and is the same \
        on every machine that runs the same plan. Loads run in each shard that needs them; the conformance kit runs \
        in shard 1; the extra-rounds budget is shared out. Give each shard its own --out.
        """, valueName: "i/n"))
    var shard: String?

    @Option(help: ArgumentHelp("A results file whose cell times balance the shards (default: Reports/reference.json when present, else cell counts).", valueName: "results.json"))
    var balance: String?

    @Option(help: ArgumentHelp("Instead of the comparison: repeat a mixed workload for DURATION per backend (90s, 10m, 2h), sampling throughput, latency, file size and memory over time.", discussion: """
        Each backend runs in a process of its own on one store: 50% reads by key, 30% updates, 10% inserts and 10% deletes \
        over a sliding window of 2,000 users (the record count stays level). About 30 samples (one every 1–60 s) go to \
        <out>/soak.md with a chart of each figure over time (soak/*.svg) and soak.json: growth or drift shows. \
        --backends and --durability apply; exit 1 when a backend failed.
        """, valueName: "duration"))
    var soak: String?

    @Flag(help: "Skip the bare C-API floors.")
    var noFloors = false

    @Flag(help: "Skip the conformance kit (the report then has no feature matrix).")
    var noConformance = false

    @Flag(help: "Do not count allocations (saves one repetition per cell).")
    var noAllocations = false

    func validate() throws {
        if let r = repetitions, !(1...100).contains(r) { throw ValidationError("--repetitions must be 1…100, got \(r)") }
        if let r = rounds, !(1...20).contains(r) { throw ValidationError("--rounds must be 1…20, got \(r)") }
        if let m = maxRounds, !(1...40).contains(m) { throw ValidationError("--max-rounds must be 1…40, got \(m)") }
        if let m = maxRounds, let r = rounds, m < r { throw ValidationError("--max-rounds (\(m)) must be at least --rounds (\(r))") }
        if measure == .instructions && !Self.valgrindIsInstalled {
            throw ValidationError("--measure instructions needs valgrind (apt-get install valgrind)")
        }
        if let w = warmup, !(0...20).contains(w) { throw ValidationError("--warmup must be 0…20, got \(w)") }
        if let t = cellTimeout, t <= 0 { throw ValidationError("--cell-timeout must be positive") }
        guard heartbeat > 0 else { throw ValidationError("--heartbeat must be positive (seconds), got \(heartbeat)") }
        try Self.requireNames(backends, "--backends", accepted: "backend names (\(Registry.names.joined(separator: ", ")))")
        try Self.requireNames(scale, "--scale", accepted: "scales (tiny, quick, standard, large)")
        try Self.requireNames(workloads, "--workloads", accepted: "workload names (crud.read-pk.single), categories ("
            + Suites.registered.filter(\.inProfiles).map(\.category.rawValue).joined(separator: ", ")
            + ") or globs ('crud.*.single'); `storebench list` names every workload")
        _ = try selectedBackends()
        if let w = workloads { do { _ = try WorkloadRegistry.matching(w) } catch { throw ValidationError("\(error)") } }
        for file in ycsb {
            do { _ = try WorkloadRegistry.defined(by: file, in: .ycsb) } catch { throw ValidationError("--ycsb \(file): \(error)") }
        }
        if let soak { _ = try Self.seconds(soak) }
        if let shard { do { _ = try ShardSpec(parsing: shard) } catch { throw ValidationError("--shard: \(error)") } }
        if let balance { do { _ = try RunResults.read(balance) } catch { throw ValidationError("--balance: \(error)") } }
        let dir = try fixturesDirectory()
        for s in selectedScales() where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(s).json").path) {
            throw ValidationError("unknown scale '\(s)'; \(dir.path) has: \(DatasetSpec.available(in: dir).joined(separator: ", "))")
        }
    }

    /// A comma-separated list option, when given, must name something: `--workloads ''` (or only
    /// commas and spaces) is an error saying what is accepted, not a run of nothing.
    static func requireNames(_ list: String?, _ option: String, accepted: String) throws {
        guard let list, list.split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return }
        throw ValidationError("\(option) '\(list)' names nothing; give comma-separated \(accepted)")
    }

    static var valgrindIsInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/valgrind") }
    }

    func run() throws {
        if let soak { return try runSoak(soak) }
        let plan = try makePlan()
        if MachineInfo.buildConfiguration != "release" {
            StandardError.write("note: this is a debug build; measure with `swift build -c release` (the report says debug)\n")
        }
        // Paths as given (relative stays relative), for the messages.
        let (jsonPath, mdPath) = (json ?? (out as NSString).appendingPathComponent("latest.json"),
                                  (out as NSString).appendingPathComponent("latest.md"))
        // Before the first cell: a report that cannot be written must not cost a run.
        try FileAccess.checkWritable([mdPath, jsonPath])
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-run-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let view = RunProgressView(stillRunningEvery: heartbeat)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let runner = BenchmarkRunner(plan: plan, executable: executable, workDirectory: work, progress: view)
        // Ctrl-C, SIGTERM (a cancelled CI job, `timeout`) and SIGHUP (a closed terminal) end the
        // current cell and write the report of what ran, instead of losing it. Cells die with
        // the runner even when it is killed outright (`CellSpec.runnerPID`).
        let stoppers = [SIGINT, SIGTERM, SIGHUP].map { signo in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { runner.interrupt(signal: signo) }
            source.resume()
            return source
        }
        let results = try runner.run()
        stoppers.forEach { $0.cancel() }

        try results.write(jsonPath)
        try MarkdownReport(results).write(to: URL(fileURLWithPath: mdPath))
        let bad = results.cells.filter { $0.status == .failed || $0.status == .timeout }
        print("wrote \(mdPath) and \(jsonPath): \(results.cells.count) cells, \(bad.count) failed, in \(Int(results.durationSeconds)) s")
        if results.interrupted == true, let signo = runner.interruptingSignal {
            StandardError.write("\(Registry.programName): interrupted by \(BenchmarkRunner.signalName(signo)) after \(view.ran) of \(view.total) cells; "
                                + "partial results in \(jsonPath)\n")
            throw ExitCode(128 + signo)
        }
        if !bad.isEmpty { throw ExitCode(1) }
    }

    /// The run's plan from the options and the profile.
    private func makePlan() throws -> RunPlan {
        let counting = measure == .instructions
        var plan = RunPlan(
            backends: try selectedBackends(), workloads: try selectedWorkloads(),
            scales: selectedScales(), repetitions: repetitions ?? (counting ? 1 : profile.repetitions), warmup: warmup ?? profile.warmup,
            durability: durability, cellTimeout: cellTimeout ?? profile.cellTimeout, fixtures: try fixturesDirectory(),
            profile: scale == nil && repetitions == nil && rounds == nil && !counting ? profile.rawValue : "custom (\(profile.rawValue) base)")
        plan.programs = Registry.programs
        plan.rounds = rounds ?? (counting ? 1 : profile.rounds)
        // Rounds given by hand are run as given unless --max-rounds asks for more.
        plan.maxRounds = max(plan.rounds, maxRounds ?? (counting || rounds != nil ? plan.rounds : profile.maxRounds))
        plan.margin = margin / 100
        plan.extraRoundsBudget = profile.extraRoundsBudget
        plan.measure = measure
        plan.distribution = distribution
        plan.countAllocations = !noAllocations && !counting
        plan.includeFloors = !noFloors
        plan.runConformance = !noConformance && !counting
        plan.command = Registry.programName + " " + CommandLine.arguments.dropFirst().joined(separator: " ")
        if let shard { try shardPlan(&plan, try ShardSpec(parsing: shard)) }
        return plan
    }

    /// Restricts `plan` to one shard, balanced by `--balance` (or the reference when present).
    private func shardPlan(_ plan: inout RunPlan, _ spec: ShardSpec) throws {
        plan.shard = spec
        let path = balance ?? (FileManager.default.fileExists(atPath: Self.defaultBalance) ? Self.defaultBalance : nil)
        guard let path else { return }
        plan.expectedSeconds = RunPlan.expectedSeconds(from: try RunResults.read(path), scales: plan.scales)
        plan.balanceSource = path
    }

    static let defaultBalance = "Reports/reference.json"

    /// `--workloads` and `--ycsb` files, or the profile's set when neither is given.
    private func selectedWorkloads() throws -> [Workload] {
        let files = try ycsb.map { try WorkloadRegistry.defined(by: $0, in: .ycsb) }
        if let w = workloads { return try WorkloadRegistry.matching(w) + files }
        return files.isEmpty ? profile.defaultWorkloads : files
    }

    private func selectedScales() -> [String] {
        scale.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? (measure == .instructions ? ["tiny"] : profile.scales)
    }

    func selectedBackends() throws -> [BackendDescriptor] {
        guard let backends else { return Registry.backends }
        return try backends.split(separator: ",").map { raw in
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard let d = Registry.backend(named: name) else {
                throw ValidationError("unknown backend '\(name)'; known: \(Registry.names.joined(separator: ", "))")
            }
            return d
        }
    }

    private func fixturesDirectory() throws -> URL {
        if let fixtures { return URL(fileURLWithPath: fixtures) }
        return try FixturesLocator.find()
    }
}

/// Finds the Fixtures folder: in the current directory, else above the executable (a build
/// folder), else in the StoreBench checkout this code was compiled from (an outside package's
/// `.build/checkouts/…` or the path it depends on).
enum FixturesLocator {
    static func find() throws -> URL {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Fixtures")
        if holdsFixtures(cwd) { return cwd }
        var dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Fixtures")
            if holdsFixtures(candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        // Sources/StoreBenchCLI/RunCommand.swift → the package root.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")
        if holdsFixtures(checkout) { return checkout }
        throw ValidationError("no Fixtures folder found here, above the executable or in \(checkout.path); pass --fixtures DIR")
    }

    private static func holdsFixtures(_ dir: URL) -> Bool {
        FileManager.default.fileExists(atPath: dir.appendingPathComponent("quick.json").path)
    }
}

import StoreBench

/// The counts of damaged-file trials, for one kind of damage or a whole backend (internal).
struct DamageTally {
    var trials = 0, structural = 0
    var read: [DamageTrial.ReadResult: Int] = [:]
    var checked: [DamageTrial.ReadResult: Int] = [:]
    var verify: [DamageTrial.VerifyResult: Int] = [:]
    /// Reads wrong (with `verifyOnOpen` off or on) and `verify` clean.
    var missed = 0
    /// Reads that crashed anywhere but inside the engine library.
    var ownCrashes = 0
    var changedByVerify = 0

    /// Counts a trial; returns why it failed, if it did.
    mutating func add(_ o: DamageTrial.Outcome) -> String? {
        trials += 1
        if !o.kind.isRandom { structural += 1 }
        read[o.read, default: 0] += 1
        if let c = o.checkedRead { checked[c, default: 0] += 1 }
        verify[o.verify, default: 0] += 1
        var why: [String] = []
        if (o.read == .wrong || o.checkedRead == .wrong) && o.verify == .clean {
            missed += 1
            why.append("reads wrong, verify clean")
        }
        let outside = [(o.read, o.crashSite), (o.checkedRead, o.checkedCrashSite)].filter { $0.0 == .crash && !($0.1 ?? "").hasPrefix("liblmdb") }
        if !outside.isEmpty {
            ownCrashes += 1
            why.append("a read crashed outside the engine (\(outside[0].1 ?? "unknown"))")
        }
        if [.crash, .hang].contains(o.checkedRead) { why.append("a read with verifyOnOpen \(o.checkedRead!.rawValue)ed") }
        if [.crash, .hang, .error].contains(o.verify) { why.append("verify: \(o.verify.rawValue)") }
        if !o.changedByVerify.isEmpty {
            changedByVerify += 1
            why.append("verify changed \(o.changedByVerify.joined(separator: ", "))")
        }
        return why.isEmpty ? nil : why.joined(separator: "; ")
    }

    static func + (a: DamageTally, b: DamageTally) -> DamageTally {
        func sum<K>(_ x: [K: Int], _ y: [K: Int]) -> [K: Int] { x.merging(y, uniquingKeysWith: +) }
        return DamageTally(trials: a.trials + b.trials, structural: a.structural + b.structural, read: sum(a.read, b.read),
                           checked: sum(a.checked, b.checked), verify: sum(a.verify, b.verify), missed: a.missed + b.missed,
                           ownCrashes: a.ownCrashes + b.ownCrashes, changedByVerify: a.changedByVerify + b.changedByVerify)
    }

    private func n(_ r: DamageTrial.ReadResult, checked c: Bool = false) -> Int { (c ? checked : read)[r, default: 0] }
    private var verifyFailures: Int { [.crash, .hang, .error].reduce(0) { $0 + verify[$1, default: 0] } }

    static let header = "| backend | damage | trials | reads fine | read error | reads wrong | read crash/hang | verifyOnOpen: fine / error / wrong / crash+hang | verify: damaged | wrong reads verify missed | verify crash/hang/error | verify changed a byte |"

    /// The table row of one kind of damage.
    func row(_ backend: String, _ kind: String) -> String {
        let on = checked.isEmpty ? "—" : "\(n(.fine, checked: true)) / \(n(.error, checked: true)) / \(n(.wrong, checked: true)) / \(n(.crash, checked: true) + n(.hang, checked: true))"
        return "| \(backend) | \(kind) | \(trials) | \(n(.fine)) | \(n(.error)) | \(n(.wrong)) | \(n(.crash) + n(.hang)) (\(ownCrashes) outside the engine) | \(on) | \(verify[.damaged, default: 0]) | \(missed) | \(verifyFailures) | \(changedByVerify) |"
    }

    /// One backend's totals in a line.
    func summary(_ backend: String) -> String {
        let crashes = n(.crash) + n(.hang), wrong = n(.wrong)
        let on = checked.isEmpty ? "" : ", \(n(.crash, checked: true) + n(.hang, checked: true)) with verifyOnOpen"
        let onWrong = checked.isEmpty ? "" : ", \(n(.wrong, checked: true)) with verifyOnOpen"
        return "\(backend): \(trials) damaged files (\(trials - structural) random, \(structural) structural): verify crashed, hung or failed \(verifyFailures), "
            + "wrong reads verify missed \(missed), verify changed a byte \(changedByVerify); reads crashed or hung \(crashes)\(on); read back wrong \(wrong)\(onWrong)"
    }
}

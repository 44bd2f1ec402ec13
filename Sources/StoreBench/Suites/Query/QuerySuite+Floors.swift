import StoreBenchKit

/// The query page's section on each backend against its engine's floor: the SQL an SQLite
/// user writes, a hand-written LMDB cursor walk, GRDB used directly.
extension ResultsView {
    func queryFloorSection(_ workloads: [String]) -> String {
        let rows = workloads.filter { w in results.cells.contains { $0.workload == w && $0.floorRatio != nil } }
        guard !rows.isEmpty else { return "" }
        let smaller = scales.dropLast().last
        let peer = results.cells.contains { $0.target == .reference("plain:grdb") && $0.floorRatio != nil }
        var md = "### Against each engine's best\n\n"
        md += "Each backend's time per query ÷ its engine's floor in the same run: the query as an SQLite user writes it "
        md += "(`floor:sqlite`, the statements and plans of `FloorSQL`), a cursor walk an LMDB user writes over the same databases "
        md += "(`floor:lmdb`), each returning the backends' rows in their order (checked above). At the \(mainScale) scale, "
        md += "the median of per-round ratios with its interval\(smaller.map { "; then the ratio at the \($0) scale" } ?? "")."
        if peer { md += " The last column is `grdb` ÷ GRDB used directly as its documentation advises (`plain:grdb`)." }
        md += "\n\n| workload | " + backends.joined(separator: " | ") + (peer ? " | grdb ÷ plain GRDB |" : " |") + "\n"
        md += "|---|" + String(repeating: "---:|", count: backends.count + (peer ? 1 : 0)) + "\n"
        var growing: [String] = []
        for w in rows {
            let targets = backends.map(TargetID.backend) + (peer ? [.reference("plain:grdb")] : [])
            let cells = targets.map { t -> String in
                let (text, grows) = floorCell(t, w, smaller)
                if grows { growing.append("`\(t.name)` `\(w)`") }
                return text
            }
            md += "| `\(w)` | " + cells.joined(separator: " | ") + " |\n"
        }
        return md + "\n" + growthNote(growing, smaller) + "\n"
    }

    /// A target's ratio to its floor on one workload, and whether it grew from `smaller` by more
    /// than the two intervals allow (the larger scale's interval wholly above the smaller's).
    private func floorCell(_ t: TargetID, _ w: String, _ smaller: String?) -> (String, Bool) {
        func ratio(_ scale: String) -> Estimate? { results.cells.first { $0.target == t && $0.workload == w && $0.scale == scale && $0.isOK }?.floorRatio }
        guard let main = ratio(mainScale) else { return ("–", false) }
        guard let smaller, let before = ratio(smaller) else { return (Format.ratio(main), false) }
        let grows = main.low > before.high
        return (Format.ratio(main) + " · \(Format.ratio(before.value)) at \(smaller)" + (grows ? " **↑**" : ""), grows)
    }

    private func growthNote(_ growing: [String], _ smaller: String?) -> String {
        guard let smaller else { return "" }
        if growing.isEmpty { return "No ratio to a floor grows from the \(smaller) scale to the \(mainScale) scale by more than its interval allows.\n" }
        return "**↑ Grows faster than its engine's best** (its ratio at \(mainScale) lies wholly above its interval at \(smaller)): "
            + growing.joined(separator: ", ") + ". A backend whose cost grows faster than its engine's does more work per record as data grows, a different complexity, not a slower engine.\n"
    }
}

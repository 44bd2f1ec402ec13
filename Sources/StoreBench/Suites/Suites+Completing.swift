import StoreBenchKit

extension Suites {
    /// `results` with what a file from an older schema did not record taken from this build's
    /// suites: each workload's use cases, whether it is compared and charted across scales, and
    /// the figures' declarations. Parameters cannot be recovered: report sections fall back to
    /// the values this build runs with, which older builds ran with too.
    public static func completing(_ results: RunResults) -> RunResults {
        var r = results
        let known = Dictionary(WorkloadRegistry.everything.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for i in r.workloads.indices {
            let w = r.workloads[i]
            let suite = suite(of: w.category)
            if w.useCases == nil { r.workloads[i].useCases = suite?.useCases(of: w.name) ?? [] }
            if w.compared == nil { r.workloads[i].compared = known[w.name]?.isCompared ?? (suite?.inProfiles ?? true) }
            if w.acrossScales == nil { r.workloads[i].acrossScales = known[w.name]?.chartedAcrossScales ?? false }
        }
        if r.figures == nil {
            r.figures = figures(of: Set(r.workloads.map(\.category)))
        }
        if r.claims == nil { r.claims = claims }
        return r
    }
}

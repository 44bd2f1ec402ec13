extension LogicalVerifier {
    /// Every record of an embedded entity has an owner (an orphan is a finding).
    static func checkEmbeddedOwners(_ schema: Schema, _ byEntity: [String: [Record]], _ links: [String: [Value: [Value]]],
                                    _ report: inout VerificationReport) {
        let embedded = schema.entities.filter(\.isEmbedded)
        guard !embedded.isEmpty else { return }
        for e in embedded {
            guard let link = e.ownerLink else { continue }
            let owned = links["\(e.name).\(link.name)"] ?? [:]
            for r in byEntity[e.name] ?? [] where owned[r.id]?.isEmpty ?? true {
                report.add(e.name, "embedded record \(r.id) has no owner (\(link.destination).\(link.inverse) does not list it)")
            }
        }
        report.checks.append("embedded records: each has an owner")
    }
}

/// The test framework a generated kit test file is written for.
package enum KitTestFlavour: String, Sendable, CaseIterable {
    case swiftTesting = "swift-testing"
    case xctest
}

/// The Swift source of one test per kit case, which the `ConformanceKitTests` and
/// `ConformanceKitXCTests` build plugins add to a test target. Each test runs its case against
/// every harness of the target's `conformanceHarnesses` (a global the target declares), and is
/// named so that `swift test --filter group.name` selects it: a suite per group holding a
/// test per case (`…/queries/inList()`), or an XCTest method `test_queries_inList`.
package enum KitTestSource {
    /// The ids of cases whose group or name is not a plain Swift identifier (letters and digits,
    /// not starting with a digit): a test cannot be named after them.
    package static func unnamable(_ cases: [ConformanceCase]) -> [String] {
        func isIdentifier(_ s: String) -> Bool {
            guard let first = s.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        }
        return cases.filter { !isIdentifier($0.group) || !isIdentifier($0.name) }.map(\.id)
    }

    package static func make(_ flavour: KitTestFlavour, cases: [ConformanceCase]) -> String {
        switch flavour {
        case .swiftTesting: swiftTesting(cases)
        case .xctest: xctest(cases)
        }
    }

    private static let header = """
        // Generated at build time by StoreBench's conformance kit plugin from ConformanceKit.cases:
        // one test per kit case. Do not edit; the test target declares `conformanceHarnesses`.

        """

    private static func swiftTesting(_ cases: [ConformanceCase]) -> String {
        var out = header + """
            import StoreConformance
            import Testing

            /// The conformance kit, one test per case, grouped by feature.
            @Suite("Conformance kit")
            struct ConformanceKitTests {

            """
        for group in groups(cases) {
            out += "    @Suite(\"\(group.name)\") struct \(group.name) {\n"
            for c in group.cases {
                out += "        @Test(\"\(c.id)\") func \(c.name)() { expectKitCase(\"\(c.id)\") }\n"
            }
            out += "    }\n"
        }
        out += """
            }

            /// Runs one kit case against every harness; a failure names the backend and what differed.
            private func expectKitCase(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) {
                for (harness, result) in ConformanceKit.run(id, harnesses: conformanceHarnesses) {
                    #expect(result.status != .failed, "\\(harness): \\(result)", sourceLocation: sourceLocation)
                }
            }

            """
        return out
    }

    private static func xctest(_ cases: [ConformanceCase]) -> String {
        var out = header + """
            import StoreConformance
            import XCTest

            /// The conformance kit, one test per case (`test_group_name`).
            final class ConformanceKitXCTests: XCTestCase {

            """
        for c in cases {
            out += "    func test_\(c.group)_\(c.name)() { expectKitCase(\"\(c.id)\") }\n"
        }
        out += """

                /// Runs one kit case against every harness; a failure names the backend and what differed.
                private func expectKitCase(_ id: String, file: StaticString = #filePath, line: UInt = #line) {
                    for (harness, result) in ConformanceKit.run(id, harnesses: conformanceHarnesses) where result.status == .failed {
                        XCTFail("\\(harness): \\(result)", file: file, line: line)
                    }
                }
            }

            """
        return out
    }

    private static func groups(_ cases: [ConformanceCase]) -> [(name: String, cases: [ConformanceCase])] {
        var order: [String] = []
        var byGroup: [String: [ConformanceCase]] = [:]
        for c in cases {
            if byGroup[c.group] == nil { order.append(c.group) }
            byGroup[c.group, default: []].append(c)
        }
        return order.map { ($0, byGroup[$0]!) }
    }
}

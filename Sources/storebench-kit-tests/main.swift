import Foundation
import StoreConformance

// Writes one test per conformance kit case, for the ConformanceKitTests (Swift Testing) and
// ConformanceKitXCTests (XCTest) build plugins: `storebench-kit-tests OUTPUT.swift swift-testing|xctest`.
// The plugins run it at build time, so the tests always match the kit the package links.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let flavour = KitTestFlavour(rawValue: arguments.last!) else {
    FileHandle.standardError.write(Data("usage: storebench-kit-tests OUTPUT.swift swift-testing|xctest\n".utf8))
    exit(64)
}
let unnamable = KitTestSource.unnamable(ConformanceKit.cases)
guard unnamable.isEmpty else {
    FileHandle.standardError.write(Data("storebench-kit-tests: kit cases whose group or name is not a Swift identifier: \(unnamable.joined(separator: ", "))\n".utf8))
    exit(1)
}
let source = KitTestSource.make(flavour, cases: ConformanceKit.cases)
do {
    let url = URL(fileURLWithPath: arguments.first!)
    // Rewriting an unchanged file would make every build recompile the test target.
    if (try? String(contentsOf: url, encoding: .utf8)) != source {
        try source.write(to: url, atomically: true, encoding: .utf8)
    }
} catch {
    FileHandle.standardError.write(Data("storebench-kit-tests: cannot write \(arguments.first!): \(error)\n".utf8))
    exit(1)
}

import PackagePlugin

/// Adds one XCTest test per conformance kit case to the test target it is applied to, so
/// that `swift test --filter group.name` runs a single case. The target declares the harnesses:
///
/// ```swift
/// let conformanceHarnesses: [any ConformanceHarness] = [MyHarness()]
/// ```
@main
struct ConformanceKitXCTests: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let generator = try context.tool(named: "storebench-kit-tests")
        let output = context.pluginWorkDirectoryURL.appending(path: "ConformanceKitXCTests.swift")
        return [
            .buildCommand(
                displayName: "Generating one test per conformance kit case for \(target.name)",
                executable: generator.url,
                arguments: [output.path(percentEncoded: false), "xctest"],
                inputFiles: [generator.url],
                outputFiles: [output]
            ),
        ]
    }
}

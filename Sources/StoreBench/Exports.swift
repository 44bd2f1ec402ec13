/// StoreBench re-exports StoreBenchKit: `import StoreBench` brings the measurement primitives,
/// the seeded dataset and the floor contract too.
@_exported import StoreBenchKit

import SQLiteStore
import StoreConformance

/// The backends the plugin-generated kit tests run (one Swift Testing test per kit case:
/// `swift test --filter queries.inList`).
let conformanceHarnesses: [any ConformanceHarness] = [DescriptorHarness(SQLiteStore.descriptor)]

import LMDBStore
import StoreConformance

/// The backends the plugin-generated kit tests run (one Swift Testing test per kit case).
let conformanceHarnesses: [any ConformanceHarness] = [DescriptorHarness(LMDBStore.descriptor)]

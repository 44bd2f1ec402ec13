import CountingStore
import StoreConformance

/// The backends the ConformanceKitTests plugin's tests run, one test per kit case.
let conformanceHarnesses: [any ConformanceHarness] = [DescriptorHarness(CountingStore.descriptor)]

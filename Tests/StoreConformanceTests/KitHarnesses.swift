import SQLiteStore
import StoreConformance

/// The backend the plugin-generated XCTest kit tests run (`test_group_name`, one per case):
/// the XCTest adapter, checked on SQLiteStore.
let conformanceHarnesses: [any ConformanceHarness] = [DescriptorHarness(SQLiteStore.descriptor)]

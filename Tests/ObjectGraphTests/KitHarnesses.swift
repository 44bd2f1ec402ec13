import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance

/// The backends the plugin-generated kit tests run: the object graph over each store.
let conformanceHarnesses: [any ConformanceHarness] = [
    DescriptorHarness(ObjectGraph.descriptor(over: SQLiteStore.descriptor)),
    DescriptorHarness(ObjectGraph.descriptor(over: LMDBStore.descriptor)),
]

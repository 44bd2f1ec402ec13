import Foundation
import SQLiteStore
@testable import StoreBenchCLI
import StoreCore
import Testing

/// What `StoreBenchCLI.main(backends:)` registers: outside backends beside the built-in ones,
/// never two under one name (a report would mix them).
@Suite("Backend registry")
struct RegistryTests {
    @Test("a taken name is refused, and nothing of that call is registered")
    func duplicatesRefused() throws {
        let before = Registry.names
        #expect(throws: RegistryError.self) { try Registry.register(backends: [SQLiteStore.descriptor], programs: []) }
        var a = SQLiteStore.descriptor
        a.name = "outside-\(UUID().uuidString.prefix(8))"
        #expect(throws: RegistryError.self) { try Registry.register(backends: [a, a], programs: []) }
        var listed = a
        listed.name = "my,cache"
        #expect(throws: RegistryError.self) { try Registry.register(backends: [listed], programs: []) }
        #expect(Registry.names == before)

        try Registry.register(backends: [a], programs: [])
        #expect(Registry.names == before + [a.name])
        #expect(StoreBenchCLI.backendNames.last == a.name)
        #expect(Registry.backend(named: a.name)?.engine == "sqlite")
    }
}

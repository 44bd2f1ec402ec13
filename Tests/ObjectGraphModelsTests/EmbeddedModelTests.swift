import Foundation
import LMDBStore
import ObjectGraphModels
import SQLiteStore
import StoreConformance
import Testing

@Model final class Customer {
    var id: Int64
    var name: String = ""
    @Relationship(deleteRule: .cascade) var address: ShippingAddress? = nil
    @Relationship(deleteRule: .cascade) var phones: [ContactPhone] = []
    init(id: Int64, name: String) { self.id = id; self.name = name }
}

@Model(.embedded) final class ShippingAddress {
    var id: Int64
    var city: String = ""
    @Relationship(inverse: \Customer.address) var customer: Customer? = nil
    init(id: Int64, city: String) { self.id = id; self.city = city }
}

@Model(.embedded) final class ContactPhone {
    var id: Int64
    var kind: String = ""
    @Relationship(inverse: \Customer.phones) var customer: Customer? = nil
    init(id: Int64, kind: String) { self.id = id; self.kind = kind }
}

/// `@Model(.embedded)`: the schema marks the entity embedded, an embedded model set on its
/// owner saves and is queried through it, an orphan fails the save, the owner's delete cascades.
@Suite struct EmbeddedModelTests {
    static func graph(_ engine: Engine, _ directory: TemporaryDirectory) throws -> ObjectGraph {
        let schema = try Schema(version: 1, Customer.self, ShippingAddress.self, ContactPhone.self)
        let store: any Repository = switch engine {
        case .sqlite: try SQLiteStore(directory: directory.url, schema: schema)
        case .lmdb: try LMDBStore(directory: directory.url, schema: schema)
        }
        return ObjectGraph(store: store)
    }

    @Test func theSchemaMarksEmbeddedModels() throws {
        let schema = try Schema(version: 1, Customer.self, ShippingAddress.self, ContactPhone.self)
        #expect(schema["ShippingAddress"]?.isEmbedded == true && schema["ContactPhone"]?.isEmbedded == true)
        #expect(schema["Customer"]?.isEmbedded == false)
        #expect(schema["ShippingAddress"]?.ownerLink?.name == "customer")
        #expect(!Customer.isEmbeddedModel && ShippingAddress.isEmbeddedModel)
    }

    @Test(arguments: Engine.allCases)
    func setOnTheOwnerSavesAndAnOrphanFails(_ engine: Engine) throws {
        let directory = try TemporaryDirectory("embedded-models-\(engine)")
        let graph = try Self.graph(engine, directory)
        let context = graph.newContext()
        let ann = Customer(id: 1, name: "ann")
        context.insert(ann)
        let oslo = ShippingAddress(id: 10, city: "Oslo")
        context.insert(oslo)
        ann.address = oslo
        let phone = ContactPhone(id: 11, kind: "mobile")
        context.insert(phone)
        ann.phones.append(phone)
        try context.save()
        let found = try graph.newContext().fetch(Customer.self, where: try StorePredicate(format: "address.city == 'Oslo' AND ANY phones.kind == 'mobile'"))
        #expect(found.map(\.id) == [1])

        context.insert(ShippingAddress(id: 20, city: "Bergen"))
        let error = try #require(throws: StoreError.self) { try context.save() }
        #expect(error.category == .constraintViolation && error.message.contains("ShippingAddress 20"), "\(error)")
        #expect(context.hasChanges)
        context.rollback()
        context.delete(ann)
        try context.save()
        #expect(try graph.store.read { try $0.count(Query("ShippingAddress")) + $0.count(Query("ContactPhone")) } == 0)
    }
}

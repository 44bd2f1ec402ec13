/// One `Migration` resolved against its two schemas: for every entity of the destination,
/// where each attribute's value comes from and which relationships it keeps. Backends apply
/// stages; `migrate(_:_:)` turns one old record into its new form, the same for every backend.
///
/// Built by `MigrationPlan.decide`, which throws `invalidSchema` for a step it cannot apply
/// (a new required attribute with no default, a type change that loses values without a
/// transform, a changed primary key, a relationship changing its destination or cardinality).
public struct MigrationStage: Sendable {
    /// Where a new attribute's value comes from: the old attribute at `sourceOrdinal`
    /// (converted from `sourceType` when it was widened), else `fill`.
    public struct AttributeSource: Sendable, Hashable {
        public var sourceOrdinal: Int?
        public var sourceType: AttributeType?
        /// The value when there is no source value (`nil` old value or a new attribute).
        public var fill: Value
    }

    /// What happens to one entity of the destination schema.
    public struct EntityStep: Sendable {
        public let entity: Entity
        /// The entity in the source schema (`nil`: a new entity).
        public let source: Entity?
        /// By the new entity's attribute ordinal.
        public let attributes: [AttributeSource]
        public let transform: Migration.RecordTransform?
        /// By the new entity's relationship position: the source relationship it keeps, or
        /// `nil` for a new one.
        public let relationships: [Relationship?]

        /// Whether the values of its records, by ordinal, change: anything but the same
        /// attributes in the same order with the same types and optionality, and no transform.
        /// Renaming the entity or an attribute changes no value.
        public var rewritesRecords: Bool {
            guard let source, transform == nil, source.attributes.count == entity.attributes.count else { return true }
            return attributes.enumerated().contains { i, a in
                a.sourceOrdinal != i || a.sourceType != nil || source.attributes[i].isOptional != entity.attributes[i].isOptional
            }
        }

        /// Whether the attribute named `name` holds what the source attribute of the same name
        /// held: it comes from it, under the same entity name. False for a new attribute and
        /// for one renamed, or whose name another attribute took (an index over it has to be
        /// built again even when its definition reads the same).
        public func keepsValues(of name: String) -> Bool {
            guard let source, source.name == entity.name, transform == nil,
                  let k = entity.attributes.firstIndex(where: { $0.name == name }),
                  let j = attributes[k].sourceOrdinal, attributes[k].sourceType == nil else { return false }
            return source.attributes[j].name == name
        }

        /// The source relationship kept by the relationship named `name`.
        public func sourceRelationship(_ name: String) -> Relationship? {
            entity.relationships.firstIndex { $0.name == name }.flatMap { relationships[$0] }
        }
    }

    public let migration: Migration
    public var source: Schema { migration.source }
    public var destination: Schema { migration.destination }
    /// By destination entity index.
    public let entities: [EntityStep]
    /// Source entities no destination entity comes from: their records and links go.
    public let removedEntities: [Entity]

    public init(_ migration: Migration) throws {
        self.migration = migration
        let source = migration.source, destination = migration.destination
        func fail(_ message: String) -> StoreError {
            StoreError(.invalidSchema, "migration \(source.version) → \(destination.version): \(message)")
        }
        for (new, old) in migration.entityRenames {
            guard destination[new] != nil else { throw fail("renamed entity '\(new)' is not in version \(destination.version)") }
            guard source[old] != nil else { throw fail("renamed entity '\(old)' is not in version \(source.version)") }
        }
        let renamedFrom = Set(migration.entityRenames.values)
        guard renamedFrom.count == migration.entityRenames.count else { throw fail("two entities are renamed from the same one") }
        for known in Set(migration.fills.keys).union(migration.attributeRenames.keys).union(migration.recordTransforms.keys)
        where destination[known] == nil {
            throw fail("entity '\(known)' is not in version \(destination.version)")
        }

        var steps: [EntityStep] = []
        for e in destination.entities {
            let sourceName = migration.entityRenames[e.name] ?? e.name
            let old = (migration.entityRenames[e.name] != nil || !renamedFrom.contains(e.name)) ? source[sourceName] : nil
            steps.append(try Self.step(e, from: old, migration, fail))
        }
        entities = steps
        let kept = Set(steps.compactMap { $0.source?.name })
        removedEntities = source.entities.filter { !kept.contains($0.name) }
        // Relationships must keep their inverse's mapping.
        for s in steps {
            for (r, kept) in zip(s.entity.relationships, s.relationships) where kept != nil {
                let inverse = destination.inverse(of: r)
                let inverseStep = steps[inverse.entity.index]
                guard inverseStep.sourceRelationship(inverse.relationship.name)?.name == kept!.inverse else {
                    throw fail("relationship \(s.entity.name).\(r.name) keeps its links but its inverse \(inverse.entity.name).\(inverse.relationship.name) does not")
                }
            }
        }
    }

    private static func step(_ e: Entity, from old: Entity?, _ m: Migration,
                             _ fail: (String) -> StoreError) throws -> EntityStep {
        let renames = m.attributeRenames[e.name] ?? [:]
        let fills = m.fills[e.name] ?? [:]
        let transform = m.recordTransforms[e.name]
        for name in fills.keys where e.ordinal(of: name) == nil { throw fail("\(e.name) has no attribute '\(name)' to fill") }
        guard let old else {
            guard renames.isEmpty, transform == nil else { throw fail("\(e.name) is a new entity: it has no old records to rename or transform") }
            return EntityStep(entity: e, source: nil, attributes: e.attributes.map { AttributeSource(fill: $0.defaultValue ?? .null) },
                              transform: nil, relationships: e.relationships.map { _ in nil })
        }
        for (new, was) in renames {
            guard e.ordinal(of: new) != nil else { throw fail("renamed attribute '\(new)' is not in \(e.name)") }
            guard old.ordinal(of: was) != nil else { throw fail("renamed attribute '\(was)' is not in \(old.name) of version \(m.source.version)") }
        }
        let renamedFrom = Set(renames.values)
        var attributes: [AttributeSource] = []
        for (i, a) in e.attributes.enumerated() {
            let wasName = renames[a.name] ?? (renamedFrom.contains(a.name) ? nil : a.name)
            var fill = fills[a.name] ?? a.defaultValue ?? .null
            if !fill.isNull { fill = try e.checkedValue(fill, forOrdinal: i) }
            guard let wasName, let j = old.ordinal(of: wasName) else {
                if i == e.primaryKeyOrdinal { throw fail("\(e.name)'s primary key '\(a.name)' does not come from \(old.name)'s") }
                if !a.isOptional, fill.isNull, transform == nil {
                    throw fail("\(e.name).\(a.name) is new and required: give it a default, fill it, or transform \(e.name)")
                }
                attributes.append(AttributeSource(fill: fill))
                continue
            }
            let was = old.attributes[j]
            if i == e.primaryKeyOrdinal, j != old.primaryKeyOrdinal || was.type != a.type {
                throw fail("\(e.name)'s primary key changes; a migration cannot change a primary key")
            }
            if !a.isOptional, was.isOptional, fill.isNull, transform == nil {
                throw fail("\(e.name).\(a.name) becomes required: give it a default or fill it for the records that hold nil")
            }
            if was.type == a.type && was.collection == a.collection {
                attributes.append(AttributeSource(sourceOrdinal: j, fill: fill))
            } else if was.collection == nil, a.collection == nil, Self.widens(was.type, to: a.type) {
                attributes.append(AttributeSource(sourceOrdinal: j, sourceType: was.type, fill: fill))
            } else if transform != nil {
                // Not copied: the transform sets it from `old`.
                attributes.append(AttributeSource(fill: fill))
            } else {
                throw fail("\(e.name).\(a.name) changes from \(was.typeName) to \(a.typeName), which can lose values: transform \(e.name)")
            }
        }
        var relationships: [Relationship?] = []
        for r in e.relationships {
            guard let was = old.relationship(r.name) else { relationships.append(nil); continue }
            let destinationWas = m.entityRenames[r.destination] ?? r.destination
            guard was.destination == destinationWas, was.cardinality == r.cardinality, was.inverse == r.inverse else {
                throw fail("relationship \(e.name).\(r.name) changes its destination, cardinality or inverse: remove it in one version and add it in the next")
            }
            relationships.append(was)
        }
        return EntityStep(entity: e, source: old, attributes: attributes, transform: transform, relationships: relationships)
    }

    /// The type changes a migration infers because no value changes: `bool` → `int64` and
    /// `int64` → `double` (checked per value: one a double cannot hold exactly fails).
    public static func widens(_ from: AttributeType, to: AttributeType) -> Bool {
        (from == .bool && to == .int64) || (from == .int64 && to == .double)
    }

    /// An old record of `step.source` in its new form: attributes copied, widened or filled,
    /// then the transform run, then the result checked against the new entity.
    public func migrate(_ old: Record, _ step: EntityStep) throws -> Record {
        let e = step.entity
        var values: [Value] = []
        values.reserveCapacity(e.attributes.count)
        for (i, a) in step.attributes.enumerated() {
            guard let j = a.sourceOrdinal else { values.append(a.fill); continue }
            let v = old.values[j]
            if v.isNull { values.append(a.fill); continue }
            guard a.sourceType != nil else { values.append(v); continue }
            values.append(try Self.widen(v, e, i))
        }
        var record = Record(e, values: values)
        if let transform = step.transform {
            var m = MigratingRecord(old: old, new: record)
            try transform(&m)
            if let misuse = m.misuse {
                throw StoreError(.invalidValue, "migration \(source.version) → \(destination.version): \(misuse)")
            }
            record = m.new
        }
        return try e.checkedRecord(record)
    }

    /// `v` widened to the type of attribute `i` of `e`.
    public static func widen(_ v: Value, _ e: Entity, _ i: Int) throws -> Value {
        switch (v, e.attributes[i].type) {
        case (.bool(let b), .int64): return .int64(b ? 1 : 0)
        case (.int64(let n), .double):
            let d = Double(n)
            guard Int64(exactly: d) == n else {
                throw StoreError(.invalidValue, "\(e.name).\(e.attributes[i].name): \(n) cannot become a double exactly")
            }
            return .double(d)
        default: return v
        }
    }

    /// Reports progress through the plan's callback.
    public func report(_ progress: (@Sendable (MigrationProgress) -> Void)?, _ entity: String, done: Int, total: Int) {
        progress?(MigrationProgress(fromVersion: source.version, toVersion: destination.version,
                                    entity: entity, done: done, total: total))
    }
}

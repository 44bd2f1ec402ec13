import Foundation
import StoreCore

/// The in-memory model the `model` group compares a backend with: nodes, their `follows`
/// links (many-to-many, nullify) and `parent` links (to-one, the parent's `children` cascade),
/// with the protocol's semantics written out plainly. Labels are unique by their scalars.
struct ReferenceModel {
    private(set) var nodes: [Int64: ModelNode] = [:]
    private(set) var follows: Set<Pair> = []
    private(set) var parent: [Int64: Int64] = [:]

    struct Pair: Hashable { let from: Int64, to: Int64 }

    /// Applies `op` as a correct store would; on an error, changes nothing.
    mutating func apply(_ op: ModelOperation) -> ModelOperation.Outcome {
        var next = self
        do {
            let outcome = try next.run(op)
            self = next
            return outcome
        } catch let e as StoreError {
            return .error(e.category)
        } catch {
            return .error(.io)
        }
    }

    private mutating func run(_ op: ModelOperation) throws -> ModelOperation.Outcome {
        switch op {
        case .insert(let n): try insert(n)
        case .insertBatch(let ns): for n in ns { try insert(n) }
        case .upsert(let n):
            try checkLabel(n.label, except: n.id)
            nodes[n.id] = n
        case .update(let id, let label, let weight):
            guard var n = nodes[id] else { throw StoreError(.notFound, "") }
            if let label { try checkLabel(label, except: id); n.label = label }
            if let weight { n.weight = weight }
            nodes[id] = n
        case .delete(let id):
            guard nodes[id] != nil else { throw StoreError(.notFound, "") }
            remove(id)
        case .deleteWhere(let w):
            let doomed = nodes.values.filter { $0.weight.map { $0 < w } ?? false }.map(\.id)
            for id in doomed where nodes[id] != nil { remove(id) }
            return .count(doomed.count)
        case .updateWhere(let w, let v):
            let matched = nodes.values.filter { $0.weight.map { $0 > w } ?? false }.map(\.id)
            for id in matched { nodes[id]?.weight = v }
            return .count(matched.count)
        case .follow(let a, let b):
            try requireBoth(a, b)
            follows.insert(Pair(from: a, to: b))
        case .unfollow(let a, let b):
            guard nodes[a] != nil else { throw StoreError(.notFound, "") }
            follows.remove(Pair(from: a, to: b))
        case .setParent(let a, let b):
            try requireBoth(a, b)
            parent[a] = b
        case .query(let w, let limit, let offset):
            let hits = nodes.values.filter { $0.weight.map { $0 >= w } ?? false }
                .sorted { ($0.weight!, -$0.id) > ($1.weight!, -$1.id) }.map(\.id)
            return .ids(Array(hits.dropFirst(offset).prefix(limit)))
        case .countNullWeights: return .count(nodes.values.filter { $0.weight == nil }.count)
        case .rolledBack: return .done
        }
        return .done
    }

    private mutating func insert(_ n: ModelNode) throws {
        if nodes[n.id] != nil { throw StoreError(.conflict, "") }
        try checkLabel(n.label, except: nil)
        nodes[n.id] = n
    }

    private func checkLabel(_ label: String?, except id: Int64?) throws {
        guard let label else { return }
        let bytes = Array(label.utf8)
        if nodes.values.contains(where: { $0.id != id && $0.label.map { Array($0.utf8) == bytes } == true }) {
            throw StoreError(.conflict, "")
        }
    }

    private func requireBoth(_ a: Int64, _ b: Int64) throws {
        guard nodes[a] != nil, nodes[b] != nil else { throw StoreError(.notFound, "") }
    }

    /// Deletes a node and, through `children` (cascade), its descendants; links to them go.
    private mutating func remove(_ id: Int64) {
        var doomed: Set<Int64> = [id], frontier = [id]
        while let p = frontier.popLast() {
            for (child, par) in parent where par == p && doomed.insert(child).inserted { frontier.append(child) }
        }
        for d in doomed { nodes[d] = nil; parent[d] = nil }
        parent = parent.filter { !doomed.contains($0.value) }
        follows = follows.filter { !doomed.contains($0.from) && !doomed.contains($0.to) }
    }

    /// A node's state as `ModelRun.state(of:)` reads it from a store.
    func state(of id: Int64) -> String {
        guard let n = nodes[id] else { return "\(id): none" }
        let out = follows.filter { $0.from == id }.map(\.to).sorted(), into = follows.filter { $0.to == id }.map(\.from).sorted()
        let children = parent.filter { $0.value == id }.map(\.key).sorted()
        return "\(n) follows \(out) followedBy \(into) parent \(parent[id].map { [$0] } ?? []) children \(children)"
    }

    var ids: [Int64] { nodes.keys.sorted() }
}

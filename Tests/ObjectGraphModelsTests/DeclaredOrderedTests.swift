import Foundation
import LMDBStore
import ObjectGraphModels
import SQLiteStore
import StoreConformance
import Testing

@Model final class Playlist {
    var id: Int64
    @Relationship(.ordered, inverse: \Song.playlist, deleteRule: .cascade) var songs: [Song] = []

    init(id: Int64) { self.id = id }
}

@Model final class Song {
    var id: Int64
    var title: String = ""
    var playlist: Playlist? = nil

    init(id: Int64, title: String) {
        self.id = id
        self.title = title
    }
}

/// `@Relationship(.ordered, ...)`: a declared to-many that keeps its array's order.
@Suite struct DeclaredOrderedTests {
    static func graph(_ engine: Engine, _ dir: TemporaryDirectory) throws -> ObjectGraph {
        let schema = try Schema(version: 1, Playlist.self, Song.self)
        let store: any Repository = switch engine {
        case .sqlite: try SQLiteStore(directory: dir.url, schema: schema)
        case .lmdb: try LMDBStore(directory: dir.url, schema: schema)
        }
        return ObjectGraph(store: store)
    }

    @Test(arguments: Engine.allCases)
    func arrayOrderIsKept(_ engine: Engine) throws {
        let dir = try TemporaryDirectory("declared-ordered")
        let graph = try Self.graph(engine, dir)
        defer { try? graph.close() }
        #expect(graph.schema["Playlist"]?.relationship("songs")?.isOrdered == true)
        #expect(graph.schema["Song"]?.relationship("playlist")?.isOrdered == false)
        let context = graph.newContext()
        let list = Playlist(id: 1)
        let songs = (1...4).map { Song(id: Int64($0), title: "s\($0)") }
        list.songs = [songs[2], songs[0], songs[3]]
        context.insert(list)
        try context.save()
        #expect(list.songs.map(\.id) == [3, 1, 4])
        list.songs = [songs[3], songs[1], songs[2]]
        #expect(list.songs.map(\.id) == [4, 2, 3])
        try context.save()
        let other = graph.newContext()
        #expect(try other.model(Playlist.self, id: 1)?.songs.map(\.id) == [4, 2, 3])
        #expect(try graph.read { try $0.related("Playlist", id: 1, via: "songs").map(\.id) } == [4, 2, 3])
    }
}

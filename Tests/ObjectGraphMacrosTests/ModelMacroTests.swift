import MacroTesting
import ObjectGraphMacros
import Testing

/// What `@Model` writes for a declaration, and what it refuses (expansions recorded with
/// swift-macro-testing's `assertMacro`).
@Suite(.macros(
    ["Model": ModelMacro.self, "_PersistedProperty": PersistedPropertyMacro.self, "Attribute": MarkerMacro.self,
     "Relationship": MarkerMacro.self, "Transient": MarkerMacro.self]
))
struct ModelMacroTests {
    @Test func aModelExpands() {
        assertMacro {
            """
            @Model final class User {
                var id: Int64
                @Attribute(.unique) var username: String
                var bio: String? = nil
                var age: Int = 0
                @Relationship(inverse: \\Post.author, deleteRule: .cascade) var posts: [Post] = []
                @Transient var scratch = 0
                var display: String { username }
                init(id: Int64, username: String) {
                    self.id = id
                    self.username = username
                }
            }
            """
        } expansion: {
            #"""
            final class User {
                var id: Int64 {
                    @storageRestrictions(initializes: _id)
                    init(initialValue) {
                        _id = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_id)
                        return _persistentBacking.get(0, cache: &_id)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_id) {
                            persistentBacking.set(0, newValue, cache: &_id)
                        }
                    }
                }

                @exclusivity(unchecked) private var _id: Int64

                private static let _keyPath_id = \User.id
                var username: String {
                    @storageRestrictions(initializes: _username)
                    init(initialValue) {
                        _username = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_username)
                        return _persistentBacking.get(1, cache: &_username)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_username) {
                            persistentBacking.set(1, newValue, cache: &_username)
                        }
                    }
                }

                @exclusivity(unchecked) private var _username: String

                private static let _keyPath_username = \User.username
                var bio: String? {
                    @storageRestrictions(initializes: _bio)
                    init(initialValue) {
                        _bio = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_bio)
                        return _persistentBacking.get(2, cache: &_bio)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_bio) {
                            persistentBacking.set(2, newValue, cache: &_bio)
                        }
                    }
                }

                @exclusivity(unchecked) private var _bio: String?

                private static let _keyPath_bio = \User.bio
                var age: Int {
                    @storageRestrictions(initializes: _age)
                    init(initialValue) {
                        _age = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_age)
                        return _persistentBacking.get(3, cache: &_age)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_age) {
                            persistentBacking.set(3, newValue, cache: &_age)
                        }
                    }
                }

                @exclusivity(unchecked) private var _age: Int

                private static let _keyPath_age = \User.age
                var posts: [Post] {
                    @storageRestrictions(initializes: _posts)
                    init(initialValue) {
                        _posts = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_posts)
                        return _persistentBacking.get(4, cache: &_posts)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_posts) {
                            persistentBacking.set(4, newValue, cache: &_posts)
                        }
                    }
                }

                @exclusivity(unchecked) private var _posts: [Post]

                private static let _keyPath_posts = \User.posts
                var scratch = 0
                var display: String { username }
                init(id: Int64, username: String) {
                    self.id = id
                    self.username = username
                }

                @exclusivity(unchecked) private var _persistentBacking = ModelBackingSlot()

                public var persistentBacking: ModelBacking {
                    if let backing = _persistentBacking.backing {
                        return backing
                    }
                    let backing = ModelBacking()
                    _persistentBacking.backing = backing
                    return backing
                }

                private let _$observationRegistrar = Observation.ObservationRegistrar()

                public static var entityName: String {
                    "User"
                }

                public static var persistentProperties: [ModelProperty] {
                    [
                        .property("id", \User.id, storage: \User._id),
                        .property("username", \User.username, storage: \User._username, options: [.unique]),
                        .property("bio", \User.bio, storage: \User._bio),
                        .property("age", \User.age, storage: \User._age, default: 0),
                        .property("posts", \User.posts, storage: \User._posts, inverse: "author", deleteRule: .cascade),
                    ]
                }

                public required init(backing: ModelBacking) {
                    self._persistentBacking = ModelBackingSlot(backing)
                    self._id = ModelBacking.placeholder()
                    self._username = ModelBacking.placeholder()
                }

                public func persistentValuesDidChange() {
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_id) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_username) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_bio) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_age) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_posts) {
                    }
                }
            }

            extension User: PersistentModel, Observation.Observable {
            }
            """#
        }
    }

    @Test func anOrderedRelationship() {
        assertMacro {
            """
            @Model final class Playlist {
                var id: Int64
                @Relationship(.ordered, inverse: \\Song.playlist, deleteRule: .cascade) var songs: [Song] = []
            }
            """
        } expansion: {
            #"""
            final class Playlist {
                var id: Int64 {
                    @storageRestrictions(initializes: _id)
                    init(initialValue) {
                        _id = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_id)
                        return _persistentBacking.get(0, cache: &_id)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_id) {
                            persistentBacking.set(0, newValue, cache: &_id)
                        }
                    }
                }

                @exclusivity(unchecked) private var _id: Int64

                private static let _keyPath_id = \Playlist.id
                var songs: [Song] {
                    @storageRestrictions(initializes: _songs)
                    init(initialValue) {
                        _songs = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_songs)
                        return _persistentBacking.get(1, cache: &_songs)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_songs) {
                            persistentBacking.set(1, newValue, cache: &_songs)
                        }
                    }
                }

                @exclusivity(unchecked) private var _songs: [Song]

                private static let _keyPath_songs = \Playlist.songs

                @exclusivity(unchecked) private var _persistentBacking = ModelBackingSlot()

                public var persistentBacking: ModelBacking {
                    if let backing = _persistentBacking.backing {
                        return backing
                    }
                    let backing = ModelBacking()
                    _persistentBacking.backing = backing
                    return backing
                }

                private let _$observationRegistrar = Observation.ObservationRegistrar()

                public static var entityName: String {
                    "Playlist"
                }

                public static var persistentProperties: [ModelProperty] {
                    [
                        .property("id", \Playlist.id, storage: \Playlist._id),
                        .property("songs", \Playlist.songs, storage: \Playlist._songs, inverse: "playlist", deleteRule: .cascade, ordered: true),
                    ]
                }

                public required init(backing: ModelBacking) {
                    self._persistentBacking = ModelBackingSlot(backing)
                    self._id = ModelBacking.placeholder()
                }

                public func persistentValuesDidChange() {
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_id) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_songs) {
                    }
                }
            }

            extension Playlist: PersistentModel, Observation.Observable {
            }
            """#
        }
    }

    @Test func aPrimaryKeyAndEnumDefault() {
        assertMacro {
            """
            @Model class Post {
                @Attribute(.primaryKey) var key: UUID
                var status: Status = .draft
                var author: User?
            }
            """
        } expansion: {
            #"""
            class Post {
                var key: UUID {
                    @storageRestrictions(initializes: _key)
                    init(initialValue) {
                        _key = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_key)
                        return _persistentBacking.get(0, cache: &_key)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_key) {
                            persistentBacking.set(0, newValue, cache: &_key)
                        }
                    }
                }

                @exclusivity(unchecked) private var _key: UUID

                private static let _keyPath_key = \Post.key
                var status: Status {
                    @storageRestrictions(initializes: _status)
                    init(initialValue) {
                        _status = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_status)
                        return _persistentBacking.get(1, cache: &_status)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_status) {
                            persistentBacking.set(1, newValue, cache: &_status)
                        }
                    }
                }

                @exclusivity(unchecked) private var _status: Status

                private static let _keyPath_status = \Post.status
                var author: User? {
                    @storageRestrictions(initializes: _author)
                    init(initialValue) {
                        _author = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_author)
                        return _persistentBacking.get(2, cache: &_author)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_author) {
                            persistentBacking.set(2, newValue, cache: &_author)
                        }
                    }
                }

                @exclusivity(unchecked) private var _author: User?

                private static let _keyPath_author = \Post.author

                @exclusivity(unchecked) private var _persistentBacking = ModelBackingSlot()

                public var persistentBacking: ModelBacking {
                    if let backing = _persistentBacking.backing {
                        return backing
                    }
                    let backing = ModelBacking()
                    _persistentBacking.backing = backing
                    return backing
                }

                private let _$observationRegistrar = Observation.ObservationRegistrar()

                public static var entityName: String {
                    "Post"
                }

                public static var persistentProperties: [ModelProperty] {
                    [
                        .property("key", \Post.key, storage: \Post._key, options: [.primaryKey]),
                        .property("status", \Post.status, storage: \Post._status, default: .draft),
                        .property("author", \Post.author, storage: \Post._author),
                    ]
                }

                public required init(backing: ModelBacking) {
                    self._persistentBacking = ModelBackingSlot(backing)
                    self._key = ModelBacking.placeholder()
                    self._author = ModelBacking.placeholder()
                }

                public func persistentValuesDidChange() {
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_key) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_status) {
                    }
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_author) {
                    }
                }
            }

            extension Post: PersistentModel, Observation.Observable {
            }
            """#
        }
    }

    @Test func anEmbeddedModelSaysSo() {
        assertMacro {
            """
            @Model(.embedded) final class Address {
                var id: Int64
                init(id: Int64) { self.id = id }
            }
            """
        } expansion: {
            #"""
            final class Address {
                var id: Int64 {
                    @storageRestrictions(initializes: _id)
                    init(initialValue) {
                        _id = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: Self._keyPath_id)
                        return _persistentBacking.get(0, cache: &_id)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_id) {
                            persistentBacking.set(0, newValue, cache: &_id)
                        }
                    }
                }

                @exclusivity(unchecked) private var _id: Int64

                private static let _keyPath_id = \Address.id
                init(id: Int64) { self.id = id }

                @exclusivity(unchecked) private var _persistentBacking = ModelBackingSlot()

                public var persistentBacking: ModelBacking {
                    if let backing = _persistentBacking.backing {
                        return backing
                    }
                    let backing = ModelBacking()
                    _persistentBacking.backing = backing
                    return backing
                }

                private let _$observationRegistrar = Observation.ObservationRegistrar()

                public static var entityName: String {
                    "Address"
                }

                public static var persistentProperties: [ModelProperty] {
                    [
                        .property("id", \Address.id, storage: \Address._id),
                    ]
                }

                public required init(backing: ModelBacking) {
                    self._persistentBacking = ModelBackingSlot(backing)
                    self._id = ModelBacking.placeholder()
                }

                public func persistentValuesDidChange() {
                    _$observationRegistrar.withMutation(of: self, keyPath: Self._keyPath_id) {
                    }
                }

                public static var isEmbeddedModel: Bool {
                    true
                }
            }

            extension Address: PersistentModel, Observation.Observable {
            }
            """#
        }
    }

    @Test func onlyClasses() {
        assertMacro {
            """
            @Model struct User {
                var id: Int64
            }
            """
        } diagnostics: {
            """
            @Model struct User {
            ┬─────
            ╰─ 🛑 @Model applies to a class
                var id: Int64
            }
            """
        }
    }

    @Test func storedPropertiesNeedVarAndAType() {
        assertMacro {
            """
            @Model final class User {
                let id: Int64
                var name = "x"
                @Transient var cache: Int
            }
            """
        } diagnostics: {
            """
            @Model final class User {
            ┬─────
            ╰─ 🛑 @Model needs a primary key: a property named id, or one marked @Attribute(.primaryKey)
                let id: Int64
                ┬──
                ╰─ 🛑 @Model stores var properties only: make it a var, or mark it @Transient
                var name = "x"
                ┬─────────────
                ╰─ 🛑 @Model needs the property's type written out (e.g. `var age: Int = 0`)
                @Transient var cache: Int
                ┬────────────────────────
                ╰─ 🛑 a @Transient property needs an initial value
            }
            """
        }
    }

    @Test func unsupportedTypesAreNamed() {
        assertMacro {
            """
            @Model final class User {
                var id: Int64
                var scores: [String: Int] = [:]
                var pair: (Int, Int)
                var nested: [[Post]] = []
            }
            """
        } diagnostics: {
            """
            @Model final class User {
                var id: Int64
                var scores: [String: Int] = [:]
                            ┬────────────
                            ╰─ 🛑 type cannot be stored: use Int, Int64, Int32, Double, Float, Bool, String, Date, UUID, Data, [UInt8], a PersistentEnum, an optional of these, a model (to-one, optional) or an array of models (to-many)
                var pair: (Int, Int)
                          ┬─────────
                          ╰─ 🛑 type cannot be stored: use Int, Int64, Int32, Double, Float, Bool, String, Date, UUID, Data, [UInt8], a PersistentEnum, an optional of these, a model (to-one, optional) or an array of models (to-many)
                var nested: [[Post]] = []
                            ┬───────
                            ╰─ 🛑 type cannot be stored: use Int, Int64, Int32, Double, Float, Bool, String, Date, UUID, Data, [UInt8], a PersistentEnum, an optional of these, a model (to-one, optional) or an array of models (to-many)
            }
            """
        }
    }

    @Test func aPrimaryKeyIsRequiredAndUnique() {
        assertMacro {
            """
            @Model final class Note {
                var text: String
            }
            """
        } diagnostics: {
            """
            @Model final class Note {
            ┬─────
            ╰─ 🛑 @Model needs a primary key: a property named id, or one marked @Attribute(.primaryKey)
                var text: String
            }
            """
        }
        assertMacro {
            """
            @Model final class Note {
                @Attribute(.primaryKey) var a: Int64
                @Attribute(.primaryKey) var b: Int64
            }
            """
        } diagnostics: {
            """
            @Model final class Note {
                @Attribute(.primaryKey) var a: Int64
                @Attribute(.primaryKey) var b: Int64
                ┬───────────────────────────────────
                ╰─ 🛑 @Model allows one @Attribute(.primaryKey)
            }
            """
        }
    }

    @Test func anInverseIsAKeyPath() {
        assertMacro {
            """
            @Model final class User {
                var id: Int64
                @Relationship(inverse: "author") var posts: [Post] = []
            }
            """
        } diagnostics: {
            #"""
            @Model final class User {
                var id: Int64
                @Relationship(inverse: "author") var posts: [Post] = []
                                       ┬───────
                                       ╰─ 🛑 inverse: takes a key path to the other side's property, e.g. \Post.author
            }
            """#
        }
    }
}

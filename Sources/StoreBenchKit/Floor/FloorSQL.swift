/// The SQL of the SQLite floor, shared with every program that does the floor's work over
/// SQLite (the plain GRDB reference): SQLiteStore's tables and indexes for `BenchSchema`, and
/// the statements of the workloads, in SQLiteStore's column lists.
public enum FloorSQL {
    /// SQLiteStore's DDL for `BenchSchema` (as `SQLSchemaMapping.ddl()` writes it; a test compares
    /// the two `sqlite_master`s). Profile stays empty but exists, as in every SQLiteStore file.
    /// The floor leaves `sb_sum` (SQLiteStore's row checksum) NULL: checksums are the store's
    /// integrity feature, not the workload's work, and their cost shows in the store's ratio.
    public static let ddl = [
        #"CREATE TABLE IF NOT EXISTS "User" ("id" INTEGER PRIMARY KEY NOT NULL, "username" TEXT NOT NULL, "displayName" TEXT NOT NULL, "email" TEXT, "age" INTEGER, "score" REAL NOT NULL, "active" INTEGER NOT NULL, "joinedAt" REAL NOT NULL, "avatar" BLOB, "externalID" BLOB, "sb_sum" INTEGER)"#,
        #"CREATE UNIQUE INDEX IF NOT EXISTS "idx_User_username" ON "User" ("username")"#,
        #"CREATE INDEX IF NOT EXISTS "idx_User_age_score" ON "User" ("age", "score")"#,
        #"CREATE TABLE IF NOT EXISTS "sb_j_User_followers" ("src" INTEGER NOT NULL, "dst" INTEGER NOT NULL, PRIMARY KEY ("src", "dst")) WITHOUT ROWID"#,
        #"CREATE INDEX IF NOT EXISTS "sb_j_User_followers_dst" ON "sb_j_User_followers" ("dst", "src")"#,
        #"CREATE TABLE IF NOT EXISTS "Post" ("id" INTEGER PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL, "score" INTEGER NOT NULL, "createdAt" REAL NOT NULL, "rating" REAL, "published" INTEGER NOT NULL, "author" INTEGER, "sb_sum" INTEGER)"#,
        #"CREATE INDEX IF NOT EXISTS "idx_Post_createdAt" ON "Post" ("createdAt")"#,
        #"CREATE INDEX IF NOT EXISTS "idx_Post_published_score" ON "Post" ("published", "score")"#,
        #"CREATE INDEX IF NOT EXISTS "sb_fk_Post_author" ON "Post" ("author")"#,
        #"CREATE TABLE IF NOT EXISTS "sb_j_Post_tags" ("src" INTEGER NOT NULL, "dst" TEXT NOT NULL, PRIMARY KEY ("src", "dst")) WITHOUT ROWID"#,
        #"CREATE INDEX IF NOT EXISTS "sb_j_Post_tags_dst" ON "sb_j_Post_tags" ("dst", "src")"#,
        #"CREATE TABLE IF NOT EXISTS "Comment" ("id" INTEGER PRIMARY KEY NOT NULL, "text" TEXT NOT NULL, "createdAt" REAL NOT NULL, "post" INTEGER, "author" INTEGER, "parent" INTEGER, "sb_sum" INTEGER)"#,
        #"CREATE INDEX IF NOT EXISTS "sb_fk_Comment_post" ON "Comment" ("post")"#,
        #"CREATE INDEX IF NOT EXISTS "sb_fk_Comment_author" ON "Comment" ("author")"#,
        #"CREATE INDEX IF NOT EXISTS "sb_fk_Comment_parent" ON "Comment" ("parent")"#,
        #"CREATE TABLE IF NOT EXISTS "Tag" ("name" TEXT PRIMARY KEY NOT NULL, "color" TEXT, "sb_sum" INTEGER) WITHOUT ROWID"#,
        #"CREATE TABLE IF NOT EXISTS "Profile" ("id" BLOB PRIMARY KEY NOT NULL, "bio" TEXT, "user" INTEGER, "sb_sum" INTEGER) WITHOUT ROWID"#,
        #"CREATE UNIQUE INDEX IF NOT EXISTS "sb_fk_Profile_user" ON "Profile" ("user")"#,
        #"CREATE TABLE IF NOT EXISTS "Row" ("id" INTEGER PRIMARY KEY NOT NULL, "i0" INTEGER NOT NULL, "i1" INTEGER NOT NULL, "i2" INTEGER NOT NULL, "i3" INTEGER NOT NULL, "i4" INTEGER NOT NULL, "i5" INTEGER NOT NULL, "i6" INTEGER NOT NULL, "i7" INTEGER NOT NULL, "i8" INTEGER NOT NULL, "i9" INTEGER NOT NULL, "sb_sum" INTEGER)"#,
    ]

    // The statements, in SQLiteStore's column lists.
    public static let insertUser = #"INSERT INTO "User" ("id", "username", "displayName", "email", "age", "score", "active", "joinedAt", "avatar", "externalID") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#
    public static let insertPost = #"INSERT INTO "Post" ("id", "title", "body", "score", "createdAt", "rating", "published") VALUES (?, ?, ?, ?, ?, ?, ?)"#
    public static let insertComment = #"INSERT INTO "Comment" ("id", "text", "createdAt") VALUES (?, ?, ?)"#
    public static let insertTag = #"INSERT INTO "Tag" ("name", "color") VALUES (?, ?)"#
    public static let insertRow = #"INSERT INTO "Row" ("id", "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#
    public static let postColumns = #""id", "title", "body", "score", "createdAt", "rating", "published""#
    public static let selectPost = #"SELECT \#(postColumns) FROM "Post" WHERE "id" = ?"#
    public static let scanPostsSQL = #"SELECT \#(postColumns) FROM "Post" ORDER BY "id""#
    public static let fetchRowsSQL = #"SELECT "id", "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9" FROM "Row" ORDER BY "id""#

    /// Where a link of the dataset lives, as SQLiteStore stores it: a foreign-key column on the
    /// to-one side, a join table (`src` the side whose name sorts first) for many-to-many.
    /// Bound with (target, source).
    public static func linkSQL(_ l: SocialLink) throws -> String {
        switch (l.entity, l.relationship) {
        case ("Post", "author"): #"UPDATE "Post" SET "author" = ? WHERE "id" = ?"#
        case ("Post", "tags"): #"INSERT OR IGNORE INTO "sb_j_Post_tags" ("dst", "src") VALUES (?, ?)"#
        case ("Comment", "post"): #"UPDATE "Comment" SET "post" = ? WHERE "id" = ?"#
        case ("Comment", "author"): #"UPDATE "Comment" SET "author" = ? WHERE "id" = ?"#
        case ("Comment", "parent"): #"UPDATE "Comment" SET "parent" = ? WHERE "id" = ?"#
        case ("User", "following"): #"INSERT OR IGNORE INTO "sb_j_User_followers" ("src", "dst") VALUES (?, ?)"#
        default: throw BenchError("no storage for the link \(l.entity).\(l.relationship)")
        }
    }
}

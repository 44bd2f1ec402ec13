/* The rows workloads in plain C: see include/creference.h. */
#define _GNU_SOURCE
#include "creference.h"

#include <endian.h>
#include <errno.h>
#include <lmdb.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Row i holds id, then id * 10 + k for k = 0...9 (64-bit wrapping, as the generator's rows). */
static inline int64_t column_value(int64_t id, int k) { return (int64_t)((uint64_t)id * 10u + (uint64_t)k); }

/* One field folded into a row's value: the runner's checksum. */
static inline uint64_t fold(uint64_t h, int64_t field) { return h * 31u + (uint64_t)field; }

/* ---------------------------------------------------------------------------------------- */
/* SQLite                                                                                    */

static const char *const row_ddl =
    "CREATE TABLE IF NOT EXISTS \"Row\" (\"id\" INTEGER PRIMARY KEY NOT NULL, \"i0\" INTEGER NOT NULL, "
    "\"i1\" INTEGER NOT NULL, \"i2\" INTEGER NOT NULL, \"i3\" INTEGER NOT NULL, \"i4\" INTEGER NOT NULL, "
    "\"i5\" INTEGER NOT NULL, \"i6\" INTEGER NOT NULL, \"i7\" INTEGER NOT NULL, \"i8\" INTEGER NOT NULL, "
    "\"i9\" INTEGER NOT NULL, \"sb_sum\" INTEGER)";
static const char *const insert_row =
    "INSERT INTO \"Row\" (\"id\", \"i0\", \"i1\", \"i2\", \"i3\", \"i4\", \"i5\", \"i6\", \"i7\", \"i8\", \"i9\") "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char *const fetch_rows =
    "SELECT \"id\", \"i0\", \"i1\", \"i2\", \"i3\", \"i4\", \"i5\", \"i6\", \"i7\", \"i8\", \"i9\" FROM \"Row\" ORDER BY \"id\"";

struct cref_sqlite {
    sqlite3 *db;
    sqlite3_stmt *begin_read, *begin_write, *commit, *rollback, *insert, *fetch;
    int64_t transactions;
};

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **out) {
    return sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL);
}

/* Steps a statement that returns no row, then resets it. */
static int step_done(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The one place a transaction begins. */
static int sqlite_begin(cref_sqlite *h, int write) {
    h->transactions++;
    return step_done(write ? h->begin_write : h->begin_read);
}

static void sqlite_rollback(cref_sqlite *h) {
    sqlite3_step(h->rollback);
    sqlite3_reset(h->rollback);
}

int cref_sqlite_open(const char *path, int durable, cref_sqlite **out) {
    cref_sqlite *h = calloc(1, sizeof *h);
    *out = h;
    if (!h) return SQLITE_NOMEM;
    int rc = sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(h->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h->db, durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(h->db, row_ddl, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = prepare(h->db, "BEGIN", &h->begin_read);
    if (rc == SQLITE_OK) rc = prepare(h->db, "BEGIN IMMEDIATE", &h->begin_write);
    if (rc == SQLITE_OK) rc = prepare(h->db, "COMMIT", &h->commit);
    if (rc == SQLITE_OK) rc = prepare(h->db, "ROLLBACK", &h->rollback);
    if (rc == SQLITE_OK) rc = prepare(h->db, insert_row, &h->insert);
    if (rc == SQLITE_OK) rc = prepare(h->db, fetch_rows, &h->fetch);
    return rc;
}

int cref_sqlite_rows_insert(cref_sqlite *h, int64_t first, int64_t count, uint64_t *nanos) {
    uint64_t start = now_nanos();
    int rc = sqlite_begin(h, 1);
    if (rc != SQLITE_OK) return rc;
    for (int64_t id = first; id < first + count; id++) {
        sqlite3_bind_int64(h->insert, 1, id);
        for (int k = 0; k < 10; k++) sqlite3_bind_int64(h->insert, k + 2, column_value(id, k));
        rc = step_done(h->insert);
        if (rc != SQLITE_OK) {
            sqlite_rollback(h);
            return rc;
        }
    }
    rc = step_done(h->commit);
    if (rc != SQLITE_OK) {
        sqlite_rollback(h);
        return rc;
    }
    *nanos = now_nanos() - start;
    return SQLITE_OK;
}

int cref_sqlite_rows_fetch(cref_sqlite *h, int64_t *sink, uint64_t *nanos, int64_t *rows) {
    uint64_t start = now_nanos();
    int rc = sqlite_begin(h, 0);
    if (rc != SQLITE_OK) return rc;
    uint64_t sum = 0;
    int64_t n = 0;
    for (;;) {
        rc = sqlite3_step(h->fetch);
        if (rc == SQLITE_DONE) break;
        if (rc != SQLITE_ROW) {
            sqlite3_reset(h->fetch);
            sqlite_rollback(h);
            return rc;
        }
        uint64_t r = 0;
        for (int c = 0; c < 11; c++) r = fold(r, sqlite3_column_int64(h->fetch, c));
        sum += r;
        n++;
    }
    sqlite3_reset(h->fetch);
    rc = step_done(h->commit);
    if (rc != SQLITE_OK) {
        sqlite_rollback(h);
        return rc;
    }
    *nanos = now_nanos() - start;
    *sink = (int64_t)sum;
    *rows = n;
    return SQLITE_OK;
}

int64_t cref_sqlite_transactions(const cref_sqlite *h) { return h ? h->transactions : 0; }

const char *cref_sqlite_errmsg(const cref_sqlite *h, int rc) {
    return h && h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(rc);
}

void cref_sqlite_close(cref_sqlite *h) {
    if (!h) return;
    sqlite3_stmt *statements[] = {h->begin_read, h->begin_write, h->commit, h->rollback, h->insert, h->fetch};
    for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++) sqlite3_finalize(statements[i]);
    if (h->db) sqlite3_close_v2(h->db);
    free(h);
}

/* ---------------------------------------------------------------------------------------- */
/* LMDB                                                                                      */

/* The Swift floor's environment: as many named databases, the same first and largest map. */
enum { lmdb_max_databases = 25 };
static const size_t lmdb_initial_map = (size_t)1 << 30;
static const size_t lmdb_maximum_map = (size_t)1 << 40;

struct cref_lmdb {
    MDB_env *env;
    MDB_dbi row;
    MDB_txn *reader;
    int durable;
    int64_t transactions;
};

/* The one place a transaction begins: a write transaction, or the read handle renewed. */
static int lmdb_begin(cref_lmdb *h, int read_only, MDB_txn **txn) {
    h->transactions++;
    if (read_only && h->reader) {
        *txn = h->reader;
        return mdb_txn_renew(h->reader);
    }
    int rc = mdb_txn_begin(h->env, NULL, read_only ? MDB_RDONLY : 0, txn);
    if (rc == 0 && read_only) h->reader = *txn;
    return rc;
}

/* Doubles the map; no transaction of this process may be open, so the reader goes. */
static int lmdb_grow(cref_lmdb *h) {
    if (h->reader) {
        mdb_txn_abort(h->reader);
        h->reader = NULL;
    }
    MDB_envinfo info;
    mdb_env_info(h->env, &info);
    if (info.me_mapsize >= lmdb_maximum_map) return MDB_MAP_FULL;
    size_t next = info.me_mapsize * 2;
    return mdb_env_set_mapsize(h->env, next < lmdb_maximum_map ? next : lmdb_maximum_map);
}

/* Big-endian with the sign bit flipped: byte order is numeric order. */
static inline void encode_key(unsigned char key[8], int64_t id) {
    uint64_t u = htobe64((uint64_t)id ^ ((uint64_t)1 << 63));
    memcpy(key, &u, 8);
}

static inline int64_t decode_key(const void *key) {
    uint64_t u;
    memcpy(&u, key, 8);
    return (int64_t)(be64toh(u) ^ ((uint64_t)1 << 63));
}

int cref_lmdb_open(const char *directory, int durable, cref_lmdb **out) {
    cref_lmdb *h = calloc(1, sizeof *h);
    *out = h;
    if (!h) return ENOMEM;
    h->durable = durable;
    int rc = mdb_env_create(&h->env);
    if (rc == 0) rc = mdb_env_set_maxdbs(h->env, lmdb_max_databases);
    if (rc == 0) rc = mdb_env_set_mapsize(h->env, lmdb_initial_map);
    if (rc == 0) rc = mdb_env_open(h->env, directory, MDB_NOTLS | (durable ? 0 : MDB_NOSYNC), 0644);
    if (rc != 0) return rc;
    MDB_txn *txn;
    rc = lmdb_begin(h, 0, &txn);
    if (rc != 0) return rc;
    rc = mdb_dbi_open(txn, "Row", MDB_CREATE, &h->row);
    if (rc != 0) {
        mdb_txn_abort(txn);
        return rc;
    }
    return mdb_txn_commit(txn);
}

int cref_lmdb_rows_insert(cref_lmdb *h, int64_t first, int64_t count, uint64_t *nanos) {
    uint64_t start = now_nanos();
    for (;;) {
        MDB_txn *txn;
        int rc = lmdb_begin(h, 0, &txn);
        if (rc != 0) return rc;
        unsigned char key[8];
        uint64_t value[10];
        for (int64_t id = first; id < first + count && rc == 0; id++) {
            encode_key(key, id);
            for (int k = 0; k < 10; k++) value[k] = htole64((uint64_t)column_value(id, k));
            MDB_val k = {sizeof key, key}, v = {sizeof value, value};
            rc = mdb_put(txn, h->row, &k, &v, MDB_NOOVERWRITE);
        }
        if (rc != 0) {
            mdb_txn_abort(txn);
            if (rc != MDB_MAP_FULL) return rc;
            if ((rc = lmdb_grow(h)) != 0) return rc;
            continue;
        }
        rc = mdb_txn_commit(txn);
        if (rc == MDB_MAP_FULL) {
            if ((rc = lmdb_grow(h)) != 0) return rc;
            continue;
        }
        if (rc != 0) return rc;
        break;
    }
    *nanos = now_nanos() - start;
    return 0;
}

int cref_lmdb_rows_fetch(cref_lmdb *h, int64_t *sink, uint64_t *nanos, int64_t *rows) {
    uint64_t start = now_nanos();
    MDB_txn *txn;
    int rc = lmdb_begin(h, 1, &txn);
    if (rc != 0) return rc;
    MDB_cursor *cursor;
    rc = mdb_cursor_open(txn, h->row, &cursor);
    if (rc != 0) {
        mdb_txn_reset(txn);
        return rc;
    }
    MDB_val k, v;
    uint64_t sum = 0;
    int64_t n = 0;
    rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST);
    while (rc == 0) {
        uint64_t r = fold(0, decode_key(k.mv_data));
        const unsigned char *p = v.mv_data;
        for (int j = 0; j < 10; j++) {
            uint64_t x;
            memcpy(&x, p + 8 * j, 8);
            r = fold(r, (int64_t)le64toh(x));
        }
        sum += r;
        n++;
        rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
    }
    mdb_cursor_close(cursor);
    mdb_txn_reset(txn);
    if (rc != MDB_NOTFOUND) return rc;
    *nanos = now_nanos() - start;
    *sink = (int64_t)sum;
    *rows = n;
    return 0;
}

int64_t cref_lmdb_transactions(const cref_lmdb *h) { return h ? h->transactions : 0; }

const char *cref_lmdb_errmsg(int rc) { return mdb_strerror(rc); }

void cref_lmdb_close(cref_lmdb *h) {
    if (!h) return;
    if (h->reader) mdb_txn_abort(h->reader);
    if (h->env) {
        if (!h->durable) mdb_env_sync(h->env, 1);
        mdb_env_close(h->env);
    }
    free(h);
}

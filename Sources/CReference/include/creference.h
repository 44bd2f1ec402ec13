#ifndef CREFERENCE_H
#define CREFERENCE_H

#include <stdint.h>

/*
 * The rows workloads (rows.insert, rows.fetch, and rows.load through the insert) in plain C,
 * over the same table and layout as StoreBench's Swift floors, so each Swift floor can be
 * given as a multiple of what C does with the same engine calls:
 *
 * - SQLite: the floor's "Row" table DDL, WAL, synchronous FULL (durable) or NORMAL (relaxed),
 *   statements prepared once with SQLITE_PREPARE_PERSISTENT, BEGIN IMMEDIATE ... COMMIT around
 *   an insert, BEGIN ... COMMIT around a fetch.
 * - LMDB: a "Row" database with 8-byte keys (big-endian, sign bit flipped) and 80-byte values
 *   (i0...i9 little-endian), MDB_NOTLS (+ MDB_NOSYNC when relaxed), a map that starts at 1 GiB
 *   and doubles when a write fills it, one read handle reset after each fetch and renewed.
 *
 * Each call times the same span the Swift floor times (CLOCK_MONOTONIC, from before the
 * transaction begins to after it ends) and returns it in *nanos. A fetch folds every column of
 * every row into *sink exactly as the runner's checksum does: per row h = h * 31 + column over
 * id, i0...i9 (64-bit wrapping), then the rows' values are added.
 *
 * Functions return 0 on success, otherwise the engine's error code; *_errmsg describes it.
 * A handle is used by one thread.
 */

typedef struct cref_sqlite cref_sqlite;
typedef struct cref_lmdb cref_lmdb;

int cref_sqlite_open(const char *path, int durable, cref_sqlite **out);
int cref_sqlite_rows_insert(cref_sqlite *h, int64_t first, int64_t count, uint64_t *nanos);
int cref_sqlite_rows_fetch(cref_sqlite *h, int64_t *sink, uint64_t *nanos, int64_t *rows);
/* Transactions begun so far (read and write). */
int64_t cref_sqlite_transactions(const cref_sqlite *h);
const char *cref_sqlite_errmsg(const cref_sqlite *h, int rc);
void cref_sqlite_close(cref_sqlite *h);

int cref_lmdb_open(const char *directory, int durable, cref_lmdb **out);
int cref_lmdb_rows_insert(cref_lmdb *h, int64_t first, int64_t count, uint64_t *nanos);
int cref_lmdb_rows_fetch(cref_lmdb *h, int64_t *sink, uint64_t *nanos, int64_t *rows);
int64_t cref_lmdb_transactions(const cref_lmdb *h);
const char *cref_lmdb_errmsg(int rc);
void cref_lmdb_close(cref_lmdb *h);

#endif

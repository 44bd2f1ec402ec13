#ifndef STOREBENCH_ROWCHECKSUM_H
#define STOREBENCH_ROWCHECKSUM_H

struct sqlite3;

/// Registers `sb_row_sum(v1, v2, …)` on a SQLite connection: a deterministic 63-bit checksum
/// of its arguments' types and values (integers and reals by their 64 bits, text and blobs
/// by their bytes, NULL by its type alone). StoreSQL stores it beside every record and
/// `verify()` recomputes it. Returns a SQLite result code.
int sb_register_row_checksum(struct sqlite3 *db);

#endif

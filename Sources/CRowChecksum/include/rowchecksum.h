#ifndef STOREBENCH_ROWCHECKSUM_H
#define STOREBENCH_ROWCHECKSUM_H

struct sqlite3;

/// Registers StoreSQL's row checksum functions on a SQLite connection: `sb_row_sum(first, v…)`,
/// the wrapping sum of a 64-bit hash per value and its ordinal (integers and reals by their 64
/// bits, text and blobs by their bytes, NULL by its type); `sb_row_sum_replace(sum, ordinal,
/// old, new, …)`, which swaps the terms of changed columns; `sb_row_sum_add(a, b)`. StoreSQL
/// keeps the sum beside every record and `verify()` recomputes it. Returns a SQLite result code.
int sb_register_row_checksum(struct sqlite3 *db);

#endif

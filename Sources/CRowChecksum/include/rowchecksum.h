#ifndef STOREBENCH_ROWCHECKSUM_H
#define STOREBENCH_ROWCHECKSUM_H

struct sqlite3;

/// Registers StoreSQL's row checksum functions on a SQLite connection: `sb_row_sum(first, v…)`,
/// the wrapping sum of a 64-bit hash per value and its ordinal (integers and reals by their 64
/// bits, text and blobs by their bytes, NULL by its type); `sb_row_sum_replace(sum, ordinal,
/// old, new, …)`, which swaps the terms of changed columns; `sb_row_sum_add(a, b)`. StoreSQL
/// keeps the sum beside every record and `verify()` recomputes it. Returns a SQLite result code.
int sb_register_row_checksum(struct sqlite3 *db);

/// Folds `length` bytes of UTF-8 text under StoreSQL's options; returns a `malloc`ed result
/// (SQLite frees it) and its length in `outLength`, or NULL when out of memory.
typedef unsigned char *(*sb_fold_text)(const unsigned char *text, int length, long long options,
                                                 long long *outLength);
/// 1 when the text matches the folded `LIKE` pattern under the options, else 0.
typedef int (*sb_like_text)(const unsigned char *text, int textLength, const unsigned char *pattern,
                            int patternLength, long long options);

/// Registers `foldName(text, options)` and `likeName(text, foldedPattern, options)` on a
/// connection as C functions that hand the text's bytes and length (NULs included) to `fold`
/// and `like`. NULL text gives NULL. Returns a SQLite result code.
int sb_register_text_functions(struct sqlite3 *db, const char *foldName, const char *likeName,
                               sb_fold_text fold, sb_like_text like);

/// Turns off SQLite's double-quoted string literals in statements and schema
/// (`SQLITE_DBCONFIG_DQS_DML` and `_DDL`), so a misspelt "column" is an error, not a string.
/// Returns a SQLite result code.
int sb_refuse_double_quoted_strings(struct sqlite3 *db);

#endif

// The row checksum of StoreSQL's stores, as C functions for every SQLite driver: they run once
// per row written, so they avoid any per-argument wrapping.
//
// A row's checksum is the wrapping sum of one 64-bit hash per attribute, h(ordinal, value), so
// an UPDATE replaces the terms of the columns it changes without reading the others.
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include "rowchecksum.h"

static inline uint64_t step(uint64_t h, uint64_t word) { return (h ^ word) * 0xFF51AFD7ED558CCDULL; }

static inline uint64_t finish(uint64_t h) {
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 29);
}

// h(ordinal, value): the type, then integers and reals by their 64 bits, text and blobs by
// their bytes. Each step is a bijection of the state, so a change confined to one 8-byte word
// always changes it.
static uint64_t column_hash(uint64_t ordinal, sqlite3_value *v) {
    int type = sqlite3_value_type(v);
    uint64_t h = step(0x9E3779B97F4A7C15ULL ^ ordinal, (uint64_t)type);
    switch (type) {
    case SQLITE_INTEGER:
        return finish(step(h, (uint64_t)sqlite3_value_int64(v)));
    case SQLITE_FLOAT: {
        double d = sqlite3_value_double(v);
        // REAL affinity stores -0.0 as the integer 0, read back as +0.0: hash both alike.
        if (d == 0) d = 0.0;
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return finish(step(h, bits));
    }
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
        // Text as its bytes: sqlite3_value_text would copy a bound string to terminate it.
        const unsigned char *p = sqlite3_value_blob(v);
        size_t n = (size_t)sqlite3_value_bytes(v), i = 0;
        h = step(h, (uint64_t)n);
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            h = step(h, w);
        }
        uint64_t tail = 0;
        for (unsigned shift = 0; i < n; i++, shift += 8) tail |= (uint64_t)p[i] << shift;
        return finish(step(h, tail));
    }
    default:
        return finish(h);
    }
}

// sb_row_sum(first, v1, v2, …): the sum of h(first + k, v_k), plus nothing else. Callers pass
// first = 0 and chain long rows with sb_row_sum_add.
static void row_sum(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    uint64_t first = (uint64_t)sqlite3_value_int64(argv[0]), sum = 0;
    for (int i = 1; i < argc; i++) sum += column_hash(first + (uint64_t)(i - 1), argv[i]);
    sqlite3_result_int64(ctx, (sqlite3_int64)sum);
}

// sb_row_sum_replace(sum, o1, old1, new1, o2, old2, new2, …): `sum` with the terms of the
// changed columns replaced; NULL stays NULL (a row without a checksum keeps none).
static void row_sum_replace(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    uint64_t sum = (uint64_t)sqlite3_value_int64(argv[0]);
    for (int i = 1; i + 2 < argc; i += 3) {
        uint64_t ordinal = (uint64_t)sqlite3_value_int64(argv[i]);
        sum -= column_hash(ordinal, argv[i + 1]);
        sum += column_hash(ordinal, argv[i + 2]);
    }
    sqlite3_result_int64(ctx, (sqlite3_int64)sum);
}

// sb_row_sum_add(a, b): a + b, wrapping (SQL's + would turn an overflow into a REAL).
static void row_sum_add(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    sqlite3_result_int64(ctx, (sqlite3_int64)((uint64_t)sqlite3_value_int64(argv[0]) + (uint64_t)sqlite3_value_int64(argv[1])));
}

int sb_register_row_checksum(struct sqlite3 *db) {
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function_v2(db, "sb_row_sum", -1, flags, NULL, row_sum, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function_v2(db, "sb_row_sum_replace", -1, flags, NULL, row_sum_replace, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function_v2(db, "sb_row_sum_add", 2, flags, NULL, row_sum_add, NULL, NULL, NULL);
    return rc;
}

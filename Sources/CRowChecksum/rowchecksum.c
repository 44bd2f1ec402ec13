// The row checksum of StoreSQL's stores, as a C function for every SQLite driver: it runs
// once per row written, so it avoids any per-argument wrapping.
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>
#include "rowchecksum.h"

// One step per 8-byte word; each step is a bijection of the state, so a change confined to
// one word always changes the result.
static inline uint64_t step(uint64_t h, uint64_t word) {
    h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 29);
}

static uint64_t mix_bytes(uint64_t h, const unsigned char *p, size_t n) {
    h = step(h, (uint64_t)n);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = step(h, w);
    }
    uint64_t tail = 0;
    for (unsigned shift = 0; i < n; i++, shift += 8) tail |= (uint64_t)p[i] << shift;
    return step(h, tail);
}

static void row_sum(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)argc;
    for (int i = 0; i < argc; i++) {
        int type = sqlite3_value_type(argv[i]);
        h = step(h, (uint64_t)type);
        switch (type) {
        case SQLITE_INTEGER:
            h = step(h, (uint64_t)sqlite3_value_int64(argv[i]));
            break;
        case SQLITE_FLOAT: {
            double d = sqlite3_value_double(argv[i]);
            uint64_t bits;
            memcpy(&bits, &d, 8);
            h = step(h, bits);
            break;
        }
        case SQLITE_TEXT: {
            const unsigned char *t = sqlite3_value_text(argv[i]);
            h = mix_bytes(h, t, (size_t)sqlite3_value_bytes(argv[i]));
            break;
        }
        case SQLITE_BLOB: {
            const unsigned char *b = sqlite3_value_blob(argv[i]);
            h = mix_bytes(h, b, (size_t)sqlite3_value_bytes(argv[i]));
            break;
        }
        default:
            break;
        }
    }
    h = (h ^ (h >> 32)) * 0xC4CEB9FE1A85EC53ULL;
    sqlite3_result_int64(ctx, (sqlite3_int64)(h >> 1));
}

int sb_register_row_checksum(struct sqlite3 *db) {
    return sqlite3_create_function_v2(db, "sb_row_sum", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      NULL, row_sum, NULL, NULL, NULL);
}

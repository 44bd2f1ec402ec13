// sb_fold and sb_like as C functions on a SQLite connection, for every driver (SQLiteStore,
// GRDBStore): text reaches the folding code as its bytes and length, so a NUL inside a string
// is kept (a driver's own function API may read text as a C string and cut it there). The
// folding itself is StoreSQL's Swift code, handed in as two function pointers.

#include <sqlite3.h>
#include <stdlib.h>
#include "rowchecksum.h"

typedef struct {
    sb_fold_text fold;
    sb_like_text like;
} sb_text_callbacks;

static void sb_fold_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) { sqlite3_result_null(ctx); return; }
    const unsigned char *text = sqlite3_value_text(argv[0]);
    if (!text) { sqlite3_result_error_nomem(ctx); return; }
    int n = sqlite3_value_bytes(argv[0]);
    const sb_text_callbacks *cb = sqlite3_user_data(ctx);
    long long outLength = 0;
    unsigned char *folded = cb->fold(text, n, sqlite3_value_int64(argv[1]), &outLength);
    if (!folded) { sqlite3_result_error_nomem(ctx); return; }
    sqlite3_result_text64(ctx, (const char *)folded, (sqlite3_uint64)outLength, free, SQLITE_UTF8);
}

static void sb_like_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    const unsigned char *text = sqlite3_value_text(argv[0]);
    int textLength = sqlite3_value_bytes(argv[0]);
    const unsigned char *pattern = sqlite3_value_text(argv[1]);
    int patternLength = sqlite3_value_bytes(argv[1]);
    if (!text || !pattern) { sqlite3_result_error_nomem(ctx); return; }
    const sb_text_callbacks *cb = sqlite3_user_data(ctx);
    sqlite3_result_int(ctx, cb->like(text, textLength, pattern, patternLength, sqlite3_value_int64(argv[2])));
}

int sb_register_text_functions(struct sqlite3 *db, const char *foldName, const char *likeName,
                               sb_fold_text fold, sb_like_text like) {
    sb_text_callbacks *cb = malloc(sizeof *cb);
    if (!cb) return SQLITE_NOMEM;
    cb->fold = fold;
    cb->like = like;
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    // The connection frees the callbacks with the fold function (the like function shares them).
    int rc = sqlite3_create_function_v2(db, foldName, 2, flags, cb, sb_fold_function, NULL, NULL, free);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2(db, likeName, 3, flags, cb, sb_like_function, NULL, NULL, NULL);
}

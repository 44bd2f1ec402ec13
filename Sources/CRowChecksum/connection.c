// Connection settings every SQLite driver of StoreSQL applies, through C because
// sqlite3_db_config is variadic and Swift cannot call it.
#include <sqlite3.h>
#include "rowchecksum.h"

int sb_refuse_double_quoted_strings(struct sqlite3 *db) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}

// CSQLite: exposes the system SQLite 3 C API (libsqlite3-dev) to Swift.
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are function-pointer casts that Swift
// cannot import; these helpers give them a usable form.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

// sqlite3_db_config is variadic, which Swift cannot call. This form sets one on/off option
// (SQLITE_DBCONFIG_DEFENSIVE, SQLITE_DBCONFIG_TRUSTED_SCHEMA, …) and returns the value now in
// force (0 or 1), or -1 when SQLite refused the option.
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int on) {
    int current = -1;
    if (sqlite3_db_config(db, option, on, &current) != SQLITE_OK) return -1;
    return current;
}

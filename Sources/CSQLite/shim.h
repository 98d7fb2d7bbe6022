// CSQLite: exposes the system SQLite 3 C API (libsqlite3-dev) to Swift.
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are function-pointer casts that Swift
// cannot import; these helpers give them a usable form.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

#ifndef COMICS_CSQLITE_SHIM_H
#define COMICS_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT casts -1 to a function pointer, a macro Swift cannot
   import; binding with it makes SQLite copy the bytes before we free them. */
static inline sqlite3_destructor_type comics_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/* sqlite3_db_config is variadic, which Swift cannot call. Defensive mode
   forbids what only a tool repairing a file should do: writing
   sqlite_master, corrupting the file through PRAGMAs. */
static inline int comics_sqlite_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

#endif

#ifndef COMICS_CSQLITE_SHIM_H
#define COMICS_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT casts -1 to a function pointer, a macro Swift cannot
   import; binding with it makes SQLite copy the bytes before we free them. */
static inline sqlite3_destructor_type comics_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif

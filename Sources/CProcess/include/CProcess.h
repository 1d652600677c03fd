#ifndef COMICS_CPROCESS_H
#define COMICS_CPROCESS_H

#include <spawn.h>

/* What glibc shows only under _GNU_SOURCE, which Swift's Glibc module does
   not define. */

/* Has the child close every descriptor from `first` up before it executes
   (posix_spawn_file_actions_addclosefrom_np, glibc 2.34): whatever this
   process holds, curl's sockets and SQLite's files included, and however
   another thread made it, no child inherits it. 0 or an error number. */
int comics_spawn_close_inherited(posix_spawn_file_actions_t *actions, int first);

/* pipe2(O_CLOEXEC): both ends close-on-exec from birth, so no spawn in
   another thread can catch them between pipe() and fcntl(). 0 or -1. */
int comics_pipe_close_on_exec(int descriptors[2]);

#endif

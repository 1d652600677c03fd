#define _GNU_SOURCE
#include "CProcess.h"

#include <fcntl.h>
#include <unistd.h>

int comics_spawn_close_inherited(posix_spawn_file_actions_t *actions, int first) {
    return posix_spawn_file_actions_addclosefrom_np(actions, first);
}

int comics_pipe_close_on_exec(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}

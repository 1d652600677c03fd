import Glibc

/// `strings` as the NULL-terminated array of C strings that `execve` and
/// `posix_spawn` take, alive for the duration of `body`.
public func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Starts `arguments[0]` in a session of its own (it outlives the terminal
/// and ignores its Ctrl-C) with /dev/null for its input and output, and
/// does not wait for it. Descriptors without close-on-exec are inherited.
/// False when it could not be started.
public func spawnDetached(_ arguments: [String], environment: [String: String]) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
        posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, posixSpawnSetSID)
    let environmentLines = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let status = withCStrings(arguments) { argv in
        withCStrings(environmentLines) { envp in posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) }
    }
    return status == 0
}

/// glibc's POSIX_SPAWN_SETSID, which its headers show only under _GNU_SOURCE.
private let posixSpawnSetSID: Int16 = 0x80

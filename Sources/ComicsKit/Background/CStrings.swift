import CProcess
import Glibc

/// `strings` as the NULL-terminated array of C strings that `execve` and
/// `posix_spawn` take, alive for the duration of `body`.
public func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Has a child spawned with `actions` keep only its standard input, output
/// and error (and the descriptors below `first` it is handed): nothing else
/// this process holds (curl's sockets and connections, SQLite's files,
/// pipes) is inherited, whoever opened it. Added after the actions that set
/// up the descriptors it keeps.
public func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from first: Int32 = 3) {
    _ = comics_spawn_close_inherited(&actions, first)
}

/// A pipe whose ends are close-on-exec from birth: (read end, write end).
public func closeOnExecPipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard comics_pipe_close_on_exec(&ends) == 0 else { return nil }
    return (ends[0], ends[1])
}

/// Starts `arguments[0]` in a session of its own (it outlives the terminal
/// and ignores its Ctrl-C) with /dev/null for its input and output, and
/// does not wait for it. It inherits no other descriptor but `handed`,
/// which it gets as descriptor 3 (a lock it holds while it runs). Its pid
/// (a process that runs on should reap it), or nil when it could not be started.
@discardableResult
public func spawnDetached(_ arguments: [String], environment: [String: String], handing handed: Int32? = nil) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
        posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
    }
    if let handed {
        // A descriptor dup2'd onto itself stays close-on-exec: a 3 goes through 4.
        if handed == 3 { posix_spawn_file_actions_adddup2(&actions, 3, 4) }
        posix_spawn_file_actions_adddup2(&actions, handed == 3 ? 4 : handed, 3)
    }
    closeInheritedDescriptors(&actions, from: handed == nil ? 3 : 4)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, posixSpawnSetSID)
    let environmentLines = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let status = withCStrings(arguments) { argv in
        withCStrings(environmentLines) { envp in posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) }
    }
    return status == 0 ? pid : nil
}

/// Runs `arguments[0]` on this terminal (its standard streams are ours,
/// nothing else is inherited) and waits for it: its exit status, or nil
/// when it could not be started.
public func runInForeground(_ arguments: [String], environment: [String: String]) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    closeInheritedDescriptors(&actions, from: 3)
    let environmentLines = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let started = withCStrings(arguments) { argv in
        withCStrings(environmentLines) { envp in posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) }
    }
    guard started == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
}

/// glibc's POSIX_SPAWN_SETSID, which its headers show only under _GNU_SOURCE.
private let posixSpawnSetSID: Int16 = 0x80

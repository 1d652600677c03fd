import Glibc

/// The few file operations comics needs, straight on the system calls:
/// Foundation's `FileManager` would bring most of Foundation into the
/// binary, and a millisecond with it to every start.
public enum FileSystem {
    /// Whether anything is at `path`, a symbolic link followed, as `stat` sees it.
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Creates `path` and every missing folder above it with `mode`, as
    /// `mkdir -p` does; true when it is a folder afterwards.
    public static func createDirectories(_ path: String, mode: mode_t) -> Bool {
        var status = stat()
        if stat(path, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            guard createDirectories(String(path[..<slash]), mode: mode) else { return false }
        }
        return mkdir(path, mode) == 0 || (errno == EEXIST && stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR)
    }

    /// The names in the folder at `path`, `.` and `..` left out; nil when
    /// it cannot be read.
    public static func names(in path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

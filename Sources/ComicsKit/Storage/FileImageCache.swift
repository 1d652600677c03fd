import struct FoundationEssentials.Date
import typealias FoundationEssentials.TimeInterval
import Glibc

/// Images as files in one private directory (0700, files 0600), each named
/// by the SHA-256 of its URL: never by anything the server chose, so no
/// remote name can reach outside the directory or collide with another.
/// A file is written under a temporary name and renamed into place, so a
/// reader sees a whole image or none.
public final class FileImageCache: ImageCache {
    public let directory: String
    /// Files larger than this are not images comics wrote; they are ignored.
    private let maximumBytes: Int

    public init(directory: String, maximumBytes: Int = HTTPSettings().maxBodyBytes) {
        self.directory = directory
        self.maximumBytes = maximumBytes
    }

    private func path(for url: String) -> String {
        "\(directory)/\(SHA256.hex(url))"
    }

    public func image(for url: String) -> [UInt8]? {
        guard isTrustedDirectory() else { return nil }
        // O_NONBLOCK: a FIFO planted at the path must not hang the open.
        let descriptor = open(path(for: url), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size > 0, status.st_size <= maximumBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes[filled...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }

    public func save(_ bytes: [UInt8], for url: String) throws {
        try createDirectory()
        guard isTrustedDirectory() else {
            throw ComicsError.database("\(directory) is a symbolic link, not a folder of comics' own, or writable by others; remove it")
        }
        let temporary = "\(directory)/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot write an image in \(directory)") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                close(descriptor)
                unlink(temporary)
                throw failure("cannot write an image in \(directory)")
            }
            written += count
        }
        close(descriptor)
        guard rename(temporary, path(for: url)) == 0 else {
            unlink(temporary)
            throw failure("cannot store an image in \(directory)")
        }
    }

    public func remove(_ url: String) {
        unlink(path(for: url))
    }

    public func retainOnly(_ urls: Set<String>) throws -> ImageCacheUsage {
        // Never delete through a link to somewhere else, nor in a folder not ours.
        guard isTrustedDirectory() else { return ImageCacheUsage() }
        let kept = Set(urls.map(SHA256.hex))
        var removed = ImageCacheUsage()
        let abandonedBefore = Date().addingTimeInterval(-3600)
        for entry in try entries() {
            let isImage = Self.isImageName(entry.name)
            // Temporary files of a writer that died are swept once they are old.
            let isAbandoned = entry.name.hasPrefix(".tmp-") && entry.modified < abandonedBefore
            guard (isImage && !kept.contains(entry.name)) || isAbandoned else { continue }
            if unlink("\(directory)/\(entry.name)") == 0 && isImage {
                removed.files += 1
                removed.bytes += entry.size
            }
        }
        return removed
    }

    public var location: String { directory }

    public func usage() -> ImageCacheUsage {
        let images = ((try? entries()) ?? []).filter { Self.isImageName($0.name) }
        return ImageCacheUsage(files: images.count, bytes: images.reduce(0) { $0 + $1.size })
    }

    private static func isImageName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private struct Entry {
        let name: String
        let size: Int
        let modified: Date
    }

    /// The regular files in the directory; none when it does not exist yet.
    private func entries() throws -> [Entry] {
        guard let names = FileSystem.names(in: directory) else { return [] }
        return names.compactMap { name in
            var status = stat()
            guard lstat("\(directory)/\(name)", &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Entry(
                name: name, size: Int(status.st_size),
                modified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)))
        }
    }

    /// A real folder (not a symbolic link), owned by this user, that no one
    /// else may write into: the only kind comics reads from, writes to or
    /// deletes in.
    private func isTrustedDirectory() -> Bool {
        var status = stat()
        return lstat(directory, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            && status.st_uid == geteuid() && status.st_mode & 0o022 == 0
    }

    private func createDirectory() throws {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw failure("cannot create \(directory)")
        }
    }

    private func failure(_ message: String) -> ComicsError {
        ComicsError.database("\(message): \(String(cString: strerror(errno)))")
    }
}

/// Where fetched images are kept between runs. Images never change at a
/// given URL, so a cached one is used until cleanup removes it.
public protocol ImageCache {
    /// The bytes cached for `url`, or nil.
    func image(for url: String) -> [UInt8]?
    func save(_ bytes: [UInt8], for url: String) throws
    /// Forgets the image cached for `url`, such as one that would not decode.
    func remove(_ url: String)
    /// Removes every cached image whose URL is not in `urls`; says how
    /// many went and the bytes they took.
    func retainOnly(_ urls: Set<String>) throws -> ImageCacheUsage
    /// Where the images are kept, to tell a person.
    var location: String { get }
    func usage() -> ImageCacheUsage
}

public struct ImageCacheUsage: Equatable, Sendable {
    public var files: Int
    public var bytes: Int

    public init(files: Int = 0, bytes: Int = 0) {
        self.files = files
        self.bytes = bytes
    }
}

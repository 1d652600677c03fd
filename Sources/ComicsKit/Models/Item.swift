import struct FoundationEssentials.Date

/// One comic or book as the domain sees it: the fields every source has,
/// and the source's own fields in the order they should be shown.
public struct Item: Equatable, Sendable {
    public var ref: ItemRef
    public var title: String
    /// The human page, e.g. `https://xkcd.com/353/`.
    public var url: String
    public var attributes: [Attribute]

    public init(ref: ItemRef, title: String, url: String, attributes: [Attribute]) {
        self.ref = ref
        self.title = title
        self.url = url
        self.attributes = attributes
    }

    public subscript(key: String) -> JSONValue? {
        attributes.first { $0.key == key }?.value
    }
}

/// A named, source-specific field of an item (`alt`, `date`, `authors`).
public struct Attribute: Equatable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// What a server said about a representation so it can be asked
/// "has it changed?" instead of sending it again.
public struct Validators: Equatable, Sendable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public static let none = Validators()
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// An item as the cache holds it, with when it was last refreshed.
public struct CachedItem: Equatable, Sendable {
    public var item: Item
    public var cachedAt: Date
    public var isFavorite: Bool
    public var validators: Validators
    /// When it was last shown, listed or found, to the day; nil: not since
    /// it was cached (or since comics kept it).
    public var usedAt: Date?

    public init(item: Item, cachedAt: Date, isFavorite: Bool, validators: Validators, usedAt: Date? = nil) {
        self.item = item
        self.cachedAt = cachedAt
        self.isFavorite = isFavorite
        self.validators = validators
        self.usedAt = usedAt
    }

    public var ref: ItemRef { item.ref }
}

/// An item just received from upstream, with the validators it came with.
public struct FetchedItem: Equatable, Sendable {
    public var item: Item
    public var validators: Validators

    public init(item: Item, validators: Validators) {
        self.item = item
        self.validators = validators
    }
}

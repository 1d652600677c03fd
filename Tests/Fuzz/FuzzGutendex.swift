import ComicsKit

/// libFuzzer target: any bytes as a Gutendex page and as one book.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGutendex(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let page = try? GutendexBookDecoder.decodePage(bytes) {
        precondition((page.count ?? 0) >= 0, "a count, when there is one, is not negative")
        for book in page.books {
            precondition(book.ref.id > 0, "an accepted book has a positive id")
        }
    }
    if let book = try? GutendexBookDecoder.decodeBook(bytes) {
        precondition(book.ref.id > 0, "an accepted book has a positive id")
    }
    return 0
}

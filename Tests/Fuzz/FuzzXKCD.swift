import ComicsKit

/// libFuzzer target: any bytes as an xkcd `info.0.json`. Decoding may
/// refuse the document, but must not crash, and what it accepts must be
/// an item comics can store and show.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXKCD(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let item = try? XKCDComicDecoder.decode(bytes) else { return 0 }
    precondition(item.ref.id > 0, "an accepted comic has a positive number")
    precondition(!item.title.isEmpty, "an accepted comic has a title")
    _ = TerminalText.sanitize(item.title, singleLine: true)
    return 0
}

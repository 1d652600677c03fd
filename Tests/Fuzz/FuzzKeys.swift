import BrowseCore

/// libFuzzer target for browse's key decoder, compiled into the comics
/// module: any bytes, cut into chunks where the input says (a NUL byte
/// ends a read), as a terminal might deliver them. No crash, no key that
/// holds a control character, and what waits after the last read never
/// exceeds one sequence.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let reads = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for chunk in reads { keys += decoder.feed(Array(chunk)) }
    keys += decoder.flush()
    precondition(!decoder.isWaiting, "bytes left waiting after a flush")
    for case let .character(character) in keys {
        precondition(!character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                     "a control character became a key")
    }
    return 0
}

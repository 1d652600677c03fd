import ComicsKit

/// libFuzzer target for a downloaded text's rules (`GutenbergText.content`):
/// any bytes make a text `checkBookContent` accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGutenberg(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkBookContent(GutenbergText.content(of: Array(UnsafeBufferPointer(start: data, count: size))).content)
    return 0
}

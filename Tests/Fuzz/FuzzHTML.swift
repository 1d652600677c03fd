import ComicsKit

/// libFuzzer target for an HTML edition's rules (`GutenbergHTML.content`):
/// any bytes make a text `checkBookContent` accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    checkBookContent(GutenbergHTML.content(of: Array(UnsafeBufferPointer(start: data, count: size))).content)
    return 0
}

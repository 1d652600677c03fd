import ComicsKit

/// libFuzzer target: any bytes as a picture. The header check may refuse
/// them, but must not crash, and a size it accepts is within the limits
/// the decoding child relies on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let header = try? ImageHeader.inspect(bytes) else { return 0 }
    precondition(header.width > 0 && header.height > 0, "an accepted picture has pixels")
    precondition(header.width <= ImageHeader.maximumSide && header.height <= ImageHeader.maximumSide, "no side past the limit")
    precondition(header.width * header.height <= ImageHeader.maximumPixels, "no more pixels than the limit")
    return 0
}

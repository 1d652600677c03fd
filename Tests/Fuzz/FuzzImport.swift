/// libFuzzer target for `fav import`'s reader, compiled into the comics
/// module: any text as an export file. It may be refused, but must not
/// crash, and every reference it accepts is a positive id of a known source.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self),
          let refs = try? FavoritesFile.parse(text, label: "input")
    else { return 0 }
    for ref in refs {
        precondition(ref.id > 0, "accepted a reference with id \(ref.id)")
    }
    return 0
}

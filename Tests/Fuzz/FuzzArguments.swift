/// libFuzzer target for the argument parser, compiled into the comics
/// module: NUL-separated arguments. Parsing may refuse them with a usage
/// error, but must not crash, and what it accepts names a real command
/// whose help page renders.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let arguments = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let parser = ArgumentParser()
    guard let parsed = try? parser.parse(arguments) else { return 0 }
    var command = CommandTable.root
    for name in parsed.commandPath {
        guard let next = command.subcommand(named: name) else { preconditionFailure("parsed an unknown command \(name)") }
        command = next
    }
    precondition(!HelpText.render(parsed.commandPath).isEmpty)
    return 0
}

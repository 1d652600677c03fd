import CImaging
import ComicsKit
import Glibc

/// Decoding and drawing pictures through CImaging (gdk-pixbuf and chafa).
enum Imaging {
    /// What chafa's terminal database says the terminal can do.
    static func abilities(environment: [String: String]) -> TerminalAbilities {
        TerminalAbilities(rawValue: withEnvironment(environment) { comics_imaging_terminal_abilities($0) })
    }

    /// The picture drawn into at most `columns` x `rows` cells, in this
    /// process: only PictureProcess's child calls it, under its time limit.
    static func draw(
        _ bytes: [UInt8], format: ImageHeader.Format, columns: Int, rows: Int, mode: GraphicsMode, colors: ColorDepth,
        cellSize: (width: Int, height: Int), environment: [String: String]
    ) throws(ImagingError) -> DrawnImage {
        var animated: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let drawn = withEnvironment(environment) { environmentPointer in
            bytes.withUnsafeBufferPointer { bytes in
                comics_imaging_draw(
                    bytes.baseAddress, bytes.count, format.rawValue, Int32(columns), Int32(rows),
                    mode.code, colors.code, Int32(cellSize.width), Int32(cellSize.height),
                    environmentPointer, &animated, &error, error.count)
            }
        }
        guard let drawn else {
            throw ImagingError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { comics_imaging_free(drawn) }
        return DrawnImage(text: String(cString: drawn), isAnimated: animated != 0)
    }

    /// A NULL-terminated `NAME=value` array for the duration of `body`.
    private static func withEnvironment<Result>(
        _ environment: [String: String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Result
    ) -> Result {
        var entries: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { entries.forEach { free($0) } }
        return entries.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}

/// What was drawn.
struct DrawnImage {
    let text: String
    /// The source had several frames; the first was drawn.
    let isAnimated: Bool
}

/// Why a picture could not be drawn, in one line.
struct ImagingError: Error, CustomStringConvertible {
    let description: String
    /// Decoding was stopped at its time limit.
    let isTimeOut: Bool
    init(_ description: String, isTimeOut: Bool = false) {
        self.description = description
        self.isTimeOut = isTimeOut
    }

    static let timeOut = ImagingError(
        "decoding it took longer than \(PictureProcess.secondsAllowed) seconds", isTimeOut: true)
}

import BrowseCore
import CTerminal
import ComicsKit
import FoundationEssentials
import Glibc

/// Paints frames through ncurses, and writes a picture's graphics
/// (kitty, iTerm2, sixel) around it, straight to the terminal.
final class BrowsePainter {
    private let environment: [String: String]
    private let colorForbidden: Bool
    /// Where graphics were last written (item, screen row, and which
    /// drawing), to write them again only when one of these changes.
    private var graphicsPlacement: (ref: ItemRef, row: Int, graphics: Int)?
    /// Pixels where the terminal has a graphics protocol; else symbols, in
    /// colour unless colour is ruled out.
    lazy var graphicsChoice: GraphicsChoice = {
        let chosen = GraphicsChoice.choose(
            .auto, environment: environment, abilities: Imaging.abilities(environment: environment),
            colorForbidden: colorForbidden)
        guard chosen.mode == .symbols else { return chosen }
        // ncurses draws the colours: indices, which every colour terminal has.
        let colors: ColorDepth = colorForbidden ? .none : .indexed256
        return GraphicsChoice(mode: .symbols, colors: colors, tmuxPassthrough: false)
    }()

    init(environment: [String: String], colorForbidden: Bool) {
        self.environment = environment
        self.colorForbidden = colorForbidden
    }

    /// The whole screen painted again at the next frame, graphics too
    /// (Ctrl-L, a resize, the terminal given back).
    func repaintAll() {
        comics_terminal_repaint_all()
        forgetGraphics()
    }

    /// Graphics written again at the next frame.
    func forgetGraphics() {
        graphicsPlacement = graphicsPlacement.map { ($0.ref, -1, $0.graphics) }
    }

    /// The text as ncurses takes it, ended by a 0: waddnwstr reads the
    /// character after the count it is given (seen under AddressSanitizer,
    /// reading past a buffer that ended at a page).
    private static func wideCharacters(_ text: String) -> [UInt32] {
        var characters = text.unicodeScalars.map(\.value)
        characters.append(0)
        return characters
    }

    /// The frame for `state`, then any graphics over it.
    func draw(_ state: BrowseState, now: Date) {
        let lines = BrowseView.frame(state, now: now)
        comics_terminal_erase()
        for (row, line) in lines.enumerated() {
            let attributes: Int32 = switch line.style {
            case .plain: 0
            case .selected, .status: Int32(COMICS_TEXT_REVERSE)
            case .heading: Int32(COMICS_TEXT_BOLD)
            case .dim: Int32(COMICS_TEXT_DIM)
            }
            if let colors = line.colors {
                var column = 0
                for run in colors {
                    let scalars = Self.wideCharacters(run.text)
                    let pair = comics_terminal_color_pair(Int32(run.foreground), Int32(run.background))
                    let bold = (run.isBold ? Int32(COMICS_TEXT_BOLD) : 0) | (run.isItalic ? Int32(COMICS_TEXT_ITALIC) : 0)
                        | (run.isDim ? Int32(COMICS_TEXT_DIM) : 0) | (run.isHighlighted ? Int32(COMICS_TEXT_REVERSE) : 0)
                    scalars.withUnsafeBufferPointer { buffer in
                        comics_terminal_put_colored(Int32(row), Int32(column), buffer.baseAddress, Int32(buffer.count - 1), attributes | bold, pair)
                    }
                    column += DisplayWidth.of(run.text)
                }
                continue
            }
            let scalars = Self.wideCharacters(line.text)
            scalars.withUnsafeBufferPointer { buffer in
                comics_terminal_put(Int32(row), 0, buffer.baseAddress, Int32(buffer.count - 1), attributes)
            }
        }
        comics_terminal_show()
        placeGraphics(state)
    }

    /// Graphics are written after ncurses has drawn the frame, over the
    /// blank rows kept for them, when all of them are in view; kitty's are
    /// deleted first (they stay until deleted), and pixels written by the
    /// others are painted over by a full repaint when they leave.
    private func placeGraphics(_ state: BrowseState) {
        var wanted: (ref: ItemRef, row: Int, graphics: String)?
        if case let .detail(detail) = state.visible, !state.showsHelp, let row = detail.graphicsRow(height: state.listHeight),
           let graphics = detail.graphics {
            wanted = (detail.ref, row, graphics)
        }
        guard wanted?.ref != graphicsPlacement?.ref || wanted?.row != graphicsPlacement?.row
            || wanted?.graphics.hashValue != graphicsPlacement?.graphics
        else { return }
        if graphicsPlacement != nil {
            if graphicsChoice.mode == .kitty {
                writeToTerminal(graphicsChoice.wrapped("\u{1B}_Ga=d,q=2\u{1B}\\"))
            } else {
                comics_terminal_repaint_all()
                comics_terminal_show()
            }
        }
        graphicsPlacement = wanted.map { ($0.ref, $0.row, $0.graphics.hashValue) }
        if let wanted {
            writeToTerminal("\u{1B}7\u{1B}[\(wanted.row + 1);1H" + wanted.graphics + "\u{1B}8")
        }
    }

    /// Graphics go around ncurses, straight to the terminal; a terminal
    /// that went away ends browse at the next read.
    private func writeToTerminal(_ text: String) {
        try? OutputSink.write(text, to: STDOUT_FILENO)
    }
}

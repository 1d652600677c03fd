import BrowseCore
import CTerminal
import ComicsKit
import struct FoundationEssentials.Date
import Glibc

/// Paints frames through ncurses, and writes a picture's graphics
/// (kitty, iTerm2, sixel) around it, straight to the terminal.
final class BrowsePainter {
    private let environment: [String: String]
    private let colorForbidden: Bool
    /// Where graphics were last written (screen rows and columns, and
    /// which drawings), to write them again only when one of these changes.
    private var graphicsPlacement: [GraphicsPlacement]?

    /// Graphics written at a cell of the screen.
    struct GraphicsPlacement: Equatable {
        let row: Int
        let column: Int
        let graphics: String
    }
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
        graphicsPlacement = graphicsPlacement.map { _ in [GraphicsPlacement(row: -1, column: -1, graphics: "")] }
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
        let wanted = Self.graphics(state)
        guard wanted != graphicsPlacement ?? [] else { return }
        if graphicsPlacement?.isEmpty == false {
            if graphicsChoice.mode == .kitty {
                writeToTerminal(graphicsChoice.wrapped("\u{1B}_Ga=d,q=2\u{1B}\\"))
            } else {
                comics_terminal_repaint_all()
                comics_terminal_show()
            }
        }
        graphicsPlacement = wanted
        for placement in wanted {
            writeToTerminal("\u{1B}7\u{1B}[\(placement.row + 1);\(placement.column + 1)H" + placement.graphics + "\u{1B}8")
        }
    }

    /// The graphics the frame shows: a detail's picture, or the reader's
    /// pictures whose every row is in the page (or the one shown alone).
    static func graphics(_ state: BrowseState) -> [GraphicsPlacement] {
        guard !state.showsHelp else { return [] }
        switch state.visible {
        case let .detail(detail):
            guard let row = detail.graphicsRow(height: state.listHeight), let graphics = detail.graphics else { return [] }
            return [GraphicsPlacement(row: row, column: 0, graphics: graphics)]
        case let .reader(reader):
            let height = state.listHeight
            if let full = reader.fullScreenPicture(columns: state.columns, height: height) {
                guard case let .drawn(_, graphics?) = reader.pictures[full] else { return [] }
                return [GraphicsPlacement(row: 0, column: max(0, (state.columns - full.columns) / 2), graphics: graphics)]
            }
            guard let passage = reader.passage, reader.contents == nil, reader.marks == nil else { return [] }
            let page = Array(passage.lines.dropFirst(reader.topLine).prefix(height))
            return page.indices.compactMap { row in
                guard let picture = page[row].picture, picture.row == 0, row + picture.key.rows <= height,
                      case let .drawn(_, graphics?) = reader.pictures[picture.key]
                else { return nil }
                let column = max(0, (state.columns - passage.width) / 2) + max(0, (passage.width - picture.key.columns) / 2)
                return GraphicsPlacement(row: row, column: column, graphics: graphics)
            }
        case .list:
            return []
        }
    }

    /// Graphics go around ncurses, straight to the terminal; a terminal
    /// that went away ends browse at the next read.
    private func writeToTerminal(_ text: String) {
        try? OutputSink.write(text, to: STDOUT_FILENO)
    }
}

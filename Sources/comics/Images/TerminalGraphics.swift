import CImaging

/// The `--image-format` values: a graphics protocol, Unicode symbols, or
/// `auto` to use the best the terminal supports.
enum ImageFormat: String, CaseIterable {
    case auto, kitty, iterm2, sixel, symbols
}

/// How a picture is drawn: a terminal graphics protocol or symbols.
enum GraphicsMode: String {
    case symbols, sixels, kitty, iterm2

    /// The COMICS_DRAW_* constant of CImaging.h.
    var code: Int32 {
        switch self {
        case .symbols: Int32(COMICS_DRAW_SYMBOLS)
        case .sixels: Int32(COMICS_DRAW_SIXELS)
        case .kitty: Int32(COMICS_DRAW_KITTY)
        case .iterm2: Int32(COMICS_DRAW_ITERM2)
        }
    }
}

/// Colours for symbols.
enum ColorDepth: String {
    case truecolor, indexed256, indexed16, none

    /// The COMICS_COLORS_* constant of CImaging.h.
    var code: Int32 {
        switch self {
        case .truecolor: Int32(COMICS_COLORS_TRUECOLOR)
        case .indexed256: Int32(COMICS_COLORS_256)
        case .indexed16: Int32(COMICS_COLORS_16)
        case .none: Int32(COMICS_COLORS_NONE)
        }
    }
}

/// What chafa's terminal database says a terminal can do.
struct TerminalAbilities: OptionSet {
    let rawValue: UInt32
    static let kitty = TerminalAbilities(rawValue: UInt32(COMICS_TERMINAL_KITTY))
    static let iterm2 = TerminalAbilities(rawValue: UInt32(COMICS_TERMINAL_ITERM2))
    static let sixels = TerminalAbilities(rawValue: UInt32(COMICS_TERMINAL_SIXELS))
    static let truecolor = TerminalAbilities(rawValue: UInt32(COMICS_TERMINAL_TRUECOLOR))
    static let colors256 = TerminalAbilities(rawValue: UInt32(COMICS_TERMINAL_256_COLORS))
}

/// What to draw with, chosen once from the format asked for, the
/// environment (`TERM`, `TERM_PROGRAM`, `COLORTERM`, `KITTY_WINDOW_ID`,
/// `LC_TERMINAL`, `TMUX`) and chafa's terminal database.
struct GraphicsChoice: Equatable {
    let mode: GraphicsMode
    let colors: ColorDepth
    /// Inside tmux, graphics must be wrapped to reach the outer terminal.
    let tmuxPassthrough: Bool

    static func choose(
        _ format: ImageFormat, environment: [String: String], abilities: TerminalAbilities, colorForbidden: Bool
    ) -> GraphicsChoice {
        let mode: GraphicsMode = switch format {
        case .kitty: .kitty
        case .iterm2: .iterm2
        case .sixel: .sixels
        case .symbols: .symbols
        case .auto: detectedMode(environment, abilities)
        }
        return GraphicsChoice(
            mode: mode, colors: colorForbidden ? .none : colorDepth(environment, abilities),
            tmuxPassthrough: mode != .symbols && environment["TMUX"] != nil)
    }

    private static func detectedMode(_ environment: [String: String], _ abilities: TerminalAbilities) -> GraphicsMode {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || program == "ghostty" || abilities.contains(.kitty) {
            return .kitty
        }
        if ["iTerm.app", "WezTerm"].contains(program) || environment["LC_TERMINAL"] == "iTerm2" || abilities.contains(.iterm2) {
            return .iterm2
        }
        if abilities.contains(.sixels) || term.includes("sixel") || ["mlterm", "foot"].contains(where: term.hasPrefix) {
            return .sixels
        }
        return .symbols
    }

    private static func colorDepth(_ environment: [String: String], _ abilities: TerminalAbilities) -> ColorDepth {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if ["truecolor", "24bit"].contains(colorTerm) || abilities.contains(.truecolor) { return .truecolor }
        if abilities.contains(.colors256) || (environment["TERM"] ?? "").includes("256color") { return .indexed256 }
        return .indexed16
    }

    /// The drawn image as it must be written: tmux passes a sequence on
    /// only inside its own DCS, with every ESC doubled.
    func wrapped(_ drawn: String) -> String {
        guard tmuxPassthrough else { return drawn }
        return "\u{1B}Ptmux;" + drawn.replacingEvery("\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }
}

import ComicsKit

/// The picture under `show`: whether to draw one, and drawing it. A
/// picture that cannot be had or drawn is a one-line notice on stderr when
/// it was asked for (`--image`, `images=always`); with `images=auto` it was
/// only a nicety, and nothing is said, unless decoding ran out of time. The
/// item's text has been printed already and the command succeeds.
struct PictureOutput {
    let context: CommandContext

    /// `--image` or `--image-format` ask for it; otherwise the `images`
    /// setting decides (`auto`: when stdout is a terminal). Only tables draw.
    func isWanted() throws -> Bool {
        let asked = isAskedFor
        if asked && context.format != .table {
            throw ComicsError.usage(
                "pictures are drawn in table output only, not \(context.format.rawValue)",
                hint: "the record's image_url or cover_url says where the picture is")
        }
        guard context.format == .table else { return false }
        if asked { return true }
        switch try preference {
        case .always: return true
        case .never: return false
        case .auto: return context.terminal.isTerminal
        }
    }

    private var isAskedFor: Bool {
        context.arguments.has("image") || context.arguments.value("image-format") != nil
    }

    private var preference: ImagePreference {
        get throws { try context.catalog().imagePreference }
    }

    /// A problem with a picture is said only when the picture was asked for.
    private func tell(_ message: String) throws {
        if try isAskedFor || preference == .always { context.note(message) }
    }

    func format() throws -> ImageFormat {
        guard let text = context.arguments.value("image-format") else { return .auto }
        guard let format = ImageFormat(rawValue: text.lowercased()) else {
            throw ComicsError.usage(
                "unknown image format \(MessageText.quoted(text))",
                hint: "use one of: \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }

    func draw(_ item: CachedItem, format: ImageFormat) throws {
        let catalog = try context.catalog()
        let file: ImageFile
        switch catalog.image(of: item) {
        case let .unavailable(reason):
            return try tell(reason)
        case let .image(found):
            file = found
        }
        let terminal = context.terminal
        let environment = context.environment
        let choice = GraphicsChoice.choose(
            format, environment: environment, abilities: Imaging.abilities(environment: environment),
            colorForbidden: terminal.colorForbidden)
        guard let executable = CommandContext.executablePath() else {
            return try tell("cannot draw the picture of \(item.ref): cannot find comics' own executable")
        }
        let drawn: DrawnImage
        do {
            drawn = try PictureProcess.draw(
                file, columns: terminal.width ?? 80, rows: terminal.height.map { max(8, $0 - 2) } ?? 60,
                choice: choice, cellSize: terminal.cellSize ?? (width: 10, height: 20), environment: environment,
                executable: executable)
        } catch {
            catalog.discardImage(file)
            let message = "cannot draw the picture of \(item.ref): \(error)"
            // Seconds spent waiting deserve a word even when the picture was only a nicety.
            return error.isTimeOut ? context.note(message) : try tell(message)
        }
        var text = choice.wrapped(drawn.text)
        if !text.hasSuffix("\n") { text += "\n" }
        try context.write("\n" + text)
        if drawn.isAnimated {
            context.note("the picture of \(item.ref) is animated; this is its first frame")
        }
        if item.item["interactive"] == .bool(true) {
            context.note("\(item.ref) is interactive; this is its still picture, the real thing is at \(item.item.url)")
        }
    }
}

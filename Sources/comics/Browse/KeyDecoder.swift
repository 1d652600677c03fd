import BrowseCore

/// Turns the bytes a terminal sends into keys. A sequence may arrive split
/// across reads, so an incomplete one is kept for the next `feed`; a lone
/// ESC is the Escape key only once nothing follows it in time (`flush`).
/// Sequences it does not know, invalid UTF-8 and control bytes without a
/// meaning are dropped: nothing typed or pasted can inject anything.
struct KeyDecoder {
    private var pending: [UInt8] = []
    /// The longest sequence kept waiting; anything longer is garbage.
    private static let longestSequence = 32

    /// True when bytes wait for more (the caller then flushes after a short pause).
    var isWaiting: Bool { !pending.isEmpty }

    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        while !pending.isEmpty {
            switch Self.decode(pending[...]) {
            case let .key(key, length):
                if let key { keys.append(key) }
                pending.removeFirst(length)
            case .incomplete:
                guard pending.count > Self.longestSequence else { return keys }
                pending.removeFirst()
            }
        }
        return keys
    }

    /// What waits is all there will be: a lone ESC is Escape, the rest goes.
    mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    private enum Decoded {
        /// A key (nil: bytes that mean nothing) and how many bytes it took.
        case key(Key?, Int)
        case incomplete
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> Decoded {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B: return escape(bytes)
        case 0x0D, 0x0A: return .key(.enter, 1)
        case 0x7F, 0x08: return .key(.backspace, 1)
        case 0x09: return .key(.tab, 1)
        case 0x01...0x1A: return .key(.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x00..<0x20: return .key(nil, 1)
        case 0x20..<0x7F: return .key(.character(Character(Unicode.Scalar(first))), 1)
        default: return utf8(bytes)
        }
    }

    /// ESC [ … final (CSI), ESC O x (SS3: keypad application mode), or ESC
    /// and another key typed quickly after it: both keys (browse binds
    /// nothing to Alt).
    private static func escape(_ bytes: ArraySlice<UInt8>) -> Decoded {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return .incomplete }
        let second = bytes[start + 1]
        switch second {
        case UInt8(ascii: "["):
            var index = start + 2
            while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
            guard index < bytes.endIndex else { return .incomplete }
            let final = bytes[index]
            let length = index - start + 1
            guard (0x40...0x7E).contains(final) else { return .key(nil, length - 1) }
            let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
            return .key(csi(final: final, parameters: parameters), length)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return .incomplete }
            let key: Key? = switch bytes[start + 2] {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            case UInt8(ascii: "M"): .enter
            case UInt8(ascii: "P"): .f1
            default: nil
            }
            return .key(key, 3)
        case 0x1B:
            return .key(.escape, 1)
        default:
            return .key(.escape, 1)
        }
    }

    private static func csi(final: UInt8, parameters: String) -> Key? {
        if parameters.hasPrefix("<") { return mouse(final: final, parameters: parameters.dropFirst()) }
        let first = parameters.split(separator: ";").first.map(String.init) ?? ""
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return parameters.isEmpty ? .backTab : nil
        case UInt8(ascii: "~"):
            switch first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            case "11": return .f1
            default: return nil
            }
        default: return nil
        }
    }

    /// SGR mouse reports, `CSI < button ; column ; row M` (m: released):
    /// the wheel, and the left button pressed; nothing else.
    private static func mouse(final: UInt8, parameters: Substring) -> Key? {
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3, final == UInt8(ascii: "M"), numbers[1] >= 1, numbers[2] >= 1 else { return nil }
        switch numbers[0] {
        case 0: return .click(row: numbers[2] - 1, column: numbers[1] - 1)
        case 64: return .wheelUp
        case 65: return .wheelDown
        default: return nil
        }
    }

    /// One UTF-8 character; a byte that cannot start or continue one is dropped.
    private static func utf8(_ bytes: ArraySlice<UInt8>) -> Decoded {
        let first = bytes[bytes.startIndex]
        let length = switch first {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
        guard length > 0 else { return .key(nil, 1) }
        guard bytes.count >= length else {
            let continuation = bytes.dropFirst().allSatisfy { (0x80...0xBF).contains($0) }
            return continuation ? .incomplete : .key(nil, 1)
        }
        let sequence = Array(bytes.prefix(length))
        var iterator = sequence.makeIterator()
        var decoder = UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator), iterator.next() == nil else { return .key(nil, 1) }
        guard scalar.properties.generalCategory != .control, scalar.properties.generalCategory != .format else {
            return .key(nil, length)
        }
        return .key(.character(Character(scalar)), length)
    }
}

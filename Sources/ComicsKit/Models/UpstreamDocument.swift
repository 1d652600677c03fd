/// Why a document from upstream could not be read as what it should be.
public struct DocumentError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// Reading upstream JSON documents, for every source's decoder.
enum UpstreamDocument {
    /// The body as a JSON object, or why it is not one.
    static func object(_ body: [UInt8]) throws(DocumentError) -> JSONValue {
        let document: JSONValue
        do {
            document = try JSONValue.parse(body)
        } catch {
            throw DocumentError(reason: "not JSON (\(error))")
        }
        guard case .object = document else { throw DocumentError(reason: "expected a JSON object") }
        return document
    }
}

extension JSONValue {
    /// A whole number, also when upstream sent it as text (`"353"`).
    var lenientIntValue: Int? {
        switch self {
        case let .int(number): number
        case let .string(text): Int(text)
        default: nil
        }
    }
}

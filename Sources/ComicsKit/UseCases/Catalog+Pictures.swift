/// What fetching a book's pictures came to.
public struct PictureFetch: Equatable, Sendable {
    public var fetched = 0
    /// Why pictures were skipped for good, one line each.
    public var skipped: [String] = []
    /// Pictures still missing (failed or never tried), and the failure
    /// that stopped the fetch.
    public var missing = 0
    public var failure: ComicsError?

    public init() {}
}

extension Catalog {
    /// Fetches the pictures of the text's edition it does not keep yet,
    /// one at a time, within the book's caps. The first failure of the
    /// network or upstream stops the run (a host that hangs costs one
    /// timeout, not one a picture); what is missing is asked again by the
    /// next `get`.
    public func fetchPictures(_ ref: ItemRef, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> PictureFetch {
        var outcome = PictureFetch()
        let pictures = try store.pictures(ref)
        let wanted = pictures.filter { if case .wanted = $0.state { true } else { false } }
        guard !wanted.isEmpty else { return outcome }
        guard mode != .offline, let http = images?.http else {
            outcome.missing = wanted.count
            outcome.failure = .network("\(wanted.count == 1 ? "1 picture is" : "\(wanted.count) pictures are") not fetched, and --offline forbids the network")
            return outcome
        }
        var keptBytes = pictures.reduce(0) { total, picture in
            if case let .kept(_, _, bytes) = picture.state { total + bytes } else { total }
        }
        for (index, picture) in wanted.enumerated() {
            progress?(index + 1, wanted.count)
            let upstream = Upstream(host: URLOrigin(picture.url)?.host ?? "the edition's host")
            func skip(_ reason: String) throws {
                outcome.skipped.append("\(picture.path): \(reason)")
                try store.updatePicture(ref, path: picture.path, state: .skipped(reason), body: nil)
            }
            guard keptBytes < TextPictureRules.maximumBytesPerBook else {
                try skip("past the \(TextPictureRules.maximumBytesPerBook / 1_048_576) MiB of pictures a book keeps")
                continue
            }
            let response: HTTPResponse
            switch http.get(HTTPRequest(url: picture.url)) {
            case let .failure(error) where error.reason == .tooLarge:
                try skip("larger than \(TextPictureRules.maximumBytesPerPicture / 1_048_576) MiB")
                continue
            case let .failure(error):
                outcome.failure = upstream.failure(error)
            case let .success(answer):
                response = answer
                if response.status == 404 || response.status == 410 {
                    try skip("not on \(upstream.host) (HTTP \(response.status))")
                    continue
                }
                guard response.status == 200 else {
                    outcome.failure = upstream.unexpectedStatus(response.status)
                    break
                }
                guard response.body.count <= TextPictureRules.maximumBytesPerPicture else {
                    try skip("larger than \(TextPictureRules.maximumBytesPerPicture / 1_048_576) MiB")
                    continue
                }
                let header: ImageHeader
                do {
                    header = try ImageHeader.inspect(response.body)
                } catch {
                    try skip("\(error)")
                    continue
                }
                guard header.width * header.height <= TextPictureRules.maximumPixels else {
                    try skip("\(header.width)×\(header.height) pixels, past the \(TextPictureRules.maximumPixels / 1_000_000) million a picture may have")
                    continue
                }
                guard keptBytes + response.body.count <= TextPictureRules.maximumBytesPerBook else {
                    try skip("past the \(TextPictureRules.maximumBytesPerBook / 1_048_576) MiB of pictures a book keeps")
                    continue
                }
                try store.updatePicture(
                    ref, path: picture.path, state: .kept(width: header.width, height: header.height, bytes: response.body.count),
                    body: response.body)
                keptBytes += response.body.count
                outcome.fetched += 1
                continue
            }
            let failure = outcome.failure?.message
            try store.updatePicture(ref, path: picture.path, state: .wanted(failure: failure), body: nil)
            outcome.missing = wanted.count - index
            break
        }
        return outcome
    }

    /// A kept picture of a book's text, its header checked again (the
    /// database is read as hostile as the network).
    public func textPicture(_ ref: ItemRef, path: String) throws -> ImageOutcome {
        guard let bytes = try store.pictureBytes(ref, path: path) else {
            return .unavailable("the picture \(path) is not kept; 'comics get \(ref)' fetches it")
        }
        do {
            let header = try ImageHeader.inspect(bytes)
            guard header.width * header.height <= TextPictureRules.maximumPixels else {
                return .unavailable("the picture \(path) is \(header.width)×\(header.height) pixels, past the cap")
            }
            return .image(ImageFile(url: path, bytes: bytes, header: header))
        } catch {
            return .unavailable("the picture \(path) cannot be drawn: \(error)")
        }
    }

    /// The sizes of the kept pictures among `paths`: the reader lays out
    /// their rows by them.
    public func pictureSizes(_ ref: ItemRef, paths: [String]) throws -> [String: PictureSize] {
        try store.pictureSizes(ref, paths: paths)
    }
}

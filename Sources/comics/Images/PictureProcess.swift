import ComicsKit
import Glibc

/// Pictures are drawn in a child process (`comics __draw-picture`): they
/// come from outside, and a file built to decode for minutes (a
/// progressive JPEG whose scans repeat, a GIF of countless frames) must
/// cost seconds. The child limits its own CPU time, the parent kills it at
/// a wall-clock deadline, and nothing the decoders print reaches the
/// terminal: only the drawing comes back.
enum PictureProcess {
    /// The first argument that makes `comics` the child.
    static let command = "__draw-picture"
    /// What any real comic or cover takes is a fraction of a second.
    static let secondsAllowed = 5
    /// The child's address space: the largest picture the header check
    /// lets through, decoded, and its drawing take about 400 MiB; a file
    /// that unpacks into more (frames of a GIF decoded together) fails to
    /// allocate and ends the child, not the machine's memory.
    static let bytesAllowed = 1 << 30
    /// A drawing larger than this (a wall of a terminal in kitty graphics
    /// is tens of megabytes) is not drawn.
    static let maximumDrawingBytes = 256 << 20

    private enum Reply: UInt8 {
        case still = 0x53, animated = 0x41, failed = 0x45
    }

    /// Draws `image` through a child, or says in one line why it was not drawn.
    static func draw(
        _ image: ImageFile, columns: Int, rows: Int, choice: GraphicsChoice, cellSize: (width: Int, height: Int),
        environment: [String: String], executable: String
    ) throws(ImagingError) -> DrawnImage {
        guard let toChild = DescriptorPipe(), let fromChild = DescriptorPipe() else {
            throw ImagingError("cannot start drawing: \(String(cString: strerror(errno)))")
        }
        let arguments = [
            executable, command, image.header.format.rawValue, String(columns), String(rows), choice.mode.rawValue,
            choice.colors.rawValue, String(cellSize.width), String(cellSize.height),
        ]
        let child = spawn(arguments, stdin: toChild.readEnd, stdout: fromChild.writeEnd, environment: environment)
        toChild.closeReadEnd()
        fromChild.closeWriteEnd()
        DescriptorPipe.makeNonBlocking(toChild.writeEnd)
        DescriptorPipe.makeNonBlocking(fromChild.readEnd)
        guard let child else { throw ImagingError("cannot start drawing: \(String(cString: strerror(errno)))") }
        let deadline = monotonicSeconds() + Double(secondsAllowed) + 1
        let exchanged = exchange(image.bytes, to: toChild, from: fromChild, until: deadline)
        if case .failure = exchanged { kill(child, SIGKILL) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let reply = try exchanged.get()
        guard let kind = reply.first.flatMap(Reply.init(rawValue:)) else {
            let signal = status & 0x7F
            guard signal == SIGXCPU else { throw ImagingError("the decoder failed") }
            throw ImagingError.timeOut
        }
        let text = String(decoding: reply.dropFirst(), as: UTF8.self)
        if kind == .failed { throw ImagingError(text) }
        return DrawnImage(text: text, isAnimated: kind == .animated)
    }

    /// The child's side: the picture on stdin, the reply on stdout.
    static func runChild(_ arguments: [String], environment: [String: String]) -> Int32 {
        let seconds = rlim_t(secondsAllowed)
        var limit = rlimit(rlim_cur: seconds, rlim_max: seconds + 1)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
        // A sanitizer's runtime reserves terabytes of shadow memory up front.
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil,
           dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil {
            var memory = rlimit(rlim_cur: rlim_t(bytesAllowed), rlim_max: rlim_t(bytesAllowed))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory)
        }
        let numbers = [1, 2, 5, 6].compactMap { arguments.indices.contains($0) ? Int(arguments[$0]) : nil }
        guard arguments.count == 7, numbers.count == 4, let format = ImageHeader.Format(rawValue: arguments[0]),
              let mode = GraphicsMode(rawValue: arguments[3]), let colors = ColorDepth(rawValue: arguments[4]),
              let bytes = readAll(STDIN_FILENO, limit: HTTPSettings().maxBodyBytes)
        else { return reply(.failed, "the picture could not be handed over") }
        do {
            guard try ImageHeader.inspect(bytes).format == format else {
                return reply(.failed, "the picture changed on its way")
            }
        } catch {
            return reply(.failed, String(describing: error))
        }
        do {
            let drawn = try Imaging.draw(
                bytes, format: format, columns: numbers[0], rows: numbers[1], mode: mode,
                colors: colors, cellSize: (numbers[2], numbers[3]), environment: environment)
            return reply(drawn.isAnimated ? .animated : .still, drawn.text)
        } catch {
            return reply(.failed, error.description)
        }
    }

    private static func reply(_ kind: Reply, _ text: String) -> Int32 {
        (try? OutputSink.write(String(Unicode.Scalar(kind.rawValue)) + text, to: STDOUT_FILENO)) != nil ? 0 : 1
    }

    /// Sends the picture and reads the child's whole reply, at once (the
    /// child reads all before it answers, but a pipe holds only 64 KiB);
    /// fails when the child did not finish by `deadline` or said more than
    /// a drawing can be.
    private static func exchange(
        _ picture: [UInt8], to child: DescriptorPipe, from reply: DescriptorPipe, until deadline: Double
    ) -> Result<[UInt8], ImagingError> {
        var sent = 0
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return .failure(.timeOut) }
            if sent == picture.count { child.closeWriteEnd() }
            var waiting = [pollfd(fd: reply.readEnd, events: Int16(POLLIN), revents: 0)]
            if sent < picture.count { waiting.append(pollfd(fd: child.writeEnd, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&waiting, nfds_t(waiting.count), Int32(min(remaining * 1000, 60_000)) + 1)
            guard ready > 0 else { continue }
            if waiting.count > 1, waiting[1].revents != 0 {
                let count = picture[sent...].withUnsafeBytes { write(child.writeEnd, $0.baseAddress, $0.count) }
                if count > 0 {
                    sent += count
                } else if errno != EAGAIN && errno != EINTR {
                    // The child stopped reading: its reply says why.
                    sent = picture.count
                }
            }
            guard waiting[0].revents != 0 else { continue }
            let count = read(reply.readEnd, &chunk, chunk.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count >= 0 else { return .failure(ImagingError("the decoder's reply broke off")) }
            if count == 0 { return .success(received) }
            received += chunk[0..<count]
            guard received.count <= maximumDrawingBytes + 1 else {
                return .failure(ImagingError("the drawing is larger than \(maximumDrawingBytes >> 20) MiB"))
            }
        }
    }

    private static func spawn(_ arguments: [String], stdin: Int32, stdout: Int32, environment: [String: String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO)
        // GLib's warnings quote the file; they must not reach the terminal raw.
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        closeInheritedDescriptors(&actions)
        var pid = pid_t()
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        let status = withCStrings(arguments) { argv in
            withCStrings(environmentLines) { envp in posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) }
        }
        guard status == 0 else {
            errno = status
            return nil
        }
        return pid
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

private func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(descriptor, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { return bytes }
        bytes += chunk[0..<count]
        guard bytes.count <= limit else { return nil }
    }
}

import AlmanacCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Changes a local `.ics` file so that nothing is lost: under an advisory lock (`.NAME.lock`
/// beside it, held across read, change and write, so two writers take turns), the new text goes
/// to a temporary file in the same folder, is flushed to disk (fsync), and replaces the file by
/// rename, which is atomic: a reader or a crash sees the old file or the new one, never half.
/// Components the change does not touch keep their bytes.
enum LocalCalendarFile {
    /// The largest file rewritten (a calendar is read whole into memory to be rewritten).
    static let maxBytes = 64 << 20

    /// Reads the calendar at `path` (an empty one when it does not exist and `create` is set),
    /// lets `change` edit it, and writes it back when the text changed.
    static func modify<T>(
        path: String, create: Bool, name: String, _ change: (inout RawCalendar) throws -> T
    ) throws -> T {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let folder = (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        let lock = try Lock(path: folder + "/." + base + ".lock", name: name)
        defer { lock.release() }
        removeStaleTemporaries(folder: folder, base: base)

        var mode: mode_t = 0o644
        let original: String
        var info = stat()
        if stat(target, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw AlmanacError.configuration(
                    "calendar '\(name)': \(path) is not a regular file", suggestion: "point ics at an .ics file")
            }
            guard Int(info.st_size) <= maxBytes else {
                throw AlmanacError.usage(
                    "calendar '\(name)': the file is over \(maxBytes >> 20) MB; Almanac does not rewrite it",
                    suggestion: "write to a smaller calendar file")
            }
            mode = info.st_mode & 0o7777
            guard let data = FileManager.default.contents(atPath: target) else {
                throw AlmanacError.configuration(
                    "calendar '\(name)': \(path) could not be read", suggestion: "check the file's permissions")
            }
            // Rewriting text that is not UTF-8 would change bytes of components we never touched.
            guard let text = String(validating: data, as: UTF8.self) else {
                throw AlmanacError.usage(
                    "calendar '\(name)': the file is not UTF-8 text; Almanac does not rewrite it",
                    suggestion: "convert it to UTF-8 (RFC 5545 requires it) or write to another calendar")
            }
            original = text
        } else if create {
            original = RawCalendar.empty
        } else {
            throw AlmanacError.configuration(
                "calendar '\(name)': \(path) does not exist", suggestion: "create it or fix ics in [calendars.\(name)]")
        }
        guard var calendar = RawCalendar(original) else {
            throw AlmanacError.usage(
                "calendar '\(name)': the file is not a well-formed iCalendar file (unbalanced BEGIN/END); "
                    + "left as it is",
                suggestion: "repair it or write to another calendar")
        }
        let result = try change(&calendar)
        let text = calendar.text
        if text != original || info.st_size == 0 {
            try replace(target, with: Data(text.utf8), mode: mode, name: name)
        }
        return result
    }

    /// Writes `data` to a temporary file beside `target`, flushes it, renames it over `target`
    /// and flushes the folder (so the rename itself survives a power cut).
    static func replace(_ target: String, with data: Data, mode: mode_t, name: String) throws {
        let folder = (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        let temporary = "\(folder)/.\(base).almanac-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure("could not create a file in \(folder)", name: name) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("could not write the new file", name: name)
                    }
                    offset += written
                }
            }
            // The umask may have narrowed the mode open() gave; the file keeps the old one's.
            _ = fchmod(descriptor, mode)
            guard fsync(descriptor) == 0 else {
                throw failure("could not flush the new file to disk", name: name)
            }
            closed = true
            guard close(descriptor) == 0 else { throw failure("could not close the new file", name: name) }
            pauseBeforeRename(temporary)
            guard rename(temporary, target) == 0 else { throw failure("could not replace the file", name: name) }
        } catch {
            unlink(temporary)
            throw error
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Fault tests only (`ALMANAC_TEST_PAUSE_BEFORE_RENAME=FILE`): the new file is complete and not
    /// yet renamed; say so by creating FILE, then wait (at most 30 s) while it exists, so a test
    /// can kill the writer exactly here.
    private static func pauseBeforeRename(_ temporary: String) {
        guard let marker = getenv("ALMANAC_TEST_PAUSE_BEFORE_RENAME").map({ String(cString: $0) }), !marker.isEmpty
        else { return }
        _ = FileManager.default.createFile(atPath: marker, contents: Data(temporary.utf8))
        for _ in 0..<300 where FileManager.default.fileExists(atPath: marker) { usleep(100_000) }
    }

    /// Temporary files a writer killed before its rename left behind: ours to remove, as the
    /// lock is held (no writer is between its write and rename now).
    private static func removeStaleTemporaries(folder: String, base: String) {
        let prefix = ".\(base).almanac-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(folder + "/" + name)
        }
    }

    private static func failure(_ what: String, name: String) -> AlmanacError {
        let reason = String(cString: strerror(errno))
        return AlmanacError.configuration(
            "calendar '\(name)': \(what) (\(reason)); the calendar is unchanged",
            suggestion: "free disk space or fix the folder's permissions, then try again")
    }

    /// An exclusive `flock` on a lock file, waited for at most 10 s.
    struct Lock {
        let descriptor: Int32

        init(path: String, name: String) throws {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw LocalCalendarFile.failure("could not open the lock file \(path)", name: name)
            }
            for attempt in 0...200 {
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { break }
                guard attempt < 200, errno == EWOULDBLOCK || errno == EINTR else {
                    close(descriptor)
                    throw AlmanacError.configuration(
                        "calendar '\(name)': another program has held the calendar's lock for 10 s; nothing written",
                        suggestion: "try again in a moment")
                }
                usleep(50_000)
            }
            self.descriptor = descriptor
        }

        func release() {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}

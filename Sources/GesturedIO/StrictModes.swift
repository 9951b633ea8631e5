import Glibc

/// Who may own and write a file whose contents decide what the daemon does (its configuration,
/// stroke-template files), and the directories on the path to it: sshd's StrictModes
/// (`safe_path` in OpenSSH's misc.c). Whoever may write the configuration controls the actions,
/// which run as the service user (group `input`, `/dev/uinput`), or as root when the daemon is
/// started by hand.
///
/// The rule, checked on the file as opened (`fstat`) and on every directory from it up to `/`,
/// both along the path as given and along its canonical path (symlinks resolved, as sshd
/// checks):
/// - the file and each directory are owned by root or by a `trustedOwners` uid (the process's
///   effective uid: the daemon's user);
/// - none is writable by its group or by others (`mode & 022 == 0`).
///
/// One exception sshd does not make (it refuses any group- or world-writable directory, `/tmp`
/// included): a directory owned by root with the sticky bit (`/tmp`, mode 1777) is accepted
/// when the entry in it on the path is owned by root or a trusted uid. The sticky bit lets only
/// an entry's owner (or the directory's, root) rename or remove it, so nobody else can swap it
/// (the reasoning of `fs.protected_symlinks`).
public struct StrictModes: Hashable, Sendable {
    /// Owners accepted beside root.
    public var trustedOwners: [uid_t]

    public init(trustedOwners: [uid_t] = [geteuid()]) { self.trustedOwners = trustedOwners }

    private func trusts(_ uid: uid_t) -> Bool { uid == 0 || trustedOwners.contains(uid) }

    /// Throws `.insecure` when the file (`status`, from the descriptor it is read from) or a
    /// directory on its path breaks the rule, naming it, its owner and mode, and the fix.
    public func check(_ path: String, status: stat) throws(FileReadError) {
        let absolute = path.hasPrefix("/") ? path : Self.currentDirectory() + "/" + path
        var canonical = absolute
        if let resolved = try? syscall("realpath", path: absolute, { realpath(absolute, nil) }) {
            canonical = String(cString: resolved)
            free(resolved)
        }
        var link = stat()
        let isLink = (try? syscall("lstat", path: absolute, onInterrupt: .retry, { lstat(absolute, &link) })) != nil
            && link.st_mode & S_IFMT == S_IFLNK
        try checkEntry(isLink ? "\(path) (a symlink to \(canonical))" : path, status: status, isFile: true, of: path)
        try checkDirectories(above: absolute, entryOwner: isLink ? link.st_uid : status.st_uid, of: path)
        if canonical != absolute { try checkDirectories(above: canonical, entryOwner: status.st_uid, of: path) }
    }

    private func checkEntry(_ label: String, status: stat, isFile: Bool, entryOwner: uid_t? = nil,
                            of path: String? = nil) throws(FileReadError) {
        let mode = status.st_mode & 0o7777
        // What the fix names: the file (chown and chmod follow a symlink) or the directory.
        let name = isFile ? path ?? label : label
        let what = isFile ? label : "\(label), a directory on the path to \(path ?? label),"
        guard trusts(status.st_uid) else {
            throw .insecure(path: path ?? name, reason: "\(what) is owned by uid \(status.st_uid) (mode \(Self.octal(mode))); "
                            + "only root\(trustedOwners.contains(where: { $0 != 0 }) ? " or uid \(trustedOwners.filter { $0 != 0 }.map { String($0) }.joined(separator: ", "))" : "") may own it: chown root \(name)")
        }
        guard mode & 0o022 != 0 else { return }
        if !isFile, mode & S_ISVTX != 0, status.st_uid == 0, let entryOwner, trusts(entryOwner) { return }
        let who = mode & 0o020 != 0 && mode & 0o002 != 0 ? "its group and others" : mode & 0o020 != 0 ? "its group" : "others"
        throw .insecure(path: path ?? name, reason: "\(what) is writable by \(who) (owner uid \(status.st_uid), mode \(Self.octal(mode))); "
                        + "only its owner may write it: chmod go-w \(name)")
    }

    /// Every directory from `path`'s parent up to `/`.
    private func checkDirectories(above path: String, entryOwner: uid_t, of original: String) throws(FileReadError) {
        var child = path, owner = entryOwner
        while child != "/" {
            let directory = Self.parent(of: child)
            var status = stat()
            do { try syscall("stat", path: directory, onInterrupt: .retry) { stat(directory, &status) } } catch { throw .system(error) }
            try checkEntry(directory, status: status, isFile: false, entryOwner: owner, of: original)
            child = directory
            owner = status.st_uid
        }
    }

    /// `/a/b/c` → `/a/b`; `/a` → `/`. Repeated and trailing slashes are one.
    static func parent(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "/" }
        var parent = text[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    private static func currentDirectory() -> String {
        guard let cwd = try? syscall("getcwd", { getcwd(nil, 0) }) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

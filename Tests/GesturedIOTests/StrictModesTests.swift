@testable import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// Configuration and template files only their owner may write (security review, round two,
/// fault 3): a file writable by others, one owned by an untrusted uid (reached directly or
/// through a symlink), a writable directory on the path, are refused with the file, its owner,
/// its mode and the fix; `/tmp`'s sticky bit is accepted for a trusted entry (`StrictModes`).
@Suite(.serialized) struct StrictModesTests {
    static func read(_ path: String, _ modes: StrictModes = StrictModes()) -> String? {
        do { _ = try readRegularFile(path: path, limit: 1 << 20, strictModes: modes); return nil } catch { return "\(error)" }
    }

    @Test func aFileWritableByItsOwnerOnlyIsReadInATmpDirectory() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let file = try directory.write("g.json5", "{}")
        #expect(chmod(file, 0o644) == 0)
        // /tmp is world-writable with the sticky bit, root's: accepted for a directory we own.
        #expect(Self.read(file) == nil)
        #expect(Self.read(file, StrictModes(trustedOwners: [getuid()])) == nil)
    }

    @Test(arguments: [(0o666 as mode_t, "its group and others"), (0o646, "others"), (0o664, "its group")])
    func aFileOthersMayWriteIsRefusedWithTheFix(mode: mode_t, who: String) throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let file = try directory.write("g.json5", "{}")
        #expect(chmod(file, mode) == 0)
        let octal = "0" + String(mode, radix: 8)
        #expect(Self.read(file) == "\(file): refused: \(file) is writable by \(who) (owner uid \(getuid()), mode \(octal)); "
                + "only its owner may write it: chmod go-w \(file)")
    }

    @Test func aWritableDirectoryOnThePathIsRefused() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let file = try directory.write("g.json5", "{}")
        #expect(chmod(directory.path, 0o777) == 0)
        #expect(Self.read(file) == "\(file): refused: \(directory.path), a directory on the path to \(file), is writable by its group "
                + "and others (owner uid \(getuid()), mode 0777); only its owner may write it: chmod go-w \(directory.path)")
        // The sticky bit is enough only in a directory root owns, for an entry a trusted uid owns.
        #expect(chmod(directory.path, 0o1777) == 0)
        #expect((Self.read(file) == nil) == (getuid() == 0))
    }

    /// The review's case: a symlink at the configuration path to a file an untrusted user owns
    /// (and may write). The owner is untrusted: as root, the file is given to nobody; otherwise
    /// the check trusts no one but root.
    @Test func aSymlinkToAFileOfAnUntrustedOwnerIsRefused() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let elsewhere = try TestEnvironment.TemporaryDirectory()
        let target = try elsewhere.write("user.json5", "{}")
        let untrusted: StrictModes
        if getuid() == 0 {
            #expect(chown(target, 65534, 65534) == 0)
            untrusted = StrictModes()
        } else {
            untrusted = StrictModes(trustedOwners: [])
        }
        let link = directory.path + "/g.json5"
        #expect(symlink(target, link) == 0)
        let owner = getuid() == 0 ? 65534 : getuid()
        let refusal = try #require(Self.read(link, untrusted))
        #expect(refusal.hasPrefix("\(link): refused: \(link) (a symlink to \(target)) is owned by uid \(owner) (mode 0644); only root"), "\(refusal)")
        #expect(refusal.hasSuffix("may own it: chown root \(link)"), "\(refusal)")
        var modes = untrusted
        modes.trustedOwners.append(owner)
        #expect(Self.read(link, modes) == nil)
    }

    @Test(arguments: [("/a/b/c", "/a/b"), ("/a", "/"), ("/", "/"), ("/a//b/", "/a"), ("a", "/")])
    func parents(path: String, parent: String) {
        #expect(StrictModes.parent(of: path) == parent)
    }
}

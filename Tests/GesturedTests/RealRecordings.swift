import FoundationEssentials
import GesturedConfig
import GesturedCore
import Testing

/// The fixtures and how to replay them.
enum RealRecordings {
    struct Recording: CustomTestStringConvertible, Sendable {
        var name: String
        var events: String
        var description: String
        var testDescription: String { name }

        func replay(format: LineFormat = .text, touches: Bool = false, failed: Bool = false,
                    configuration: Configuration = ConfigLoader.defaultConfiguration()) throws -> [String] {
            let events = try EvemuRecording.parse(try RealRecordings.read(self.events), sysname: "event0")
            let description = try EvemuRecording.parse(try RealRecordings.read(self.description), sysname: "event0")
            let device = try #require(description.description).deviceDescription(sysname: "event0")
            var lines: [String] = []
            try Replay.run(device: device, events: events.events, configuration: configuration,
                           options: Replay.Options(format: format, touches: touches, failed: failed)) { lines.append($0) }
            return lines
        }
    }

    static var root: String {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)   // Tests/GesturedTests/ReplayGoldenTests.swift
        return components.joined(separator: "/")
    }

    static var goldenDirectory: String { root + "/Tests/Fixtures/golden" }

    static var directory: String? {
        let path = root + "/../shared/fixtures/evemu-devices"
        return (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil ? path : nil
    }

    /// `X.events` with its description: the `.desc` of the longest device name it starts with.
    static var all: [Recording] {
        guard let directory, let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let descs = files.filter { $0.hasSuffix(".desc") }.map { String($0.dropLast(5)) }
        return files.filter { $0.hasSuffix(".events") }.sorted().compactMap { file in
            guard let device = descs.filter({ file.hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return nil }
            return Recording(name: String(file.dropLast(7)), events: directory + "/" + file,
                             description: directory + "/" + device + ".desc")
        }
    }

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot read \(path)" }
    }

    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(path: path) }
        return String(decoding: data, as: UTF8.self)
    }
}

import GesturedTestSupport
import Glibc
import Testing

/// `gestured mqtt`'s refusals before it connects anywhere: no `mqtt` key, a bad one (located as
/// every configuration error), a password file others may read.
@Suite struct MQTTCommandTests {
    @Test func withoutAnMQTTKeyTheBridgeSaysWhatIsMissing() throws {
        let r = try CommandLineTests().run(["mqtt", "--config", "$DIR/c.json5", "--socket", "$DIR/s"], files: ["c.json5": "{}"])
        #expect(r.status == 78)
        #expect(r.stderr == "<3>$DIR/c.json5: no mqtt key: nothing says which broker to use (docs/MQTT.md)\n")
    }

    @Test func aBadMQTTKeyIsAConfigurationError() throws {
        let r = try CommandLineTests().run(["mqtt", "--config", "$DIR/c.json5", "--socket", "$DIR/s"],
                                           files: ["c.json5": #"{ mqtt: { broker: "http://b" } }"#])
        #expect(r.status == 78)
        #expect(r.stderr == #"<3>$DIR/c.json5:1:19: mqtt.broker: expected "mqtt://HOST[:PORT]" or "mqtts://HOST[:PORT]", found "http://b""# + "\n")
    }

    @Test func aPasswordFileOthersMayReadIsRefused() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-mqtt-password")
        let password = try directory.write("password", "secret\n")
        #expect(chmod(password, 0o644) == 0)
        let config = try directory.write("c.json5", #"{ mqtt: { broker: "mqtt://127.0.0.1:1", username: "u", passwordFile: "\#(password)" } }"#)
        let done = try Subprocess.run(CommandLineTests.gestured, ["mqtt", "--config", config, "--socket", directory.path + "/s"],
                                      in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(done.termination == .exited(78))
        #expect(done.stderr == "<3>mqtt.passwordFile: \(password): refused: readable by others (mode 644); chmod o-r \(password)\n")
    }
}

import Testing
@testable import GesturedCore

struct ControlRequestTests {
    func parse(_ s: String) -> String {
        do { return "\(try ClientRequest.parse(s[...]))" } catch { return "error \(error.command): \(error.message)" }
    }

    @Test func validControlRequests() throws {
        #expect(try ClientRequest.parse("hide button") == .control(.view("button", .hidden(true))))
        #expect(try ClientRequest.parse("show button") == .control(.view("button", .hidden(false))))
        #expect(try ClientRequest.parse("disable map") == .control(.view("map", .userInteractionEnabled(false))))
        #expect(try ClientRequest.parse("enable map") == .control(.view("map", .userInteractionEnabled(true))))
        #expect(try ClientRequest.parse("frame map 10 -20.5 300 1e2") ==
                .control(.view("map", .frame(Rect(x: 10, y: -20.5, width: 300, height: 100)))))
        #expect(try ClientRequest.parse("layout night") == .control(.layout("night")))
        #expect(try ClientRequest.parse("layout night operator") == .control(.layout("night", screen: "operator")))
        #expect(try ClientRequest.parse("rotate event* 270") == .control(.rotate(device: "event*", .threeQuarters)))
        #expect(try ClientRequest.parse("hide button").command == "hide")
        #expect(try ClientRequest.parse("frame a 0 0 0 0").command == "frame")
    }

    @Test func badControlRequestsSayWhatIsWrong() {
        #expect(parse("hide") == "error hide: hide takes one argument: a view id")
        #expect(parse("hide a b") == "error hide: hide takes one argument: a view id")
        #expect(parse("hide ") == "error hide: hide has an empty argument")
        #expect(parse("frame map 1 2 3") == "error frame: frame takes a view id and 4 numbers: X Y WIDTH HEIGHT")
        #expect(parse("frame map 1 2 nan 4") == "error frame: 'nan' is not a finite number")
        #expect(parse("frame map 1 2 inf 4") == "error frame: 'inf' is not a finite number")
        #expect(parse("frame map 0x10 2 3 4") == "error frame: '0x10' is not a finite number")
        #expect(parse("frame map 1 2 -3 4") == "error frame: width and height must be at least 0")
        #expect(parse("layout") == "error layout: layout takes a layout name and optionally a screen id")
        #expect(parse("rotate event5 45") == "error rotate: rotation must be 0, 90, 180 or 270, found '45'")
        #expect(parse("rotate event5") == "error rotate: rotate takes a device and 0, 90, 180 or 270")
    }

    @Test func controlRequestsDoNotChangeTheSubscription() throws {
        var subscription = ClientSubscription()
        subscription.apply(try ClientRequest.parse("hide button"))
        #expect(subscription == ClientSubscription())
    }

    @Test func authorization() {
        func allows(_ uid: UInt32, _ groups: [UInt32]) -> Bool {
            ControlPolicy.allows(uid: uid, peerGroups: groups, daemonUID: 500, uids: [1000], groupIDs: [42])
        }
        #expect(allows(0, [0]))          // root
        #expect(allows(500, [500]))      // the daemon's own user
        #expect(allows(1000, [1000]))    // listed uid
        #expect(allows(1001, [1001, 42])) // a supplementary group listed
        #expect(!allows(65534, [65534]))
    }
}

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

    /// The rights decision as a table: credentials and configuration in, the set of rights out.
    @Test func rightsDecision() {
        let all = Set(Right.allCases)
        let policy = RightsPolicy(
            control: ControlPolicy(uids: [1000], groups: [.name("admins"), .id(42)]),
            permissions: [.screen: ControlPolicy(uids: [1001], groups: [.name("kiosk")]),
                          .lock: ControlPolicy(groups: [.id(77), .name("nosuchgroup")]),
                          .touches: ControlPolicy(uids: [1001, 1002])],
            daemonUID: 500, groupID: { ["admins": 40, "kiosk": 60][$0] })
        #expect(policy.unknownGroups == ["permissions.lock: no group named nosuchgroup"])
        let table: [(uid: UInt32?, groups: [UInt32], rights: Set<Right>)] = [
            (0, [0], all),                       // root
            (500, [500], all),                   // the daemon's own user
            (1000, [1000], all),                 // control.uids
            (2000, [2000, 40], all),             // control.groups, by name
            (2001, [2001, 42], all),             // control.groups, by gid
            (1001, [1001], [.screen, .touches]), // permissions.screen.uids and permissions.touches.uids
            (1002, [1002, 60], [.screen, .touches]), // permissions.screen.groups by name
            (1003, [1003, 77], [.lock]),         // permissions.lock.groups by gid
            (1004, [1004, 78], []),              // a group nobody listed
            (65534, [65534], []),
            (nil, [0], []),                      // unknown credentials hold nothing, even with group 0
        ]
        for row in table { #expect(policy.rights(uid: row.uid, groups: row.groups) == row.rights, "uid \(row.uid.map(String.init) ?? "nil")") }
        #expect(RightsPolicy.mayControl([.screen]) && RightsPolicy.mayControl([.lock]) && RightsPolicy.mayControl([.views]))
        #expect(!RightsPolicy.mayControl([.touches]) && !RightsPolicy.mayControl([]))
        // Without permissions, control alone decides, as before.
        let old = RightsPolicy(control: ControlPolicy(uids: [1000]), permissions: [:], daemonUID: 500, groupID: { _ in nil })
        #expect(old.rights(uid: 1000, groups: []) == all && old.rights(uid: 1001, groups: []).isEmpty)
    }
}

import Testing
@testable import LearnModel

@Suite struct ConnectionAdmissionTests {
    @Test func aFewPerAddressAndABoundedNumberInAll() {
        var a = ConnectionAdmission(maxPerSource: 4, maxTotal: 10)
        for _ in 0..<4 { #expect(a.admit(source: "10.0.0.5") == .admitted) }
        #expect(a.admit(source: "10.0.0.5") == .refused(.tooManyFromSource(4)))
        #expect(a.count(from: "10.0.0.5") == 4)
        for i in 0..<6 { #expect(a.admit(source: "10.0.0.\(10 + i)") == .admitted) }
        #expect(a.admit(source: "10.0.0.99") == .refused(.tooManyInTotal(10)))
        #expect(a.total == 10)
    }

    @Test func aClosedConnectionFreesItsPlace() {
        var a = ConnectionAdmission(maxPerSource: 2, maxTotal: 3)
        #expect(a.admit(source: "x") == .admitted)
        #expect(a.admit(source: "x") == .admitted)
        #expect(a.admit(source: "x") != .admitted)
        a.release(source: "x")
        #expect(a.admit(source: "x") == .admitted)
        // Releasing an address never counted changes nothing.
        a.release(source: "never")
        #expect(a.total == 2)
    }

    @Test func whenEveryPlaceIsTakenTheOldestSilentConnectionMakesRoom() {
        var a = ConnectionAdmission(maxPerSource: 4, maxTotal: 2)
        #expect(a.admit(source: "a") == .admitted)
        #expect(a.admit(source: "b") == .admitted)
        #expect(a.admit(source: "c", silent: [7, 9]) == .makeRoom(closing: 7))
        #expect(a.total == 2)  // nothing counted until the room is made
        a.release(source: "a")
        #expect(a.admit(source: "c", silent: [9]) == .admitted)
        // Nobody silent: the newcomer is refused.
        #expect(a.admit(source: "d", silent: []) == .refused(.tooManyInTotal(2)))
        // A machine at its own cap never makes room by closing someone else's.
        var b = ConnectionAdmission(maxPerSource: 1, maxTotal: 1)
        #expect(b.admit(source: "a") == .admitted)
        #expect(b.admit(source: "a", silent: [1]) == .refused(.tooManyFromSource(1)))
    }
}

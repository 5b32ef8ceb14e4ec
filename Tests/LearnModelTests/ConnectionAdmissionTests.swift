import Testing
@testable import LearnModel

@Suite struct ConnectionAdmissionTests {
    @Test func aFewPerAddressAndABoundedNumberInAll() {
        var a = ConnectionAdmission(maxPerSource: 4, maxTotal: 10)
        for _ in 0..<4 { #expect(a.admit(source: "10.0.0.5") == nil) }
        #expect(a.admit(source: "10.0.0.5") == .tooManyFromSource(4))
        #expect(a.count(from: "10.0.0.5") == 4)
        for i in 0..<6 { #expect(a.admit(source: "10.0.0.\(10 + i)") == nil) }
        #expect(a.admit(source: "10.0.0.99") == .tooManyInTotal(10))
        #expect(a.total == 10)
    }

    @Test func aClosedConnectionFreesItsPlace() {
        var a = ConnectionAdmission(maxPerSource: 2, maxTotal: 3)
        #expect(a.admit(source: "x") == nil)
        #expect(a.admit(source: "x") == nil)
        #expect(a.admit(source: "x") != nil)
        a.release(source: "x")
        #expect(a.admit(source: "x") == nil)
        // Releasing an address never counted changes nothing.
        a.release(source: "never")
        #expect(a.total == 2)
    }
}

import Foundation
import TeamsketchCore
import Testing

@Suite struct SchoolTokenTests {
    let secret = "tok-3f9a1c0e7b5d"

    var signIn: SchoolSignIn {
        SchoolSignIn(server: "https://school.example", accountID: "a1", name: "Frau Berg", isTeacher: true,
                     token: SchoolToken(secret), expiresAt: Date(timeIntervalSince1970: 1_790_000_000))
    }

    @Test func aTokenNeverPrintsNorDoesASignInHoldingIt() {
        var dumped = ""
        dump(signIn, to: &dumped)
        for text in [String(describing: signIn.token), String(reflecting: signIn.token), "\(signIn)",
                     String(reflecting: signIn), dumped] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect("\(signIn)".contains("Frau Berg"), "the rest of the sign-in still reads")
    }

    @Test func aStoredSignInKeepsItsTokenAsThePlainStringItWas() throws {
        let data = try JSONEncoder().encode(signIn)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["token"] as? String == secret, "sign-in files written before read the same")
        #expect(try JSONDecoder().decode(SchoolSignIn.self, from: data).token.secret == secret)
    }
}

import Foundation
import LearnNet
import TeamsketchCore

extension TeamsketchApp {
    /// What the LAN screens and their sessions use, over this app's
    /// discovery, preferences, store and school link.
    var lan: LanEnvironment {
        LanEnvironment(
            discovery: discovery, preferences: preferences, sessions: .live, keepSharedSketch: keepSharedSketch,
            signIn: { [unowned self] in school.signIn },
            relayedSessions: { [unowned self] in await school.relayedSessions() },
            relayOfferPlan: { [unowned self] in await school.relayOfferPlan() },
            ownAddress: { "\(LocalInterfaces.current().primaryAddress)" },
            hostPicture: { host, port in await HostPicture.fetch(host: host, port: port) },
            rename: { [unowned self] name in me.typedName(name) },
            openSketch: { [unowned self] session, meta in sketchDesk.openShared(session, meta: meta) },
            openGame: { [unowned self] game, me, names, link, isHost, soundsOn in
                gameDesk.openShared(game: game, me: me, names: names, link: link, isHost: isHost, soundsOn: soundsOn)
            })
    }

    /// A shared sketch (the pupil's session, a group on the class wall)
    /// is kept in this device's store as it is drawn.
    var keepSharedSketch: SharedSketchKeeper.Make {
        { [storeClient] report in SharedSketchKeeper(store: storeClient, report: report) }
    }
}

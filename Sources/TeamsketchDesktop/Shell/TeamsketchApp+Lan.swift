import Foundation
import LearnNet
import TeamsketchCore

extension TeamsketchApp {
    /// What the LAN screens and their sessions use, over this app's
    /// discovery, preferences, store and school link.
    var lan: LanEnvironment {
        LanEnvironment(
            discovery: discovery, preferences: preferences, store: storeClient,
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
}

import Foundation
import LearnModel
import LearnNet

extension LanSessions {
    /// The real sessions: hosts listen on the first free port of the
    /// session range (`PortSelection`), members connect directly or
    /// through the school server's relay.
    public static let live = LanSessions(
        hostSketch: { request, onEvent in
            var config = SessionHost.Configuration(name: request.seat.name, params: request.params)
            config.sketch = request.sketch
            config.settings = request.settings
            config.avatarPNG = request.seat.avatar
            config.classWatchKey = request.classWatchKey
            let host = try await PortSelection.firstFree { [config] port in
                var c = config
                c.port = port
                return try await SessionHost.start(c, onEvent: onEvent)
            }
            let lobby = LobbyLink.hosting(host, start: { host.start() }, finish: {
                await host.end(.hostEnded)
                await host.shutdown()
            })
            return (lobby, .hosting(host))
        },
        joinSketch: { request, onEvent in
            let client = try await SessionClient.connect(configuration(request), onEvent: onEvent)
            return (.member(leave: { await client.leave() }), .member(client))
        },
        hostGame: { request, onEvent in
            var config = WordPostHost.Configuration(name: request.seat.name, pool: request.pool)
            config.soundsOn = request.soundsOn
            config.session.avatarPNG = request.seat.avatar
            config.previouslyFinished = request.previouslyFinished
            let host = try await PortSelection.firstFree { [config] port in
                var c = config
                c.session.port = port
                return try await WordPostHost.start(c, onEvent: onEvent)
            }
            let lobby = LobbyLink.hosting(host.session, start: { host.startGame() }, finish: {
                host.endGame()
                await host.shutdown()
            })
            return (lobby, .hosting(host))
        },
        joinGame: { request, onEvent in
            var config = WordPostClient.Configuration(host: "", port: 0, name: request.seat.name, role: request.role)
            config.session = configuration(request)
            let client = try await WordPostClient.connect(config, onEvent: onEvent)
            return (.member(leave: { await client.leave() }), .member(client))
        },
        watch: { group, watcher, keys, onEvent in
            var config = SessionClient.Configuration(host: group.address.host, port: group.address.port,
                                                     name: watcher, role: .observer)
            config.watchProof = ClassWall.proof(for: group, keys: keys, watcher: config.peerID)
            config.log = .silent
            let client = try await SessionClient.connect(config, onEvent: onEvent)
            return .member(leave: { await client.leave() })
        })

    private static func configuration(_ request: Joining) -> SessionClient.Configuration {
        var config = SessionClient.Configuration(route: request.route, name: request.seat.name, role: request.role)
        config.avatarPNG = request.seat.avatar
        config.accountID = request.seat.account
        return config
    }
}

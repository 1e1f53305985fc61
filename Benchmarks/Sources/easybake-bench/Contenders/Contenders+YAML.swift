import EasyBake
import EasyBakeYAML
import Foundation
import Yams

extension Contenders {
    static let yaml: [Contender] = [
        easyBakeTree("yaml", YAMLFormat()), easyBakeIndex("yaml", YAMLFormat()), yamsCompose(), yamsLoad(),
        libyamlEvents(.tree),
        easyBakeBake("yaml", YAMLFormat()), easyBakeIndexBake("yaml", YAMLFormat()),
        easyBakeBakeable("yaml", YAMLFormat()), yamsDecoderBake(),
        easyBakeSelect("yaml", YAMLFormat()), easyBakeIndexSelect("yaml", YAMLFormat()), yamsDecoderSelect(),
        libyamlEvents(.select),
    ]

    /// Yams takes a `String`; reading the file into one is part of using it.
    private static func readString(_ path: String) throws -> String {
        String(decoding: try readData(path), as: UTF8.self)
    }

    static func yamsCompose() -> Contender {
        Contender(.tree, "yaml", "Yams compose", note: "Node tree") { workload in
            guard let users = try Yams.compose(yaml: try readString(workload.path))?["users"]?.sequence else {
                throw BenchError("Yams: no users")
            }
            return Outcome(count: users.count) { idFingerprint(users.map { $0["id"]?.int ?? -1 }) }
        }
    }

    static func yamsLoad() -> Contender {
        Contender(.tree, "yaml", "Yams load", note: "Swift Any tree") { workload in
            guard let users = (try Yams.load(yaml: try readString(workload.path)) as? [String: Any])?["users"] as? [Any]
            else {
                throw BenchError("Yams: no users")
            }
            return Outcome(count: users.count) {
                idFingerprint(users.map { ($0 as? [String: Any])?["id"] as? Int ?? -1 })
            }
        }
    }

    static func yamsDecoderBake() -> Contender {
        Contender(.bake, "yaml", "Yams YAMLDecoder") { workload in
            .users(try YAMLDecoder().decode(UsersDocument.self, from: try readString(workload.path)).users)
        }
    }

    static func yamsDecoderSelect() -> Contender {
        Contender(.select, "yaml", "Yams YAMLDecoder") { workload in
            .picks(try YAMLDecoder().decode(PickDocument.self, from: try readString(workload.path)).users.map(\.pick))
        }
    }

    static func libyamlEvents(_ scenario: Scenario) -> Contender {
        Contender(scenario, "yaml", "libyaml events (bare)", note: "event loop, counting; the ceiling") {
            .counted(try BareC.libyamlEvents(path: $0.path))
        }
    }
}

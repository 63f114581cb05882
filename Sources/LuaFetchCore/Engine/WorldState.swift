// Saving a World and putting it back: what explore's warm runs need on the simulator's side. A
// runtime loads its scenario once, saves the World it left (`WorldState`), and before every later
// run puts it back (the scripting layer does the same for its Lua heap; see LuaState.save). Every
// subsystem copies its own stored properties in its file (`copyState(from:)`), so a property added
// there is copied where it is declared; WorldStateTests checks that a copy of a World in the middle
// of a run describes itself exactly as the original does. Uses World and its subsystems.

/// A World's whole state, kept apart from any running World.
public struct WorldState {
    let copy: World

    /// Saves `world` as it is now.
    public init(of world: World) {
        copy = World(file: world.file, options: world.options)
        copy.copyState(from: world)
    }

    /// Puts `world` back to the saved state, then gives it `options` (a new seed, order, cut).
    public func restore(_ world: World, options: RunOptions) {
        world.copyState(from: copy)
        world.replaceOptions(options)
    }
}

extension World {
    /// Gives a World that has not started yet other command-line options (explore's warm runs:
    /// the seed, the `--order` bits, `--until`; nothing of the scenario read them yet).
    func replaceOptions(_ new: RunOptions) {
        precondition(!started, "options change only before a run starts")
        options = new
    }

    /// Every stored property of the World and its subsystems, as text (WorldStateTests compares a
    /// copy with its original). Closures and the scripting host are left out.
    public var stateDescription: String {
        var out = ""
        func describe(_ value: Any, _ indent: String, _ out: inout String) {
            let m = Mirror(reflecting: value)
            if m.displayStyle == .class || m.displayStyle == .struct || m.displayStyle == .tuple
                || m.displayStyle == .collection || m.displayStyle == .dictionary || m.displayStyle == .set
                || m.displayStyle == .optional || m.displayStyle == .enum, !m.children.isEmpty {
                var children = m.children.map { ($0.label ?? "-", $0.value) }
                if m.displayStyle == .dictionary || m.displayStyle == .set {
                    children = children.map { (_, v) in (String(describing: v), v) }.sorted { $0.0 < $1.0 }
                }
                for (label, v) in children where label != "host" && label != "$__lazy_storage_$_subsystems" {
                    if v is () -> Void { out += "\(indent)\(label) = (function)\n"; continue }
                    out += "\(indent)\(label):\n"
                    describe(v, indent + "  ", &out)
                }
            } else {
                out += "\(indent)\(String(describing: value))\n"
            }
        }
        describe(self, "", &out)
        return out
    }
}

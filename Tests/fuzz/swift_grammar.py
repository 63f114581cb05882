#!/usr/bin/env python3
"""Swift apps generated from swift-syntax's grammar, for the importer's fuzzing (SPEC 18.8.5).

Provides: STATEMENTS, EXPRESSIONS, MEMBERS and DECLARATIONS (templates, each a Swift construct
as an app developer writes it), app(r) (a seeded random app: an @main AppDelegate whose
didFinishLaunching and applicationDidEnterBackground run statements nested at random, with
types and declarations beside it, names colliding with Lua's keywords and globals) and
template_apps() (one small app per template). Uses only Python's standard library.

Every StmtSyntax, ExprSyntax, DeclSyntax and PatternSyntax kind of swift-syntax occurs in at
least one template, except those in EXCLUDED (GrammarCoverageTests parses every template with
SwiftParser, folds its operators as the importer does, and holds this file to that).

Command line (scripts/fuzz's `import` kind uses app() through fuzz.py; the Swift tests run this):
  swift_grammar.py --out DIR --seed S --count N   DIR/app-K/AppDelegate.swift, K < N
  swift_grammar.py --out DIR --templates          DIR/t-K/AppDelegate.swift, one per template
  swift_grammar.py --excluded                     EXCLUDED as JSON
"""
import json, os, random, sys

# Kinds no template has, and why (GrammarCoverageTests reads this list from here).
EXCLUDED = {
    # Only in invalid code: the parser's recovery nodes (the importer stops at a parse error).
    'MissingDeclSyntax': 'parser recovery for invalid code',
    'MissingExprSyntax': 'parser recovery for invalid code',
    'MissingStmtSyntax': 'parser recovery for invalid code',
    'MissingPatternSyntax': 'parser recovery for invalid code',
    'UnexpectedCodeDeclSyntax': 'parser recovery for invalid code',
    # Editor placeholders (<#code#>) do not compile: "editor placeholder in source file".
    'EditorPlaceholderDeclSyntax': 'an editor placeholder does not compile',
    'EditorPlaceholderExprSyntax': 'an editor placeholder does not compile',
    # Experimental language features, parsed only when the parser is asked for them (the
    # importer's Parser.parse enables none): `then` statements, `do` expressions, `using`.
    'ThenStmtSyntax': 'experimental feature (ThenStatements), not parsed by default',
    'DoExprSyntax': 'experimental feature (DoExpressions), not parsed by default',
    'UsingDeclSyntax': 'experimental feature (DefaultIsolationPerFile), not parsed by default',
    # Built by the compiler when it evaluates `#if canImport(M, _version: ...)`; the parser makes
    # a plain function call of it (a template has `#if canImport(UIKit)`).
    '_CanImportExprSyntax': 'made by the compiler, never by the parser',
    '_CanImportVersionInfoSyntax': 'made by the compiler, never by the parser',
}

# Names Lua reads as keywords or globals (and the importer's runtime uses); Swift takes them as
# identifiers, some only between backticks.
LOCALS = ['end', 'local', 'then', 'elseif', 'function', 'until', 'not', 'and', 'or', 'goto', 'table', 'string',
          'math', 'os', 'io', 'next', 'pairs', 'select', 'require', 'load', '_ENV', '_G', 'rawget', 'setmetatable',
          'coroutine', 'debug', 'tostring', 'swift', 'app', 'timer', 'T', 'self_', '__index', 'nil_',
          '`repeat`', '`in`', '`for`', '`while`', '`return`', '`nil`', 'type', 'tostring', '`while`']

# Names a member of AppDelegate can take (not `print`: its methods call print(...)).
MEMBER_NAMES = {'until', 'elseif', 'goto', 'not', 'and', 'or', 'type', 'tostring', 'require', 'load', 'next', 'pairs',
                'rawget', 'string', 'math', '_ENV', 'swift', 'app', 'timer', 'T', 'repeat', 'while'}

# The app's fixed part: AppDelegate's properties (named after Lua's globals) and the types the
# templates use. {members} {launch} {background} {decls} are filled by app().
APP = '''import UIKit
import BackgroundTasks

enum Shape {{ case circle, square(Int), named(String, Int) }}
enum Failure: Error {{ case bad(Int), other }}
struct Model {{
    var end = 0
    var print = "p"
    func error() -> Int {{ end }}
}}
func risky(_ n: Int) throws -> Int {{
    if n < 0 {{ throw Failure.bad(n) }}
    return n
}}
func fetchValue() async -> Int {{ 7 }}
func bump(_ value: inout Int) {{ value += 1 }}

@main
class AppDelegate: UIResponder, UIApplicationDelegate {{
    var counter = 0
    var flag = false
    var end = 1
    var local: String? = "l"
    var then: [Int] = [1, 2, 3]
    var function: [String: Int] = ["k": 1]
    var table = Model()
    var shape = Shape.square(2)
    var anyValue: Any = 3
    var task: UIBackgroundTaskIdentifier = .invalid
{members}
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {{
        work()
        return true
    }}

    func work() {{
{launch}
    }}

    func applicationDidEnterBackground(_ application: UIApplication) {{
        task = application.beginBackgroundTask(withName: "sync") {{
            application.endBackgroundTask(self.task)
            self.task = .invalid
        }}
{background}
        application.endBackgroundTask(task)
    }}
}}
{decls}
'''

# Expressions: {i} an Int expression, {b} a Bool one, {s} a String one (filled recursively); one with
# an operator is in parentheses, so that it means the same wherever it lands.
INT = ['0', '1', '42', '(-self.counter)', '(self.counter + {i})', '(({i}) * 2)', 'self.end', 'self.then.count', 'self.then[0]',
       '(self.function["k"] ?? 0)', 'self.table.end', 'self.table.error()', '(self.flag ? {i} : {i})', '(self.local?.count ?? 0)',
       'self.local!.count', '(Int("12") ?? {i})', '[{i}, {i}].max()!', '((try? risky({i})) ?? 0)', 'self.then.reduce(0, +)',
       'Array<Int>(repeating: 1, count: 2).count', '((self.anyValue as? Int) ?? 0)', '({{ (x: Int) -> Int in x + 1 }}({i}))',
       '(self.then.map {{ $0 * 2 }}.first ?? 0)', 'self.then.filter({{ n in n > 1 }}).count', 'self.then.map(\\.bitWidth).count',
       '(1, {i}).1', '(Int.max / 2)', '0x1F', '#line', 'MemoryLayout<Int>.size', 'Int(2.5)']
BOOL = ['true', 'false', 'self.flag', '!{b}', '({i} > {i})', '({b} && {b})', '({b} || {b})', '(self.anyValue is String)',
        '(self.local == nil)', 'self.then.contains({i})', '(self.then.isEmpty == false)']
STR = ['"s"', '"n=\\({i})"', '(self.local ?? "none")', 'self.table.print', '#function', 'String(describing: self.shape)',
       '("a" + {s})', '#"raw \\d"#', '"""\n        multi \\({i})\n        """', 'String({i})',
       '(self.anyValue as! Int).description', 'self.function.keys.sorted().joined(separator: ",")']

# Statements: {n} a fresh local name, {st} nested statements, {i} {b} {s} expressions.
STATEMENTS = [
    'let {n} = {i}',
    'var {n}: Int? = {i}\n{n} = nil\n_ = {n}',
    'let ({n}, _) = ({i}, {s})\nprint({n})',
    'counter = {i}',
    'counter += {i}',
    'print({s}, {i}, {b})',
    'bump(&counter)',
    'if {b} {{\n{st}\n}} else if {b} {{\n{st}\n}} else {{\n{st}\n}}',
    'if let {n} = self.local, !{n}.isEmpty {{\n{st}\n}}',
    'if case .square(let {n}) = shape, {n} > 1 {{\n{st}\n}}',
    'guard {b} else {{ return }}',
    'guard let {n} = self.local else {{\n{st}\nreturn\n}}\nprint({n})',
    'for {n} in 0..<3 {{\n{st}\n}}',
    'for case let {n}? in [1, nil, 3] {{ counter += {n} }}',
    'for ({n}, v) in self.function where v > 0 {{ print({n}, v) }}',
    'for _ in self.then[1...] {{\n{st}\n}}',
    'var {n} = 0\nwhile {n} < 3 {{\n{n} += 1\n{st}\n}}',
    'var {n} = 0\nrepeat {{\n{n} += 1\n}} while {n} < 3',
    '{n}: for i in 0..<3 {{\nfor j in 0..<3 {{\nif j == 1 {{ continue {n} }}\nif i == 2 {{ break {n} }}\n{st}\n}}\n}}',
    'switch shape {{\ncase .circle:\n{st}\nfallthrough\ncase .square(let {n}) where {n} > 1:\ncounter += {n}\n'
    'case let .named(s, _):\nprint(s)\ndefault:\nbreak\n}}',
    'switch anyValue {{\ncase is Int:\n{st}\ncase let {n} as String:\nprint({n})\ndefault:\nbreak\n}}',
    'switch (counter, flag) {{\ncase (0, true):\n{st}\ncase (let {n}, false) where {n} > 1:\nprint({n})\ncase (_, _):\nbreak\n}}',
    'switch counter {{\ncase 0:\nbreak\ncase 1...3, 7:\n{st}\ndefault:\nprint("other")\n}}',
    'defer {{\nprint({s})\ncounter += {i}\n}}',
    'do {{\nlet {n} = try risky({i})\nprint({n})\n}} catch Failure.bad(let code) where code < -1 {{\nprint(code)\n}} catch {{\nprint(error)\n}}',
    'do {{\nthrow Failure.other\n}} catch {{\n{st}\n}}',
    'let {n} = try? risky({i})\n_ = {n}',
    'let {n} = try! risky(1)\n_ = {n}',
    'let {n} = {{ () -> Int in\nreturn {i}\n}}()\n_ = {n}',
    'let {n}: (Int) -> Int = {{ [weak self] x in\nguard let self else {{ return x }}\nreturn x + self.counter\n}}\n_ = {n}(1)',
    'let {n} = [(Int) -> Int]()\n_ = {n}',
    'let {n} = Any.self\n_ = {n}',
    'let {n} = \\Model.end\nprint(self.table[keyPath: {n}])',
    'let {n} = ["a": {i}, "b": 2]\n_ = {n}["a"]',
    'let {n} = 2.5 * Double({i})\n_ = {n}',
    'var {n} = self.table\n{n}.end += 1\nlet {m} = consume {n}\nself.table = {m}',
    'let {n} = counter\nlet {m} = copy {n}\nprint({m})',
    'let {n} = switch shape {{\ncase .circle: 1\ncase .square(let k): k\ncase .named(_, let k): k\n}}\nprint({n})',
    'let {n}: Int = if flag {{ {i} }} else {{ 2 }}\nprint({n})',
    'let {n} = [1, 2, 3].map {{ $0 * 2 }}\n_ = {n}',
    'let {n} = unsafe counter + {i}\n_ = {n}',
    'let {n} = borrow counter\n_ = {n}',
    'let {n} = self.then\n#if DEBUG\n.filter {{ $0 > 1 }}\n#else\n.sorted()\n#endif\n_ = {n}',
    '#if DEBUG\nprint("debug")\n#elseif canImport(UIKit)\n{st}\n#endif',
    'if #available(iOS 16, *) {{\nlet {n} = #/[a-z]+/#\n_ = "abc".contains({n})\n}}',
    'DispatchQueue.main.async {{ [self] in\n{st}\n}}',
    'DispatchQueue.global().asyncAfter(deadline: .now() + 1) {{ [self] in\n{st}\n}}',
    'Task {{\nlet {n} = await fetchValue()\nprint({n})\n}}',
    'Task {{ @MainActor in\nasync let {n} = fetchValue()\nlet v = await {n}\ncounter += v\n}}',
    'Task {{\nlet c = Counter()\nawait c.add({i})\nprint(await c.end)\n}}',
    'let {n} = Box<Int>(value: {i})\nprint({n}[0], {n}.value)',
    'let {n} = Holder()\n{n}.stored += 1\nprint({n}.stored)',
    'var {n} = Vector(x: 1, y: 2)\n{n} = {n} <~> Vector(x: {i}, y: 0)\nprint(-{n}.x, √2.0, 5%%)',
    'let {n} = Handle(fd: {i})\n{n}.close()',
    'let {n} = all(1, "two", true)\nprint({n})',
    'let {n} = Temperature(celsius: {i}) ?? Temperature()\nprint({n}.end)',
    'let {n} = Shape.named({s}, {i})\nshape = {n}',
    'print(Level.high.rawValue, Level(rawValue: 0) as Any, Level.allCases.count)',
    'let {n} = Tree.node(.leaf, .leaf)\nif case .node = {n} {{ print("node") }}',
    'let {n}: any Greeting = Greeter()\nprint({n}.greet())',
    'UserDefaults.standard.set({i}, forKey: {s})',
    '_ = UserDefaults.standard.integer(forKey: "end")',
    '_ = super.becomeFirstResponder()',
    'print(Lua.self, Lua.until)',
    '#warning("generated")',
]

# Members of AppDelegate (or of its extension): declarations at type level.
MEMBERS = [
    'var {n}: Int = 0 {{\nwillSet {{ print(newValue) }}\ndidSet {{ print(oldValue) }}\n}}',
    'var {n}: Int {{\nget {{ counter * 2 }}\nset {{ counter = newValue / 2 }}\n}}',
    'lazy var {n}: [String] = ["a", "b"]',
    'static let {n} = "shared"',
    'private(set) var {n} = 0',
    '@available(*, deprecated, message: "use work()")\nfunc {n}() {{\nwork()\n}}',
    'func {n}<V: Comparable>(_ a: V, _ b: V) -> V {{\nreturn a < b ? a : b\n}}',
    'func {n}(label value: Int = 1, _ rest: Int...) throws -> Int {{\nif value < 0 {{ throw Failure.other }}\nreturn value + rest.count\n}}',
    'subscript(index: Int) -> Int {{\nget {{ then[index] }}\nset {{ then[index] = newValue }}\n}}',
    'override init() {{\nsuper.init()\n}}',
    'typealias {n} = [String: Int]',
    'enum {n} {{ case first, second }}',
    '#warning("a member")',
    '#sourceLocation(file: "Generated.swift", line: 100)\nfunc {n}() {{}}\n#sourceLocation()',
]

# Top-level declarations, each providing what a statement above uses.
DECLARATIONS = [
    'actor Counter {{\nvar end = 0\nfunc add(_ n: Int) {{ end += n }}\n}}',
    'struct Box<Value> {{\nvar value: Value\nsubscript(i: Int) -> Value {{ value }}\n}}',
    'class Holder {{\nprivate var storage = 0\nvar stored: Int {{\n_read {{ yield storage }}\n_modify {{ yield &storage }}\n}}\n'
    'deinit {{ print("gone") }}\n}}',
    'infix operator <~>: VectorPrecedence\nprecedencegroup VectorPrecedence {{\nassociativity: left\n'
    'higherThan: AdditionPrecedence\n}}\nstruct Vector {{ var x: Int; var y: Int }}\n'
    'func <~> (a: Vector, b: Vector) -> Vector {{ Vector(x: a.x + b.x, y: a.y + b.y) }}\n'
    'prefix operator √\nprefix func √ (v: Double) -> Double {{ v.squareRoot() }}\n'
    'postfix operator %%\npostfix func %% (v: Int) -> Double {{ Double(v) / 100 }}',
    'struct Handle: ~Copyable {{\nlet fd: Int\nconsuming func close() {{\nprint("close", fd)\ndiscard self\n}}\n'
    'deinit {{ print("dropped", fd) }}\n}}',
    'func all<each V>(_ value: repeat each V) -> (repeat each V) {{\nreturn (repeat each value)\n}}',
    'struct Temperature {{\nvar end = 0\ninit() {{}}\ninit?(celsius: Int) {{\nif celsius < -273 {{ return nil }}\nend = celsius\n}}\n}}',
    'enum Level: Int, CaseIterable {{\ncase low = 0, high\n}}',
    'indirect enum Tree {{\ncase leaf\ncase node(Tree, Tree)\n}}',
    'protocol Greeting {{\nassociatedtype Word = String\nvar end: Int {{ get }}\nfunc greet() -> Word\n}}\n'
    'extension Greeting {{\nfunc twice() -> (Word, Word) {{ (greet(), greet()) }}\n}}\n'
    'struct Greeter: Greeting {{\nlet end = 2\nfunc greet() -> String {{ "hi" }}\n}}',
    'enum Lua {{\nstatic let until = 1\nstatic let `repeat` = 2\n}}',
    '@freestanding(expression)\nmacro stringify<V>(_ value: V) -> (V, String) = #externalMacro(module: "Macros", type: "Stringify")',
    'extension AppDelegate {{\nfunc {n}() -> Int {{ counter }}\n}}',
    'extension Array where Element == Int {{\nvar total: Int {{ reduce(0, +) }}\n}}',
    'import struct Foundation.Date',
    '#warning("generated declarations")',
    '#if DEBUG\nlet debugBuild = true\n#else\nlet debugBuild = false\n#endif',
]

# A statement's template that needs a top-level declaration: the declaration goes with it.
NEEDS = {'Counter(': 'actor Counter', 'Box<Int>': 'struct Box', 'Holder()': 'class Holder', '<~>': 'infix operator',
         'Handle(': 'struct Handle', 'all(1': 'func all', 'Temperature(': 'struct Temperature', 'Level.': 'enum Level',
         'Tree.': 'indirect enum Tree', 'Greeter()': 'protocol Greeting', 'Lua.': 'enum Lua'}
NEEDS = {key: next(k for k, d in enumerate(DECLARATIONS) if d.startswith(start)) for key, start in NEEDS.items()}


class Gen:
    """One app's generation: fresh local names, expressions and statements nested at random."""
    def __init__(self, r):
        self.r, self.used, self.decls = r, {}, set()

    def name(self):
        base = self.r.choice(LOCALS)
        k = self.used.get(base, 0)
        self.used[base] = k + 1
        if k == 0: return base
        return (base.strip('`') + str(k)) if base.startswith('`') else base + str(k)

    def member(self):
        """A fresh name for a member of AppDelegate: none of its own, nor one its methods call."""
        while True:
            n = self.name()
            if n.strip('`').rstrip('0123456789') in MEMBER_NAMES: return n

    def expr(self, pool, depth):
        t = self.r.choice(pool if depth < 3 else pool[:3])
        return self._fill(t, depth + 1, None)

    def _fill(self, t, depth, n):
        out, k, m = [], 0, None
        t = t.replace('{{', '\x01').replace('}}', '\x02')
        while k < len(t):
            if t[k] == '{':
                j = t.index('}', k)
                slot = t[k + 1:j]
                if slot == 'n': out.append(n)
                elif slot == 'i': out.append(self.expr(INT, depth))
                elif slot == 'b': out.append(self.expr(BOOL, depth))
                elif slot == 's': out.append(self.expr(STR, depth))
                elif slot == 'st': out.append(self.statements(depth + 1))
                elif slot == 'm':
                    m = m or self.name()
                    out.append(m)
                k = j + 1
            else:
                out.append(t[k]); k += 1
        return ''.join(out).replace('\x01', '{').replace('\x02', '}')

    def statement(self, depth, t=None):
        t = t or self.r.choice(STATEMENTS)
        for key, d in NEEDS.items():
            if key in t: self.decls.add(d)
        return self._fill(t, depth, self.name())

    def statements(self, depth):
        if depth > 3: return 'counter += 1'
        return '\n'.join(self.statement(depth) for _ in range(self.r.randint(1, 3 if depth else 6)))


def indent(text, spaces):
    """Indents `text` by brace depth (multi-line string literals are left as they are)."""
    out, level, in_string = [], 0, False
    for line in text.split('\n'):
        s = line.strip()
        if in_string:
            out.append(line)
            if s.startswith('"""'): in_string = False
            continue
        closing = s.startswith('}')
        label = s.startswith('case ') or s == 'default:'
        out.append(' ' * (spaces + 4 * max(level - closing - label, 0)) + s if s else '')
        level += s.count('{') - s.count('}')
        if s.count('"""') % 2 == 1: in_string = True
    return '\n'.join(out)


def render(g, launch, background, members):
    decls = '\n\n'.join(g._fill(DECLARATIONS[d], 1, g.name()) for d in sorted(g.decls))
    return APP.format(members=indent('\n'.join(members), 4) + ('\n' if members else ''), launch=indent(launch, 8),
                      background=indent(background, 8), decls=indent(decls, 0))


def app(r):
    """A random app: statements nested at random in two entry points, random members and declarations."""
    g = Gen(r)
    launch, background = g.statements(0), g.statements(0)
    members = [g._fill(t, 1, g.member()) for t in r.sample(MEMBERS, r.randint(0, 3))]
    for _ in range(r.randint(0, 2)): g.decls.add(r.randrange(len(DECLARATIONS)))
    return render(g, launch, background, members)


def template_apps():
    """One small app per template (every template once, its slots filled with the simplest choices)."""
    apps = []
    for kind, pool in (('statement', STATEMENTS), ('member', MEMBERS), ('declaration', DECLARATIONS)):
        for k, t in enumerate(pool):
            g = Gen(random.Random(k))
            launch, members = 'counter += 1', []
            if kind == 'statement': launch = g.statement(0, t)
            elif kind == 'member': members = [g._fill(t, 1, g.member())]
            else: g.decls.add(k)
            apps.append(('%s %d' % (kind, k), render(g, launch, 'print(counter)', members)))
    for pool in (INT, BOOL, STR):
        for k, t in enumerate(pool):
            g = Gen(random.Random(k))
            apps.append(('expression %s' % t[:30].replace('\n', ' '), render(g, 'print(%s)' % g._fill(t, 2, None), 'print(counter)', [])))
    return apps


def write(folder, text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'AppDelegate.swift'), 'w', encoding='utf-8') as f: f.write(text)


def main(argv):
    out, seed, count, templates = None, 1, 10, False
    k = 0
    while k < len(argv):
        a = argv[k]
        if a == '--out': out = argv[k + 1]; k += 2
        elif a == '--seed': seed = int(argv[k + 1]); k += 2
        elif a == '--count': count = int(argv[k + 1]); k += 2
        elif a == '--templates': templates = True; k += 1
        elif a == '--excluded': print(json.dumps(EXCLUDED, sort_keys=True)); return
        else: sys.exit('swift_grammar.py: unknown argument %r (see the docstring)' % a)
    if out is None: sys.exit('swift_grammar.py: --out DIR is required')
    if templates:
        for k, (label, text) in enumerate(template_apps()): write(os.path.join(out, 't-%d' % k), '// %s\n%s' % (label, text))
    else:
        for k in range(count): write(os.path.join(out, 'app-%d' % k), app(random.Random('%d-%d' % (seed, k))))


if __name__ == '__main__':
    main(sys.argv[1:])

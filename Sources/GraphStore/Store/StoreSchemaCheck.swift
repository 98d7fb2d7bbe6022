// The check every store's schema passes when the store is opened (docs/Security.md): a store
// from elsewhere is untrusted input, so nothing its schema holds may run when SeedKit reads it,
// and nothing but plain SQL when SeedKit writes to it.
// Refused: views, virtual tables, generated columns and DEFAULTs that call a function (they run
// when rows are read), CHECK constraints that call a function (neither layout has one; SQLite
// would silently drop one calling a function it does not trust), and any trigger or index that
// calls a function SQLite does not deem innocuous — SeedKit's own functions are direct-only, a
// layout's trigger functions are allowed. Triggers are found by compiling, never running, an
// INSERT, an UPDATE of every column and a DELETE on each table, which compiles every trigger
// under the connection's own rules (trusted schema off); an index is refused as SQLite loads it.
// Reading the schema parses all of it first, so a schema that does not parse is refused here as
// damaged, before a table is read.
// Invariant: nothing is executed and nothing is written; the check reads `sqlite_master` and
// `PRAGMA table_xinfo` only. A write that fails to compile for another reason than SQLITE_ERROR
// (a damaged page) is not the schema's refusal but the file's damage.
import CSQLite

/// Refuses a store whose schema would run what SeedKit does not run.
///
/// ```swift
/// try StoreSchemaCheck.check(reader, layouts: StoreLayout.knownRules, path: "Upload.sqlite")
/// ```
enum StoreSchemaCheck {
    /// At most this many refused objects are named.
    private static let namedLimit = 10

    /// Throws ``StoreError/Kind/unsafeSchema(_:)`` naming what the schema on `connection` holds
    /// that SeedKit does not run, or ``StoreError/Kind/damaged(_:)`` when it does not parse.
    /// Registers SeedKit's functions and the functions of `layouts`' schemas on `connection`.
    static func check(_ connection: SQLiteConnection, layouts: [any StoreLayoutRules], path: String) throws {
        try PersistentStore.sqlite(path) {
            try SQLFunctions.register(on: connection)
            for layout in layouts { try layout.registerSchemaFunctions(on: connection) }
            var refused: [String] = []
            var tables: [String] = []
            let objects = try loadingSchema(path: path) {
                try connection.prepare(
                    "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY type, name")
            }
            while try objects.step() {
                let (type, name) = (objects.string(0), objects.string(1))
                if type == "view" {
                    refused.append("view \(SQLiteIdentifier.quote(name))")
                } else if isVirtualTable(objects.string(2)) {
                    refused.append("virtual table \(SQLiteIdentifier.quote(name))")
                } else if !name.hasPrefix("sqlite_") {
                    tables.append(name)
                    refused += checkConstraints(in: objects.string(2)).filter(callsFunction).map {
                        "table \(SQLiteIdentifier.quote(name)) CHECK (\($0))"
                    }
                }
            }
            for table in tables {
                refused += try computedColumns(of: table, on: connection)
            }
            if refused.isEmpty {
                for table in tables {
                    if let reason = try uncompilableWrites(to: table, on: connection) { refused.append(reason) }
                }
            }
            guard refused.isEmpty else {
                throw StoreError(
                    .unsafeSchema(
                        Array(refused.prefix(namedLimit))
                            + (refused.count > namedLimit ? ["… (\(refused.count) in all)"] : [])),
                    path: path)
            }
        }
    }

    /// Runs `body`, which loads the schema: SQLite refuses a CHECK constraint or an index that
    /// calls a direct-only function already then, as a malformed schema ("malformed database
    /// schema (name) - unsafe use of f()"); that is the schema's refusal, not damage.
    private static func loadingSchema<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isCorrupt && error.message.contains(") - unsafe use of ") {
            let detail = error.message.drop(while: { $0 != "(" }).dropFirst()
            let name = detail.prefix(while: { $0 != ")" })
            let reason = detail.dropFirst(name.count + ") - ".count)
            throw StoreError(.unsafeSchema(["\(SQLiteIdentifier.quote(String(name))): \(reason)"]), path: path)
        }
    }

    /// Whether `sql` creates a virtual table (`CREATE VIRTUAL TABLE …`, any case and spacing).
    private static func isVirtualTable(_ sql: String) -> Bool {
        let words = sql.split(whereSeparator: { $0.isWhitespace }).prefix(2).map { $0.uppercased() }
        return words == ["CREATE", "VIRTUAL"]
    }

    /// The generated columns of `table`, and its columns whose DEFAULT calls a function.
    private static func computedColumns(of table: String, on connection: SQLiteConnection) throws -> [String] {
        let columns = try connection.prepare("SELECT name, hidden, dflt_value FROM pragma_table_xinfo(?)")
        columns.bind(text: table, at: 1)
        var refused: [String] = []
        while try columns.step() {
            let column = SQLiteIdentifier.quote(table) + "." + SQLiteIdentifier.quote(columns.string(0))
            let hidden = columns.int64(1)
            if hidden == 2 || hidden == 3 {
                refused.append("generated column \(column)")
            } else if !columns.isNull(2), callsFunction(columns.string(2)) {
                refused.append("column \(column) DEFAULT \(columns.string(2))")
            }
        }
        return refused
    }

    /// The expressions of the CHECK constraints in the `CREATE TABLE` statement `sql`: what
    /// follows each CHECK keyword (outside strings, quoted names and comments) in parentheses.
    static func checkConstraints(in sql: String) -> [String] {
        let characters = Array(sql)
        var expressions: [String] = []
        var index = 0
        /// The index after the quoted text, string or comment starting at `start`, or nil.
        func skipQuoted(_ start: Int) -> Int? {
            let closing: [Character: String] = ["'": "'", "\"": "\"", "`": "`", "[": "]"]
            if let close = closing[characters[start]].flatMap(\.first) {
                var end = start + 1
                while end < characters.count, characters[end] != close { end += 1 }
                return end + 1
            }
            let next = start + 1 < characters.count ? characters[start + 1] : " "
            if characters[start] == "-" && next == "-" {
                return characters[start...].firstIndex(of: "\n").map { $0 + 1 } ?? characters.count
            }
            if characters[start] == "/" && next == "*" {
                var end = start + 2
                while end + 1 < characters.count, !(characters[end] == "*" && characters[end + 1] == "/") { end += 1 }
                return end + 2
            }
            return nil
        }
        while index < characters.count {
            if let end = skipQuoted(index) {
                index = end
            } else if characters[index].isLetter || characters[index] == "_" {
                let start = index
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    index += 1
                }
                guard String(characters[start..<index]).uppercased() == "CHECK" else { continue }
                while index < characters.count, characters[index].isWhitespace { index += 1 }
                guard index < characters.count, characters[index] == "(" else { continue }
                var depth = 0
                let open = index
                repeat {
                    if let end = skipQuoted(index) {
                        index = end
                        continue
                    }
                    if characters[index] == "(" { depth += 1 } else if characters[index] == ")" { depth -= 1 }
                    index += 1
                } while index < characters.count && depth > 0
                expressions.append(String(characters[(open + 1)..<max(open + 1, index - 1)]))
            } else {
                index += 1
            }
        }
        return expressions
    }

    /// Whether the SQL expression `text` (a DEFAULT, a CHECK) calls a function: outside its string
    /// literals, a name (plain or quoted) is followed by `(`.
    static func callsFunction(_ text: String) -> Bool {
        var inString = false
        var previous: Character = " "
        for character in text {
            if character == "'" {
                inString.toggle()
            } else if !inString, !character.isWhitespace {
                if character == "(" && (previous.isLetter || previous.isNumber || "_\"]`".contains(previous)) {
                    return true
                }
                previous = character
            }
        }
        return false
    }

    /// Why a write to `table` does not compile (a trigger, CHECK constraint or index of it calls a
    /// function SeedKit does not run, or names what does not exist), or nil when it does. The
    /// statements are compiled, never run.
    private static func uncompilableWrites(to table: String, on connection: SQLiteConnection) throws -> String? {
        let quoted = SQLiteIdentifier.quote(table)
        var columns: [String] = []
        let names = try connection.prepare("SELECT name FROM pragma_table_info(?)")
        names.bind(text: table, at: 1)
        while try names.step() { columns.append(SQLiteIdentifier.quote(names.string(0))) }
        let writes = [
            "INSERT INTO \(quoted) DEFAULT VALUES",
            "UPDATE \(quoted) SET " + columns.map { "\($0) = \($0)" }.joined(separator: ", "),
            "DELETE FROM \(quoted)",
        ]
        for write in writes {
            do {
                _ = try connection.prepare(write)
            } catch let error as SQLiteError where error.code == SQLITE_ERROR {
                return
                    "table \(quoted): its triggers, CHECK constraints or indexes cannot be compiled (\(error.message))"
            }
        }
        return nil
    }
}

// The keyed-archive resolver over archives written with SeedKit's own writer in the shape
// NSKeyedArchiver gives them: UIDs resolved, `$null` as null, classes named, shared objects
// resolved once, and every malformed archive refused with the `$objects` index at fault.
import Foundation
import PropertyLists
import Testing

@Suite struct KeyedArchiveTests {
    /// An archive of `objects` (after `$null`, so the first given is `$objects[1]`), root `root`.
    static func archive(_ objects: [PropertyListValue], root: PropertyListValue = .uid(1)) -> Data {
        BinaryPropertyListWriter().write([
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": root],
            "$objects": .array(["$null"] + objects),
        ])
    }

    static func error(_ data: Data, limits: PropertyListLimits = PropertyListLimits()) -> PropertyListError? {
        do {
            _ = try KeyedArchive(data, limits: limits).root()
            Issue.record("resolved without error")
            return nil
        } catch {
            return error
        }
    }

    static func className(_ name: String, _ superclasses: String...) -> PropertyListValue {
        ["$classname": .string(name), "$classes": .array(([name] + superclasses).map { .string($0) })]
    }

    /// `$source.owner` as Xcode archives it: valueForKeyPath: applied to $source with a key-path specifier.
    static let keyPathArchive = archive([
        [
            "NSOperand": .uid(3), "NSSelectorName": .uid(2), "NSExpressionType": 4, "NSArguments": .uid(6),
            "$class": .uid(11),
        ],
        "valueForKeyPath:",
        ["NSVariable": .uid(4), "NSExpressionType": 2, "$class": .uid(5)],
        "source",
        className("NSVariableExpression", "NSExpression", "NSObject"),
        ["NS.objects": [.uid(7)], "$class": .uid(10)],
        ["$class": .uid(9), "NSExpressionType": 10, "NSKeyPath": .uid(8)],
        "owner",
        className("NSKeyPathSpecifierExpression", "NSExpression", "NSObject"),
        className("NSMutableArray", "NSArray", "NSObject"),
        className("NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"),
    ])

    @Test func resolvesObjectsFieldsAndClasses() throws {
        let root = try #require(try KeyedArchive(Self.keyPathArchive).root().objectValue)
        #expect(root.index == 1)
        #expect(root.className == "NSKeyPathExpression")
        #expect(root.isKind(of: "NSFunctionExpression"))
        #expect(!root.isKind(of: "NSArray"))
        #expect(root["NSSelectorName"] == .scalar("valueForKeyPath:"))
        #expect(root["NSExpressionType"] == .scalar(4))
        #expect(root.fields.count == 4)
        let operand = try #require(root["NSOperand"]?.objectValue)
        #expect(operand.className == "NSVariableExpression")
        #expect(operand["NSVariable"]?.stringValue == "source")
        let arguments = try #require(root["NSArguments"]?.arrayElements)
        #expect(arguments.count == 1)
        #expect(arguments.first?.objectValue?["NSKeyPath"]?.stringValue == "owner")
        #expect(
            arguments.first?.objectValue?.classHierarchy == [
                "NSKeyPathSpecifierExpression", "NSExpression", "NSObject",
            ])
    }

    @Test func nullSharedObjectsAndPlainValues() throws {
        let data = Self.archive([
            [
                "a": .uid(0), "b": .uid(2), "c": .uid(2), "list": [.uid(2), .uid(0), .uid(3)], "n": 5,
                "$class": .uid(4),
            ],
            ["x": true, "$class": .uid(5)],
            .data(Data([1, 2])),
            Self.className("Holder"),
            ["$classname": "Inner"],
        ])
        let root = try #require(try KeyedArchive(data).root().objectValue)
        #expect(root["a"] == .null)
        #expect(root["b"] == root["c"])
        #expect(root["b"]?.objectValue?.className == "Inner")
        #expect(root["b"]?.objectValue?.classHierarchy == [])
        #expect(root["list"] == .array([root["b"] ?? .null, .null, .scalar(.data(Data([1, 2])))]))
        #expect(root["n"] == .scalar(5))
        // The root of a plain value, and another $top key.
        let plain = BinaryPropertyListWriter().write([
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1), "other": .uid(0)],
            "$objects": ["$null", "text"],
        ])
        #expect(try KeyedArchive(plain).root() == .scalar("text"))
        #expect(try KeyedArchive(plain).resolveTop("other") == .null)
    }

    @Test func notAnArchive() {
        let wrongArchiver = BinaryPropertyListWriter().write([
            "$version": 100_000, "$archiver": "NSArchiver", "$top": ["root": .uid(1)], "$objects": ["$null", "x"],
        ])
        #expect(
            Self.error(wrongArchiver)
                == PropertyListError(.notAKeyedArchive("$archiver is not NSKeyedArchiver"), at: .archivedObject(0)))
        let wrongVersion = BinaryPropertyListWriter().write([
            "$version": 200_000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1)], "$objects": ["$null", "x"],
        ])
        #expect(Self.error(wrongVersion)?.reason == .notAKeyedArchive("$version is not 100000"))
        let noNull = BinaryPropertyListWriter().write([
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1)], "$objects": ["x", "y"],
        ])
        #expect(Self.error(noNull)?.reason == .notAKeyedArchive("$objects does not start with $null"))
        #expect(
            Self.error(Self.archive(["x"], root: "not a UID"))?.reason
                == .notAKeyedArchive("$top has no UID called 'root'"))
        #expect(
            Self.error(BinaryPropertyListWriter().write(["a"]))?.reason
                == .notAKeyedArchive("the top value is not a dictionary"))
        // A damaged property list underneath is the binary reader's error, with its byte offset.
        var damaged = Array(Self.keyPathArchive)
        damaged.removeLast(40)
        #expect(throws: PropertyListError.self) { try KeyedArchive(Data(damaged)) }
    }

    @Test func uidsOutOfRange() {
        #expect(
            Self.error(Self.archive(["x"], root: .uid(9)))
                == PropertyListError(.uidOutOfRange(9, objectCount: 2), at: .archivedObject(0)))
        let field = Self.archive([["f": .uid(3), "$class": .uid(2)], Self.className("C")])
        #expect(Self.error(field) == PropertyListError(.uidOutOfRange(3, objectCount: 3), at: .archivedObject(1)))
        let inArray = Self.archive([["f": [.uid(0), .uid(40)], "$class": .uid(2)], Self.className("C")])
        #expect(Self.error(inArray) == PropertyListError(.uidOutOfRange(40, objectCount: 3), at: .archivedObject(1)))
        let badClass = Self.archive([["$class": .uid(8)]])
        #expect(Self.error(badClass) == PropertyListError(.uidOutOfRange(8, objectCount: 2), at: .archivedObject(1)))
    }

    @Test func cycles() {
        let itself = Self.archive([["me": .uid(1), "$class": .uid(2)], Self.className("C")])
        #expect(Self.error(itself) == PropertyListError(.cycle(object: 1), at: .archivedObject(1)))
        let pair = Self.archive([
            ["next": .uid(2), "$class": .uid(3)], ["back": [.uid(1)], "$class": .uid(3)], Self.className("C"),
        ])
        #expect(Self.error(pair) == PropertyListError(.cycle(object: 1), at: .archivedObject(1)))
    }

    @Test func malformedObjects() {
        #expect(
            Self.error(Self.archive([["x": 1]]))
                == PropertyListError(.invalidArchivedObject("a dictionary without $class"), at: .archivedObject(1)))
        #expect(
            Self.error(Self.archive([["$class": "C"]]))?.reason
                == .invalidArchivedObject("$class is a string, not a UID"))
        #expect(
            Self.error(Self.archive([["$class": .uid(2)], ["name": "C"]]))
                == PropertyListError(
                    .invalidArchivedObject("the class description has no $classname string"), at: .archivedObject(2)))
        #expect(
            Self.error(Self.archive([["f": ["k": 1], "$class": .uid(2)], Self.className("C")]))?.reason
                == .invalidArchivedObject("a field holds a dictionary, which archives store as objects"))
        #expect(
            Self.error(Self.archive([[.uid(1)]]))?.reason
                == .invalidArchivedObject("an array or UID where an object belongs"))
    }

    @Test func depthAndValueLimits() throws {
        // A chain of 64 objects resolves; 65 is too deep.
        func chain(_ length: Int) -> Data {
            let classIndex = length + 1
            let links: [PropertyListValue] = (1...length).map { index in
                index == length
                    ? ["$class": .uid(UInt64(classIndex))]
                    : ["next": .uid(UInt64(index + 1)), "$class": .uid(UInt64(classIndex))]
            }
            return Self.archive(links + [Self.className("Link")])
        }
        #expect(try KeyedArchive(chain(64)).root().objectValue?.className == "Link")
        #expect(Self.error(chain(65)) == PropertyListError(.tooDeep(limit: 64), at: .archivedObject(65)))
        // Shared objects count once per use.
        let fanOut: [PropertyListValue] = [
            ["all": .array(Array(repeating: .uid(2), count: 200)), "$class": .uid(3)],
            ["all": .array(Array(repeating: .uid(4), count: 200)), "$class": .uid(3)],
            Self.className("Fan"), "leaf",
        ]
        #expect(
            Self.error(Self.archive(fanOut), limits: PropertyListLimits(maxValues: 10_000))?.reason
                == .tooManyValues(limit: 10_000))
        #expect(try KeyedArchive(Self.archive(fanOut)).root().objectValue?["all"]?.arrayElements?.count == 200)
    }
}

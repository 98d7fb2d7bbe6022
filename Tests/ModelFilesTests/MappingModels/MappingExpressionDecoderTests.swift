// Decoding archived NSExpressions (mapping models' valueexpressiondata) into MappingExpressions
// and their format text, over archives built in Xcode's shapes; unsupported classes and
// malformed or hostile archives are refused with the class or the `$objects` index named.
import Foundation
import ModelFiles
import PropertyLists
import Testing

@Suite struct MappingExpressionDecoderTests {
    static func decode(_ build: (inout ExpressionArchive) -> PropertyListValue) throws -> MappingExpression {
        var archive = ExpressionArchive()
        let root = build(&archive)
        return try MappingExpression(archive: archive.data(root: root))
    }

    static func error(_ build: (inout ExpressionArchive) -> PropertyListValue) -> MappingExpressionError? {
        var archive = ExpressionArchive()
        let root = build(&archive)
        return error(archive.data(root: root))
    }

    static func error(_ data: Data) -> MappingExpressionError? {
        do {
            let expression = try MappingExpression(archive: data)
            Issue.record("decoded \(expression)")
            return nil
        } catch {
            return error
        }
    }

    @Test func keyPathOnSource() throws {
        let expression = try Self.decode { archive in
            let source = archive.variable("source")
            return archive.keyPath(source, "abc")
        }
        #expect(expression == .keyPath(variable: "source", ["abc"]))
        #expect(expression.format == "$source.abc")
    }

    @Test func keyPathsThroughToOnes() throws {
        let dotted = try Self.decode { archive in
            let source = archive.variable("source")
            return archive.keyPath(source, "owner.name")
        }
        let nested = try Self.decode { archive in
            let source = archive.variable("source")
            let owner = archive.keyPath(source, "owner")
            return archive.keyPath(owner, "name")
        }
        #expect(dotted == .keyPath(variable: "source", ["owner", "name"]))
        #expect(nested == dotted)
        #expect(nested.format == "$source.owner.name")
    }

    @Test func managerFunctions() throws {
        let expression = try Self.decode { archive in
            let manager = archive.variable("manager")
            let name = archive.constant("ItemToItem")
            let source = archive.variable("source")
            return archive.function(
                manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", [name, source])
        }
        #expect(
            expression
                == .function(
                    target: .variable("manager"),
                    selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                    arguments: [.constant(.string("ItemToItem")), .variable("source")]))
        #expect(
            expression.format
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ItemToItem", $source)"#
        )
        let relationship = try Self.decode { archive in
            let manager = archive.variable("manager")
            let name = archive.constant("cars")
            let source = archive.variable("source")
            let cars = archive.keyPath(source, "cars")
            return archive.function(
                manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", [name, cars])
        }
        #expect(
            relationship.format
                == #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "cars", $source.cars)"#
        )
    }

    @Test func constants() throws {
        #expect(try Self.decode { $0.constant(true) }.format == "TRUE")
        #expect(try Self.decode { $0.constant(false) } == .constant(.boolean(false)))
        #expect(try Self.decode { $0.constant(42) }.format == "42")
        #expect(try Self.decode { $0.constant(-7) } == .constant(.integer(-7)))
        #expect(try Self.decode { $0.constant(2.5) }.format == "2.5")
        #expect(try Self.decode { $0.constant(nil) }.format == "nil")
        #expect(try Self.decode { $0.constant("say \"hi\"\\\r\n") }.format == #""say \"hi\"\\\r\n""#)
        // An entity-policy function with no arguments and a constant target.
        let policy = try Self.decode { archive in
            let target = archive.variable("entityPolicy")
            return archive.function(target, "now", [])
        }
        #expect(policy.format == #"FUNCTION($entityPolicy, "now")"#)
    }

    @Test func unsupportedExpressionsNameTheirClass() {
        let subquery = Self.error { archive in
            archive.object("NSSubqueryExpression", [("NSExpressionType", 13)])
        }
        #expect(subquery == .unsupportedExpression(className: "NSSubqueryExpression", object: 1))
        #expect(subquery?.description == "unsupported expression: NSSubqueryExpression ($objects[1])")
        let dateConstant = Self.error { archive in
            let date = archive.object("NSDate", [("NS.time", 0.5)])
            return archive.object("NSConstantValueExpression", [("NSConstantValue", date), ("NSExpressionType", 0)])
        }
        #expect(
            dateConstant == .unsupportedExpression(className: "NSConstantValueExpression holding NSDate", object: 3))
        let selfKeyPath = Self.error { archive in
            let this = archive.object("NSSelfExpression", [("NSExpressionType", 1)])
            return archive.keyPath(this, "name")
        }
        #expect(selfKeyPath == .unsupportedExpression(className: "NSSelfExpression", object: 1))
        let keyPathOnConstant = Self.error { archive in
            let constant = archive.constant("x")
            return archive.keyPath(constant, "count")
        }
        #expect(keyPathOnConstant?.description.contains("a key path on \"x\"") == true)
    }

    @Test func malformedExpressions() {
        let wrongType = Self.error { archive in
            let name = archive.add("source")
            return archive.object("NSVariableExpression", [("NSVariable", name), ("NSExpressionType", 3)])
        }
        #expect(wrongType == .malformed("NSVariableExpression has NSExpressionType 3, not 2", object: 2))
        let noSelector = Self.error { archive in
            let source = archive.variable("source")
            return archive.object("NSFunctionExpression", [("NSOperand", source), ("NSExpressionType", 4)])
        }
        #expect(noSelector?.description.contains("NSFunctionExpression has no NSSelectorName string") == true)
        let argumentsNotArray = Self.error { archive in
            let source = archive.variable("source")
            let selector = archive.add("count")
            let number = archive.add(3)
            return archive.object(
                "NSFunctionExpression",
                [("NSOperand", source), ("NSSelectorName", selector), ("NSArguments", number), ("NSExpressionType", 4)])
        }
        #expect(argumentsNotArray?.description.contains("NSArguments is 3, not an array") == true)
        let plainRoot = Self.error { archive in archive.add("just a string") }
        #expect(plainRoot == .malformed("an expression is expected, not a string", object: 0))
        let emptyComponent = Self.error { archive in
            let source = archive.variable("source")
            return archive.keyPath(source, "owner..name")
        }
        #expect(emptyComponent?.description.contains("the key path 'owner..name' has an empty component") == true)
    }

    @Test func hostileArchivesAreArchiveErrors() {
        var archive = ExpressionArchive()
        let root = archive.object("NSVariableExpression", [("NSVariable", .uid(99)), ("NSExpressionType", 2)])
        #expect(
            Self.error(archive.data(root: root))
                == .archive(PropertyListError(.uidOutOfRange(99, objectCount: 3), at: .archivedObject(1))))
        var large = ExpressionArchive()
        let text = large.add(.string(String(repeating: "x", count: 1 << 20)))
        let constant = large.object("NSConstantValueExpression", [("NSConstantValue", text), ("NSExpressionType", 0)])
        guard case .archive(let error)? = Self.error(large.data(root: constant)),
            case .inputTooLarge(_, 1 << 20) = error.reason
        else {
            Issue.record("a 1 MiB archive was not refused for its size")
            return
        }
        #expect(Self.error(Data("not an archive".utf8)) == .archive(PropertyListError(.notAPropertyList, at: .byte(0))))
    }
}

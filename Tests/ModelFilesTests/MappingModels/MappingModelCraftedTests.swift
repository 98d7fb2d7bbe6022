// The `.xcmappingmodel` reader over crafted files: names in any case, GNUstep's extra names,
// remove mappings, explicit names, unknown names warned with their line, and every refusal
// naming the file, line, entity mapping and property.
import Foundation
import PropertyLists
import Testing

@testable import ModelFiles
import TestSupport

@Suite struct MappingModelCraftedTests {
    /// A `$source.<path>` archive, base64, as Xcode stores it in valueexpressiondata.
    static func keyPathArchive(_ path: String) -> String {
        var archive = ExpressionArchive()
        let source = archive.variable("source")
        let root = archive.keyPath(source, path)
        return archive.data(root: root).base64EncodedString()
    }

    /// Writes `objects` (XML of `<object>` elements) into a mapping model file and reads it.
    static func read(_ objects: String, modelObject: String? = nil) throws -> MappingModel {
        let directory = URL(fileURLWithPath: try ScratchFolder.make("mapping", suffix: ".xcmappingmodel"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let model =
            modelObject ?? """
                <object type="XDDEVMAPPINGMODEL" id="z1">
                    <attribute name="sourcemodelpath" type="string">App/Model.xcdatamodeld/Model 1.xcdatamodel</attribute>
                    <attribute name="destinationmodelpath" type="string">App/Model.xcdatamodeld/Model 2.xcdatamodel</attribute>
                    <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2"></relationship>
                </object>
                """
        let text = """
            <?xml version="1.0" standalone="no"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
            <database>
                <databaseInfo><version>134481920</version></databaseInfo>
            \(model)
            \(objects)
            </database>
            """
        try Data(text.utf8).write(to: directory.appendingPathComponent("xcmapping.xml"))
        return try MappingModelReader.readMappingModel(at: directory)
    }

    static func error(_ objects: String, modelObject: String? = nil) -> MappingModelError? {
        do {
            _ = try read(objects, modelObject: modelObject)
            Issue.record("read without error")
            return nil
        } catch let error as MappingModelError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func namesInAnyCaseGNUstepNamesAndWarnings() throws {
        let model = try Self.read(
            """
                <OBJECT type="xddevEntityMapping" id="z2">
                    <Attribute name="SourceName" type="string">Measurement</Attribute>
                    <attribute name="mappingnumber" type="int16">3</attribute>
                    <attribute name="sourcefilterpredicatestring" type="string">abc > 0</attribute>
                    <attribute name="sourceexpressiondata" type="binary">\(Self.keyPathArchive("all"))</attribute>
                    <attribute name="userinfodata" type="binary">AAAA</attribute>
                    <attribute name="colour" type="string">blue</attribute>
                    <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3"></relationship>
                    <relationship name="siblings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs=""></relationship>
                </OBJECT>
                <object TYPE="XDDEVATTRIBUTEMAPPING" Id="z3">
                    <attribute NAME="name" type="string">xyz</attribute>
                    <attribute name="valueexpressiondata" type="binary">\(Self.keyPathArchive("abc.def"))</attribute>
                    <attribute name="sourcekeypath" type="string">abc</attribute>
                </object>
                <widget/>
            """)
        let mapping = try #require(model.entityMappings.first)
        #expect(mapping.name == "MeasurementTo")
        #expect(mapping.kind == .remove)
        #expect(mapping.number == 3)
        #expect(mapping.generatesExpressions == false)
        #expect(mapping.sourceFilterPredicate == "abc > 0")
        #expect(mapping.sourceExpression?.format == "$source.all")
        #expect(mapping.attributeMappings.first?.valueExpression?.format == "$source.abc.def")
        #expect(
            model.warnings == [
                "line 16: unknown attribute 'colour' of XDDEVENTITYMAPPING z2 passed over",
                "line 18: unknown relationship 'siblings' of XDDEVENTITYMAPPING z2 passed over",
                "line 25: unknown element <widget> passed over",
            ])
    }

    @Test func anExplicitNameWins() throws {
        let model = try Self.read(
            """
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="name" type="string">DeletedCarbObjectToCachedCarbObject</attribute>
                <attribute name="sourcename" type="string">DeletedCarbObject</attribute>
                <attribute name="destinationname" type="string">CachedCarbObject</attribute>
            </object>
            """)
        #expect(model.entityMappings.map(\.name) == ["DeletedCarbObjectToCachedCarbObject"])
        #expect(model.entityMappings.first?.attributeMappings == [])
    }

    @Test func refusals() {
        let noModel = Self.error("", modelObject: "")
        #expect(noModel?.message == "the file holds 0 XDDEVMAPPINGMODEL objects, not one")
        let dangling = Self.error("")
        #expect(dangling?.message == "entitymappings of z1 names z2, which is no object, not a XDDEVENTITYMAPPING")
        #expect(dangling?.line == 8)
        let neither = Self.error(#"<object type="XDDEVENTITYMAPPING" id="z2"></object>"#)
        #expect(neither?.message == "entity mapping z2 names neither a source nor a destination entity")
        let badNumber = Self.error(
            """
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="sourcename" type="string">A</attribute>
                <attribute name="destinationname" type="string">B</attribute>
                <attribute name="mappingnumber" type="int16">first</attribute>
            </object>
            """)
        #expect(
            badNumber
                == MappingModelError(
                    file: badNumber?.file ?? "", line: 13, entityMapping: "AToB",
                    message: "mappingnumber 'first' is not an integer"))
        let badExpression = Self.error(
            """
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="sourcename" type="string">A</attribute>
                <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z3"></relationship>
            </object>
            <object type="XDDEVRELATIONSHIPMAPPING" id="z3">
                <attribute name="name" type="string">items</attribute>
                <attribute name="valueexpressiondata" type="binary">YnBsaXN0MDA=</attribute>
            </object>
            """)
        #expect(badExpression?.entityMapping == "ATo")
        #expect(badExpression?.property == "items")
        #expect(badExpression?.line == 16)
        #expect(
            badExpression?.message.hasPrefix("valueexpressiondata: the archived expression cannot be read: byte 8:")
                == true)
        #expect(
            badExpression?.description.contains("xcmapping.xml:16: entity mapping 'ATo', property 'items': ") == true)
        let wrongTarget = Self.error(
            """
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="sourcename" type="string">A</attribute>
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z2"></relationship>
            </object>
            """)
        #expect(
            wrongTarget?.message
                == "attributemappings of z2 names z2, which is a XDDEVENTITYMAPPING, not a XDDEVATTRIBUTEMAPPING")
        #expect(wrongTarget?.entityMapping == "ATo")
    }

    @Test func unsupportedExpressionsAreNamed() {
        var archive = ExpressionArchive()
        let subquery = archive.object("NSSubqueryExpression", [("NSExpressionType", 13)])
        let data = archive.data(root: subquery).base64EncodedString()
        let error = Self.error(
            """
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="sourcename" type="string">A</attribute>
                <attribute name="destinationname" type="string">A</attribute>
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3"></relationship>
            </object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z3">
                <attribute name="name" type="string">count</attribute>
                <attribute name="valueexpressiondata" type="binary">\(data)</attribute>
            </object>
            """)
        #expect(error?.message == "valueexpressiondata: unsupported expression: NSSubqueryExpression ($objects[1])")
        #expect(error?.property == "count")
    }

    @Test func duplicateNamesAndMissingFiles() throws {
        let twice = Self.error(
            """
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="sourcename" type="string">A</attribute>
                <attribute name="destinationname" type="string">B</attribute>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z3">
                <attribute name="name" type="string">AToB</attribute>
                <attribute name="sourcename" type="string">C</attribute>
            </object>
            """,
            modelObject: """
                <object type="XDDEVMAPPINGMODEL" id="z1">
                    <attribute name="sourcemodelpath" type="string">M.xcdatamodeld/A.xcdatamodel</attribute>
                    <attribute name="destinationmodelpath" type="string">M.xcdatamodeld/B.xcdatamodel</attribute>
                    <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2 z3"></relationship>
                </object>
                """)
        #expect(twice?.entityMapping == "AToB")
        #expect(twice?.message == "two entity mappings have this name (mapping numbers 0 and 0)")
        let missing = URL(fileURLWithPath: "/nonexistent/Missing.xcmappingmodel")
        #expect(
            throws: MappingModelError(
                file: "/nonexistent/Missing.xcmappingmodel/xcmapping.xml",
                message: "the mapping model file does not exist")
        ) {
            try MappingModelReader.readMappingModel(at: missing)
        }
    }
}

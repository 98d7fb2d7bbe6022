// Tests for XcodeModelReader: the hand-written Xcode models under Fixtures/XcodeModels (both
// eras of the format, versioned bundles, every attribute type and option, inheritance) load with
// every feature in the declarations, and broken models fail with the file and line at fault.
import Foundation
import Testing

@testable import GraphStore
@testable import ModelFiles
import TestSupport

/// The fixture models' folder, found from this file so tests run from any working directory.
private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().appendingPathComponent("Fixtures/XcodeModels")

private func fixture(_ path: String) -> URL {
    fixtures.appendingPathComponent(path)
}

private func load(_ path: String) throws -> ObjectModel {
    try XcodeModelReader.readModel(at: fixture(path))
}

private func failure(_ path: String) throws -> ModelError {
    try #require(throws: ModelError.self) { try load(path) }
}

/// The declaration of `entity.attribute`, failing the test when either is missing.
private func attribute(_ model: ObjectModel, _ entity: String, _ name: String) throws -> AttributeDescription {
    try #require(model.entity(named: entity)?.attribute(named: name)).declaration
}

/// The declaration of `entity.relationship`, failing the test when either is missing.
private func relationship(_ model: ObjectModel, _ entity: String, _ name: String) throws -> RelationshipDescription {
    try #require(model.entity(named: entity)?.relationship(named: name)).declaration
}

private func date(_ text: String) throws -> Date {
    try #require(ISO8601Text.date(from: text))
}

@Suite("XcodeModelReader")
struct XcodeModelReaderTests {
    // MARK: - Xcode 4 era: Grocery Dude

    @Test func readsTheOldEraGroceryDudeModel() throws {
        let model = try load("GroceryDude.xcdatamodeld")
        #expect(model.name == "GroceryDude")
        #expect(model.entities.map(\.name) == ["Item", "Location", "LocationAtHome", "LocationAtShop", "Unit"])
        #expect(model.fetchRequestTemplates.isEmpty)

        let name = try attribute(model, "Item", "name")
        #expect(name.type == .string && !name.isOptional && name.isIndexed)
        #expect(name.defaultValue == .string("New Item"))
        #expect(name.userInfo == ["mappedKeyName": "name"])
        let quantity = try attribute(model, "Item", "quantity")
        #expect(quantity.type == .float && quantity.isOptional && quantity.defaultValue == .double(1))
        #expect(try attribute(model, "Item", "listed").defaultValue == .boolean(true))
        #expect(try attribute(model, "Item", "collected").defaultValue == .boolean(false))
        let photo = try attribute(model, "Item", "photoData")
        #expect(photo.type == .binary && photo.allowsExternalStorage && photo.isOptional && photo.defaultValue == nil)
        #expect(model.entity(named: "Item")?.userInfo == ["relatedByAttribute": "name"])
        #expect(model.entity(named: "Item")?.indexes == [])
    }

    @Test func readsGroceryDudeInheritanceAndRelationships() throws {
        let model = try load("GroceryDude.xcdatamodeld")
        let location = try #require(model.entity(named: "Location"))
        #expect(location.isAbstract)
        let atHome = try #require(model.entity(named: "LocationAtHome"))
        #expect(atHome.declaration.parent == "Location" && !atHome.isAbstract)
        #expect(atHome.attribute(named: "summary")?.declaringEntity == "Location")
        #expect(try attribute(model, "LocationAtShop", "aisle").isIndexed)

        // Xcode writes minCount="1" maxCount="1" on these to-ones: the minimum is kept as written
        // (Core Data's version hash covers it; saves check a to-one through isOptional only), the
        // maximum of a to-one is 1 by definition.
        let unit = try relationship(model, "Item", "unit")
        #expect(!unit.isToMany && unit.isOptional && unit.minCount == 1 && unit.maxCount == 0)
        #expect(unit.destination == "Unit" && unit.inverse == "items" && unit.deleteRule == .nullify)
        #expect(unit.userInfo == ["mappedKeyName": "unit", "relatedByAttribute": "name"])
        let items = try relationship(model, "Unit", "items")
        #expect(items.isToMany && !items.isOrdered && items.deleteRule == .deny && items.inverse == "unit")
        for (owner, name, key) in [
            ("LocationAtHome", "locationAtHome", "storedIn"), ("LocationAtShop", "locationAtShop", "aisle"),
        ] {
            let toLocation = try relationship(model, "Item", name)
            #expect(toLocation.destination == owner && toLocation.inverse == "items")
            #expect(toLocation.userInfo["relatedByAttribute"] == key)
            #expect(try relationship(model, owner, "items").inverse == name)
            #expect(model.entity(named: owner)?.userInfo == ["relatedByAttribute": key])
        }
        let itemUnit = try #require(model.entity(named: "Item")?.relationship(named: "unit"))
        #expect(model.inverse(of: itemUnit)?.name == "items")
    }

    @Test func theSampleAppModelIsTheGroceryDudeFixture() throws {
        let sample = Repository.root
            .appendingPathComponent("SeedData/GroceryDude/GroceryDude.xcdatamodeld")
        let model = try ModelLoader.load(from: sample.path)
        let fixtureModel = try load("GroceryDude.xcdatamodeld")
        #expect(model.name == "GroceryDude")
        #expect(model.entityDescriptions == fixtureModel.entityDescriptions)
        #expect(model.versionHash == fixtureModel.versionHash)
    }

    // MARK: - Versions

    @Test func readsTheVersionNamedByXCCurrentVersion() throws {
        let model = try load("Shop.xcdatamodeld")
        #expect(model.name == "Shop")
        #expect(model.entities.map(\.name) == ["Category", "Product"])
        let price = try attribute(model, "Product", "price")
        #expect(price.type == .decimal && price.defaultValue == .decimal(0))
        // Xcode 8's unnamed <compoundIndexes> are named after their properties.
        #expect(
            model.entity(named: "Product")?.declaration.indexes == [
                IndexDescription(
                    name: "compoundIndex_name_sku", elements: [IndexElement("name"), IndexElement("sku")]),
                IndexDescription(name: "compoundIndex_category", elements: [IndexElement("category")]),
            ])
    }

    @Test func readsOneVersionFolderOrContentsFileDirectly() throws {
        let first = try load("Shop.xcdatamodeld/Shop.xcdatamodel")
        #expect(first.name == "Shop")
        #expect(first.entities.map(\.name) == ["Product"])
        #expect(try attribute(first, "Product", "price").type == .double)

        let second = try load("Shop.xcdatamodeld/Shop 2.xcdatamodel/contents")
        #expect(second.name == "Shop 2")
        #expect(second.versionHash == (try load("Shop.xcdatamodeld")).versionHash)
        let viaLoader = try ModelLoader.load(from: fixture("Shop.xcdatamodeld/Shop 2.xcdatamodel/contents").path)
        #expect(viaLoader.versionHash == second.versionHash)
    }

    @Test func refusesSeveralVersionsWithoutACurrentOne() throws {
        let error = try failure("Ambiguous.xcdatamodeld")
        #expect(error.source.hasSuffix("Ambiguous.xcdatamodeld"))
        let message = try #require(error.problems.first?.message)
        #expect(message.contains("Ambiguous 2.xcdatamodel, Ambiguous.xcdatamodel"))
        #expect(message.contains(".xccurrentversion"))
    }

    @Test func refusesACurrentVersionThatIsMissing() throws {
        let error = try failure("StaleVersion.xcdatamodeld")
        #expect(error.source.hasSuffix("StaleVersion.xcdatamodeld/.xccurrentversion"))
        #expect(error.problems.first?.message.contains("'Stale 2.xcdatamodel'") == true)
        #expect(error.problems.first?.message.contains("versions: Stale.xcdatamodel") == true)
    }

    @Test func refusesXcode3BinaryModels() throws {
        let error = try failure("Legacy.xcdatamodel")
        #expect(error.source.hasSuffix("Legacy.xcdatamodel"))
        #expect(error.problems.first?.message.contains("Xcode 3") == true)
        #expect(error.problems.first?.message.contains("not supported") == true)
    }

    @Test func refusesPathsThatAreNoXcodeModel() throws {
        let missing = try failure("Missing.xcdatamodeld")
        #expect(missing.problems.first?.message.contains("does not exist") == true)
        let other = try #require(throws: ModelError.self) {
            try XcodeModelReader.readModel(at: fixture("GroceryDudeShuffled.xcdatamodel/contents.json"))
        }
        #expect(other.problems.first?.message.contains("not an Xcode model") == true)
    }

    // MARK: - Xcode 9+ era

    @Test func readsUniqueConstraintsAndFetchIndexes() throws {
        let model = try load("Library.xcdatamodel")
        #expect(model.name == "Library")
        let book = try #require(model.entity(named: "Book")).declaration
        #expect(book.uniqueConstraints == [["isbn", "edition"], ["slug"]])
        #expect(model.entity(named: "Author")?.uniqueConstraints == [["id"]])
        #expect(
            book.indexes == [
                IndexDescription(name: "byTitle", elements: [IndexElement("title")]),
                IndexDescription(
                    name: "newestEditionsFirst",
                    elements: [IndexElement("isbn"), IndexElement("edition", ascending: false)]),
                IndexDescription(name: "byPublisher", elements: [IndexElement("publisher")]),
            ])
        #expect(book.userInfo == ["relatedByAttribute": "slug"])
        #expect(try attribute(model, "Author", "name").defaultValue == .string(""))
        #expect(try attribute(model, "Book", "edition").defaultValue == .integer(1))
        let stars = try attribute(model, "Review", "stars")
        #expect(stars.validation.minimum == 1 && stars.validation.maximum == 5)
    }

    @Test func readsRelationshipKindsCountsAndDeleteRules() throws {
        let model = try load("Library.xcdatamodel")
        let authors = try relationship(model, "Book", "authors")
        #expect(authors.isToMany && !authors.isOptional && authors.minCount == 1 && authors.maxCount == 5)
        #expect(try relationship(model, "Author", "books").isToMany)  // many-to-many
        let chapters = try relationship(model, "Book", "chapters")
        #expect(chapters.isToMany && chapters.isOrdered && chapters.deleteRule == .cascade)
        let book = try relationship(model, "Chapter", "book")
        #expect(!book.isToMany && !book.isOptional && book.inverse == "chapters")
        #expect(authors.deleteRule == .nullify)
        #expect(try relationship(model, "Publisher", "books").deleteRule == .deny)
        #expect(try relationship(model, "Book", "reviews").deleteRule == .noAction)
        let manyToMany = try #require(model.entity(named: "Book")?.relationship(named: "authors"))
        let storage = StoreLayout(model: model, rules: SeedKitLayout()).storage(of: manyToMany)
        guard case .joinTable = storage else {
            Issue.record("a many-to-many relationship is kept in a join table, not \(storage)")
            return
        }
    }

    @Test func keepsFetchedPropertiesApartFromTemplatesAndIgnoresConfigurations() throws {
        let model = try load("Library.xcdatamodel")
        #expect(model.fetchRequestTemplates.isEmpty)  // the fetched property's request is not a template
        #expect(model.entity(named: "Publisher")?.relationships.map(\.name) == ["books"])
        #expect(model.entity(named: "Publisher")?.attributes.map(\.name) == ["name"])
        #expect(
            model.entity(named: "Publisher")?.declaration.fetchedProperties == [
                FetchedPropertyDescription(
                    name: "recentBooks", entity: "Book",
                    predicateFormat: "publisher == $FETCH_SOURCE AND published > $NOW")
            ])
    }

    // MARK: - Every attribute type and option

    @Test func readsEveryAttributeTypeWithItsDefault() throws {
        let model = try load("AllTypes.xcdatamodel")
        let expected: [(String, AttributeType, AttributeValue?)] = [
            ("small", .integer16, .integer(7)),
            ("medium", .integer32, .integer(42)),
            ("large", .integer64, .integer(9_007_199_254_740_993)),
            ("amount", .decimal, .decimal(try #require(Decimal(string: "12345678901234567890.123456789")))),
            ("ratio", .double, .double(2.5)),
            ("weight", .float, .double(0.25)),
            ("greeting", .string, .string("Fish & Chips <3")),
            ("flag", .boolean, .boolean(true)),
            ("created", .date, .date(try date("2001-01-01T00:00:00Z"))),
            ("deadline", .date, .date(try date("2003-01-01T00:00:00Z"))),
            ("photo", .binary, nil),
            ("token", .uuid, .uuid(try #require(UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")))),
            ("emptyToken", .uuid, nil),
            ("homepage", .uri, .uri(try #require(URL(string: "https://example.com/seed?lang=en")))),
            ("tags", .transformable, nil),
            ("archive", .transformable, nil),
        ]
        for (name, type, defaultValue) in expected {
            let declaration = try attribute(model, "Sample", name)
            #expect(declaration.type == type, "\(name)")
            #expect(declaration.defaultValue == defaultValue, "\(name)")
        }
        #expect(model.entity(named: "Sample")?.userInfo == ["purpose": "every attribute type and option"])
    }

    @Test func readsEveryKindOfValidationRule() throws {
        let model = try load("AllTypes.xcdatamodel")
        #expect(try attribute(model, "Sample", "small").validation == ValidationRules(minimum: -5, maximum: 300))
        #expect(try attribute(model, "Sample", "amount").validation == ValidationRules(minimum: 0, maximum: 1e21))
        #expect(try attribute(model, "Sample", "ratio").validation == ValidationRules(minimum: -1.5, maximum: 1e6))
        #expect(
            try attribute(model, "Sample", "greeting").validation
                == ValidationRules(minimumLength: 2, maximumLength: 40))
        #expect(
            try attribute(model, "Sample", "photo").validation
                == ValidationRules(minimumLength: 1, maximumLength: 1_048_576))
        #expect(try attribute(model, "Sample", "code").validation == ValidationRules(pattern: "[A-Z]{3}-[0-9]+"))
        // Date ranges are seconds since 2001-01-01, in either spelling Xcode has used.
        let created = try attribute(model, "Sample", "created").validation
        #expect(created.earliestDate == (try date("1970-01-01T00:00:00Z")))
        #expect(created.latestDate == (try date("2026-01-01T00:00:00Z")))
        let deadline = try attribute(model, "Sample", "deadline").validation
        #expect(deadline.earliestDate == Date(timeIntervalSinceReferenceDate: 0))
        #expect(deadline.latestDate == (try date("2001-01-02T00:00:00.500Z")))
    }

    @Test func readsEveryAttributeOption() throws {
        let model = try load("AllTypes.xcdatamodel")
        #expect(try !attribute(model, "Sample", "small").isOptional)
        #expect(try attribute(model, "Sample", "medium").isOptional)
        #expect(try attribute(model, "Sample", "photo").allowsExternalStorage)
        #expect(try attribute(model, "Sample", "notes").isIndexed)
        let tags = try attribute(model, "Sample", "tags")
        #expect(tags.valueTransformerName == "TagListCodec")
        #expect(try attribute(model, "Sample", "archive").valueTransformerName == nil)
        let scratch = try attribute(model, "Sample", "scratch")
        #expect(scratch.isTransient && scratch.type == .transformable)  // a transient Undefined
        #expect(try attribute(model, "Sample", "cachedLabel").isTransient)
        #expect(try !attribute(model, "Sample", "secret").isIndexed)
    }

    // MARK: - Inheritance and templates

    @Test func readsThreeLevelsOfInheritance() throws {
        let model = try load("Zoo.xcdatamodel")
        let organism = try #require(model.entity(named: "Organism"))
        let animal = try #require(model.entity(named: "Animal"))
        let mammal = try #require(model.entity(named: "Mammal"))
        let penguin = try #require(model.entity(named: "Penguin"))
        #expect(organism.isAbstract && animal.isAbstract && !mammal.isAbstract)
        #expect(animal.declaration.parent == "Organism" && mammal.declaration.parent == "Animal")
        #expect(penguin.declaration.parent == "Bird")
        #expect(model.root(of: penguin).name == "Organism" && model.root(of: mammal).name == "Organism")
        #expect(mammal.attribute(named: "name")?.declaringEntity == "Organism")
        #expect(mammal.attribute(named: "legs")?.declaration.defaultValue == .integer(4))
        #expect(penguin.attribute(named: "wingspan")?.declaringEntity == "Bird")
        #expect(mammal.relationship(named: "enclosure")?.declaringEntity == "Animal")
        #expect(mammal.uniqueConstraints == [["name"]])
        #expect(
            mammal.indexes == [IndexDescription(name: "byLegs", elements: [IndexElement("legs", ascending: false)])])
        let plant = try #require(model.entity(named: "Plant"))
        #expect(penguin.isKind(of: animal) && !plant.isKind(of: animal))
    }

    @Test func readsFetchRequestTemplates() throws {
        let model = try load("Zoo.xcdatamodel")
        #expect(
            model.fetchRequestTemplates == [
                FetchRequestTemplate(
                    name: "BigBirds", entity: "Bird", predicateFormat: "wingspan > $SPAN AND legs == 2"),
                FetchRequestTemplate(name: "EveryOrganism", entity: "Organism", predicateFormat: "TRUEPREDICATE"),
                FetchRequestTemplate(name: "MammalsNamed", entity: "Mammal", predicateFormat: "name == $NAME"),
            ])
    }

    // MARK: - Hashes

    @Test func orderUserInfoAndLayoutDoNotChangeTheHash() throws {
        let original = try load("GroceryDude.xcdatamodeld")
        let shuffled = try load("GroceryDudeShuffled.xcdatamodel")
        #expect(shuffled.versionHash == original.versionHash)
        #expect(
            shuffled.entity(named: "Item")?.attribute(named: "name")?.declaration.userInfo["mappedKeyName"] == "title")
    }

    @Test func aChangedTypeChangesTheHash() throws {
        let shuffled = try load("GroceryDudeShuffled.xcdatamodel")
        let retyped = try load("GroceryDudeRetyped.xcdatamodel")
        #expect(retyped.versionHash != shuffled.versionHash)
        #expect(retyped.entity(named: "Item")?.versionHash != shuffled.entity(named: "Item")?.versionHash)
        #expect(retyped.entity(named: "Unit")?.versionHash == shuffled.entity(named: "Unit")?.versionHash)
    }

    // MARK: - Errors

    @Test func malformedXMLNamesTheFileLineAndColumn() throws {
        let error = try failure("Malformed.xcdatamodel")
        #expect(error.source.hasSuffix("Malformed.xcdatamodel/contents"))
        #expect(error.problems.count == 1)
        let message = try #require(error.problems.first?.message)
        #expect(message.hasPrefix("cannot parse the XML: line 5, column "), "\(message)")
        #expect(message.contains("mismatch"), "\(message)")
    }

    @Test func invalidRelationshipsNameTheirLines() throws {
        let error = try failure("Invalid.xcdatamodel")
        #expect(error.source.hasSuffix("Invalid.xcdatamodel/contents"))
        let problems = error.problems.map(\.description)
        #expect(problems.contains("Owner.ghosts: line 6: destination entity 'Ghost' does not exist"), "\(problems)")
        #expect(
            problems.contains("Owner.pets: line 5: inverse 'Pet.owner' does not point back to 'Owner.pets'"),
            "\(problems)")
        #expect(
            problems.contains("Pet.unique constraint [nickname]: line 12: 'nickname' is not an attribute"),
            "\(problems)")
        #expect(problems.contains { $0.hasPrefix("Shelter.ent: line 18: 'ent' is reserved") }, "\(problems)")
        #expect(problems.count == 4, "\(problems)")
    }

    @Test func unsupportedDeclarationsAreAllReportedWithTheirLines() throws {
        let error = try failure("Unsupported.xcdatamodel")
        #expect(error.source.hasSuffix("Unsupported.xcdatamodel/contents"))
        #expect(
            error.problems.map(\.description) == [
                "Thing.handle: line 4: attribute type ObjectID is not supported",
                "Thing.mystery: line 5: attribute type Undefined is allowed on transient attributes only",
                "Thing.count: line 6: default value 'lots' is not a valid integer32 value",
                "Thing.when: line 7: default date 'now' is not a number of seconds since 2001-01-01",
                "Thing.parts: line 9: unknown deletionRule 'Explode'",
                "Thing.byLowercaseName: line 11: expression index elements are not supported",
                "line 14: fetch request 'Orphans' names unknown entity 'Nothing'",
            ])
    }

    @Test func refusesEntityDeclarations() throws {
        let error = try failure("EntityDeclarations.xcdatamodel")
        #expect(error.problems.first?.message.contains("entity declarations are not allowed") == true)
    }
}

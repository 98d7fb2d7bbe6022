// A model in the style of MagicalRecord's test models, written for these tests: userInfo keys on
// entities (relatedByAttribute), attributes (mappedKeyName with fall-backs, dateFormat) and
// relationships (mappedKeyName, relatedByAttribute, type), with an abstract parent whose concrete
// sub-entities nested records choose; and a way to import JSON into it with a plan of just the
// file and the entity.
import Foundation
import GraphStore

@testable import SeedImport

enum ConventionFixture {
    /// The model. Person's key is personID (its relatedByAttribute); Company matches by code (its
    /// relatedByAttribute); Tag matches by tagID (the default `<entity>ID`); Pet is abstract.
    static let model = """
        name: People
        entities:
          Person:
            attributes:
              personID: integer64
              fullName: {type: string, userInfo: {mappedKeyName: name.full}}
              nickname: {type: string, userInfo: {mappedKeyName: nick, mappedKeyName.1: alias, mappedKeyName.2: handle}}
              birthday: {type: date, userInfo: {dateFormat: dd.MM.yyyy}}
              joined: {type: date, userInfo: {dateFormat: UnixTime}}
              updated: date
              favouriteColour: {type: transformable, transformer: UIColorValueTransformer}
            relationships:
              employer: {destination: Company, inverse: staff, userInfo: {mappedKeyName: work.company}}
              tags: {destination: Tag, inverse: people, toMany: true}
              address: {destination: Address, inverse: resident}
              pets: {destination: Pet, inverse: owner, toMany: true, ordered: true, userInfo: {type: kind}}
            userInfo: {relatedByAttribute: personID}
          Company:
            attributes: {code: string, title: string}
            relationships:
              staff: {destination: Person, inverse: employer, toMany: true}
            userInfo: {relatedByAttribute: code}
          Tag:
            attributes: {tagID: string, label: string}
            relationships:
              people: {destination: Person, inverse: tags, toMany: true}
          Address:
            attributes: {addressID: integer32, street: string, city: string}
            relationships:
              resident: {destination: Person, inverse: address}
          Pet:
            abstract: true
            attributes: {petID: integer32, name: string}
            relationships:
              owner: {destination: Person, inverse: pets}
          Dog:
            parent: Pet
            attributes: {barks: boolean}
          Cat:
            parent: Pet
            attributes: {lives: integer16}
        """

    /// A folder holding the model, `files` and a plan importing each `(file, entity)` in turn
    /// with nothing else: the conventions do the rest.
    static func folder(files: [String: String], sources: [(file: String, entity: String)]) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("People.yaml", model)
        for (name, text) in files { try fixture.write(name, text) }
        try fixture.write("plan.yaml", plan(sources))
        return fixture
    }

    /// A plan of just files and entities, into People.sqlite.
    static func plan(_ sources: [(file: String, entity: String)]) -> String {
        "model: People.yaml\nstore: People.sqlite\nsources:\n"
            + sources.map { "  - {file: \($0.file), entity: \($0.entity)}\n" }.joined()
    }

    /// The model `yaml` describes.
    static func loadModel(_ yaml: String) throws -> ObjectModel {
        let fixture = try ImportFixture()
        try fixture.write("Model.yaml", yaml)
        return try ValidatedPlan.model(for: ImportPlan(model: fixture.path("Model.yaml")))
    }

    /// Rows of `sql` in the fixture's store.
    static func rows(_ fixture: ImportFixture, _ sql: String) throws -> [String] {
        try ImportFixture.rows(fixture.path("People.sqlite"), sql)
    }
}

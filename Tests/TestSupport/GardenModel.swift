// The garden model the store-layout tests run on, with one fill of every kind of value and
// relationship: shared by the tests of a second layout (DeepCopyTests/SecondLayout) and of Core
// Data's (CoreDataStoresTests), which add a relationship without an inverse or an external
// binary attribute.
import Foundation
import GraphStore

/// Bed ⟶ ordered plants ⟷ Plant.bed; Plant (price: Decimal, code: UUID) and its sub-entity
/// Herb; Plant.favorite → Plant without an inverse (a to-one to an entity with sub-entities);
/// Label.plants ⟷ Plant.labels, both ordered.
public enum GardenModel {
    /// The date one bed was planted (with a fraction of a second).
    public static let planted = Date(timeIntervalSince1970: 1_700_000_000.5)
    /// The bytes of the rose's photo, with `photo`.
    public static let photo = Data([0, 1, 2, 0xFF, 0x01, 0x02])

    /// The model; `visitors` adds Bed.visitors → Plant without an inverse, `photo` adds
    /// Plant.photo, binary data that allows external storage.
    public static func build(visitors: Bool = false, photo: Bool = false) throws -> ObjectModel {
        try ModelBuilder("Garden")
            .entity("Bed") { bed in
                bed.attribute("name", .string, optional: false)
                bed.attribute("planted", .date)
                bed.toMany("plants", "Plant", inverse: "bed", ordered: true)
                if visitors { bed.toMany("visitors", "Plant") }
                bed.unique("name")
            }
            .entity("Plant") { plant in
                plant.attribute("name", .string, optional: false)
                plant.attribute("price", .decimal)
                plant.attribute("code", .uuid)
                if photo { plant.attribute("photo", .binary, externalStorage: true) }
                plant.toOne("bed", "Bed", inverse: "plants")
                plant.toOne("favorite", "Plant")
                plant.toMany("labels", "Label", inverse: "plants", ordered: true)
                plant.unique("name")
            }
            .entity("Herb", parent: "Plant") { $0.attribute("aroma", .string) }
            .entity("Label") { label in
                label.attribute("text", .string, optional: false)
                label.toMany("plants", "Plant", inverse: "labels", ordered: true)
                label.unique("text")
            }
            .build()
    }

    /// Two beds, three plants (one a herb), two labels, every relationship set (the ones `build`
    /// added included).
    public static func fill(_ store: PersistentStore, visitors: Bool = false, photo: Bool = false) throws {
        let context = try ObjectContext(store: store)
        let north = try context.insert("Bed")
        try north.set("name", "North")
        try north.set("planted", planted)
        let south = try context.insert("Bed")
        try south.set("name", "South")
        let mint = try context.insert("Herb")
        try mint.set("name", "mint")
        try mint.set("aroma", "fresh")
        try mint.set("price", Decimal(string: "1.25"))
        let rose = try context.insert("Plant")
        try rose.set("name", "rose")
        try rose.set("price", Decimal(string: "7.5"))
        try rose.set("code", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        if photo { try rose.set("photo", Self.photo) }
        let fern = try context.insert("Plant")
        try fern.set("name", "fern")
        try north.setRelatedObjects("plants", to: [rose, mint, fern])
        try rose.setRelated("favorite", to: mint)
        if visitors { try south.add(fern, to: "visitors") }
        let green = try context.insert("Label")
        try green.set("text", "green")
        let sweet = try context.insert("Label")
        try sweet.set("text", "sweet")
        try green.setRelatedObjects("plants", to: [fern, mint])
        try sweet.setRelatedObjects("plants", to: [rose, mint])
        try context.save()
    }

    /// The differences `StoreDiff(filled, edited)` reports after ``editRose(in:)``.
    public static let roseEdits = ["Plant[rose].favorite: mint ≠ nil", "Plant[rose].price: 7.5 ≠ 3"]

    /// Changes the rose of a filled store: its price becomes 3, its favorite is cleared (what a
    /// merge from the filled source must put back).
    public static func editRose(in store: PersistentStore) throws {
        let context = try ObjectContext(store: store)
        guard let rose = try context.fetch(FetchRequest(entityName: "Plant", predicate: .key("name") == "rose")).first
        else { throw ObjectError(.notFound, entity: "Plant") }
        try rose.set("price", Decimal(3))
        try rose.setRelated("favorite", to: nil)
        try context.save()
    }
}

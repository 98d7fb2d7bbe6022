// StoreReading: everything a reader of a store from elsewhere does, as the store fuzzer does it
// to each mutant — open it read-only (a store that holds no model, in Core Data's layout, with
// the model given for such stores), read its metadata and per-entity counts (`inspect`), read
// every object of every entity with every attribute and relationship, and diff the store against
// itself — and a short digest of the outcome: what was read, or the error that stopped it.
// Invariant: an error thrown while reading is an outcome, never a failure of the fuzzer; a
// failure of SeedKit to refuse cleanly is a crash or hang, which the CrashGuard catches.
import ArgumentParser
import DeepCopy
import Foundation
import GraphStore
import ModelFiles

enum StoreReading {
    /// At most this many objects of one entity are read (a mutant's rows are real rows of a
    /// small file, so this only bounds the work per input).
    private static let objectsPerEntity = 2000

    /// Writes `input` to `path` (removing any side file a previous input left there) and reads
    /// it as a server would; returns the digest of what happened: `read …` with the counts, a
    /// checksum of the values and the number of differences, or `error <type>.<kind>: <reason>`
    /// for a StoreError or ObjectError (`error <type>: <error>` for any other) — or, when the
    /// reading changed the file's bytes or left a side file beside it, `changed <what>`.
    ///
    /// A store that holds no model (Core Data's layout) is read with `storeModel` when `model` is nil.
    static func read(_ input: [UInt8], at path: String, model: ObjectModel?, storeModel: ObjectModel?) -> String {
        try? StoreFiles.remove(path)
        guard FileManager.default.createFile(atPath: path, contents: Data(input)) else {
            return "error FileManager: cannot write \(path)"
        }
        let digest = readStore(at: path, model: model, storeModel: storeModel)
        if let change = change(at: path, from: input) { return "changed \(change) (after: \(digest.prefix(200)))" }
        return digest
    }

    /// What reading changed at `path`, which held `input`: its bytes, or a side file made beside it.
    private static func change(at path: String, from input: [UInt8]) -> String? {
        guard let bytes = FileManager.default.contents(atPath: path), Array(bytes) == input else {
            return "the file's bytes"
        }
        let made = StoreFiles.sideFiles(of: path).filter { FileManager.default.fileExists(atPath: $0) }
        return made.isEmpty
            ? nil : "a side file: " + made.map { String($0.dropFirst(path.count)) }.joined(separator: ", ")
    }

    /// The model at `path` (a model file or an Xcode model), or nil without a path.
    ///
    /// - Throws: `ExitCode(1)`, after saying why, when it cannot be loaded.
    static func model(at path: String?) throws -> ObjectModel? {
        guard let path else { return nil }
        do {
            return try ModelLoader.load(from: path)
        } catch {
            printError("seedkit-fuzz: \(error)")
            throw ExitCode(1)
        }
    }

    /// Opens the store at `path` read-only (with `model`, or its own, or `storeModel` when it holds
    /// none) and reads everything; the outcome's digest.
    private static func readStore(at path: String, model: ObjectModel?, storeModel: ObjectModel?) -> String {
        do {
            var options = StoreOptions()
            options.readOnly = true
            let store: PersistentStore
            do {
                store = try PersistentStore.open(at: path, model: model, options: options)
            } catch let error as StoreError where model == nil && storeModel != nil && error.kind == .modelNotStored {
                store = try PersistentStore.open(at: path, model: storeModel, options: options)
            }
            _ = try store.metadata()
            let counts = try store.objectCounts()
            let values = try readObjects(of: store)
            let differences = try StoreDiff(store, store).differences(limit: 10)
            return "read \(counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")) "
                + "values \(values) differences \(differences.count)"
        } catch let error as StoreError {
            return "error StoreError.\(caseName(error.kind)): \(reason(error.kind))"
        } catch let error as ObjectError {
            return "error ObjectError.\(caseName(error.kind)): \(error)"
        } catch {
            return "error \(type(of: error)): \(error)"
        }
    }

    /// Reads every object of every entity, each attribute and relationship; returns a checksum
    /// of what was read (the same for the same input in every run).
    private static func readObjects(of store: PersistentStore) throws -> Int {
        let context = try ObjectContext(store: store)
        var checksum = 0
        for entity in store.model.entities where !entity.isAbstract {
            var request = FetchRequest(entityName: entity.name)
            request.fetchLimit = objectsPerEntity
            for object in try context.fetch(request) {
                // A damaged row may name another entity than the one fetched: read it as what it is.
                let entity = object.entity
                for index in entity.attributes.indices {
                    checksum = String(describing: try object.value(at: index)).utf8.reduce(checksum) {
                        $0 &* 31 &+ Int($1)
                    }
                }
                for relationship in entity.relationships where !relationship.isTransient {
                    if relationship.isToMany {
                        checksum &+= try object.relatedObjects(relationship.name).count
                    } else {
                        checksum &+= try object.related(relationship.name) == nil ? 0 : 1
                    }
                }
            }
            context.reset()
        }
        return checksum
    }

    /// The name of an error kind's case, without its associated values.
    private static func caseName(_ kind: some Sendable) -> String {
        String(String(describing: kind).prefix { $0 != "(" })
    }

    /// The error's kind and reason, without the store's path.
    private static func reason(_ kind: StoreError.Kind) -> String {
        "\(StoreError(kind, path: "").description.dropFirst(2))"
    }
}

// Codecs for transformable attributes and the process-wide registry that finds them by name.
// Invariant: the registry is safe to use from any thread (guarded by a Mutex).
import Foundation
import Synchronization

/// Turns a transformable attribute's value into bytes for the store, and back.
///
/// ```swift
/// TransformableCodecs.shared.register(CodableTransformableCodec<[String]>(), as: "StringList")
/// ```
public protocol TransformableCodec: Sendable {
    /// The bytes that store `value`.
    func encode(_ value: any Sendable) throws -> Data
    /// The value stored as `data`.
    func decode(_ data: Data) throws -> any Sendable
}

/// The error a codec throws for a value it cannot handle.
public struct TransformableCodecError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// Stores `Data` values as they are: the default codec.
public struct DataTransformableCodec: TransformableCodec {
    /// A pass-through codec.
    public init() {}

    /// The value itself, which must be `Data` or `[UInt8]`.
    public func encode(_ value: any Sendable) throws -> Data {
        if let data = value as? Data { return data }
        if let bytes = value as? [UInt8] { return Data(bytes) }
        throw TransformableCodecError("the Data codec stores Data values, not \(type(of: value))")
    }

    /// The bytes as `Data`.
    public func decode(_ data: Data) throws -> any Sendable { data }
}

/// Stores any `Codable` value as JSON.
public struct CodableTransformableCodec<Value: Codable & Sendable>: TransformableCodec {
    /// A codec for `Value`.
    public init() {}

    /// The value as sorted-key JSON.
    public func encode(_ value: any Sendable) throws -> Data {
        guard let typed = value as? Value else {
            throw TransformableCodecError("expected \(Value.self), got \(type(of: value))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(typed)
    }

    /// The value decoded from JSON.
    public func decode(_ data: Data) throws -> any Sendable {
        try JSONDecoder().decode(Value.self, from: data)
    }
}

/// The registry of transformable codecs, by the name attributes give in `valueTransformerName`.
public final class TransformableCodecs: Sendable {
    /// The name of the codec used when an attribute names none.
    public static let defaultName = "Data"
    /// The process-wide registry.
    public static let shared = TransformableCodecs()

    private let codecs = Mutex<[String: any TransformableCodec]>([defaultName: DataTransformableCodec()])

    /// Registers `codec` under `name`, replacing any codec of that name.
    public func register(_ codec: any TransformableCodec, as name: String) {
        codecs.withLock { $0[name] = codec }
    }

    /// The codec registered as `name` (the default codec when `name` is nil).
    public func codec(named name: String?) -> (any TransformableCodec)? {
        codecs.withLock { $0[name ?? Self.defaultName] }
    }
}

// Coercion of the text-like types: string, UUID, URI, binary (base64, hex) and transformable
// (the codec's encoded bytes).
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite("Coercion: string, UUID, URI, binary, transformable")
struct CoercionTextTypeTests: CoercionTesting {
    @Test("strings are kept as written unless trim is set")
    func strings() throws {
        let plain = try makeCoercer(.string)
        #expect(coerced(plain, "  hello ") == .string("  hello "))
        #expect(coerced(plain, "") == .string(""))
        #expect(coerced(plain, "a\"b\nc") == .string("a\"b\nc"))
        let trimmed = try makeCoercer(.string) { $0.trim = true }
        #expect(coerced(trimmed, "\u{00A0}\u{3000} héllo wörld\u{2003}\u{202F}\n") == .string("héllo wörld"))
        #expect(coerced(trimmed, "\u{2020}x\u{2020}") == .string("\u{2020}x\u{2020}"))
        #expect(coerced(trimmed, " \u{0085}\u{1680}\u{2028}\u{2029}\u{205F}") == .string(""))
        #expect(try jsonOutcome(plain, "2.50").get() == .string("2.50"))
        #expect(try jsonOutcome(plain, "true").get() == .string("true"))
        #expect(try jsonOutcome(plain, #""caf\u00e9""#).get() == .string("café"))
    }

    @Test("UUIDs in canonical form, any case")
    func uuids() throws {
        let coercer = try makeCoercer(.uuid)
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(coerced(coercer, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") == .uuid(uuid))
        #expect(coerced(coercer, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f") == .uuid(uuid))
        #expect(coerced(coercer, "") == nil)
        for text in [
            "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "E621E1F8C36C495A93FC0C247A3E6E5F",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "E621E1F8C-36C-495A-93FC-0C247A3E6E5F",
            "urn:uuid:E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5",
        ] {
            #expect(failure(coercer, text) == "\(CoercionError.quoted(text)) is not a UUID")
        }
    }

    @Test("URIs need a scheme and valid characters")
    func uris() throws {
        let coercer = try makeCoercer(.uri)
        #expect(
            coerced(coercer, "https://example.com/a?b=c#d")
                == .uri(try #require(URL(string: "https://example.com/a?b=c#d"))))
        #expect(
            coerced(coercer, "mailto:someone@example.com")
                == .uri(try #require(URL(string: "mailto:someone@example.com"))))
        #expect(coerced(coercer, "urn:isbn:0451450523") == .uri(try #require(URL(string: "urn:isbn:0451450523"))))
        #expect(failure(coercer, "/relative/path") == #""/relative/path" is not a URI (it has no scheme, like https:)"#)
        #expect(failure(coercer, "https://exa mple.com") == #""https://exa mple.com" is not a URI"#)
        #expect(coerced(coercer, "") == nil)
    }

    @Test("base64: padding optional, white space inside ignored")
    func base64() throws {
        let coercer = try makeCoercer(.binary)
        let hello = AttributeValue.binary(Data("hello".utf8))
        #expect(coerced(coercer, "aGVsbG8=") == hello)
        #expect(coerced(coercer, "aGVsbG8") == hello)
        #expect(coerced(coercer, "aGVs\r\nbG8=") == hello)
        #expect(coerced(coercer, "aGk=") == .binary(Data("hi".utf8)))
        #expect(coerced(coercer, "+/8=") == .binary(Data([0xFB, 0xFF])))
        #expect(coerced(coercer, "") == .binary(Data()))
        for text in ["aGVsbG8==", "aGVsbG8=x", "a", "aGVsb", "====", "aGV-bG8", "aGVs bG8_"] {
            #expect(failure(coercer, text) == "\(CoercionError.quoted(text)) is not base64")
        }
    }

    @Test("hex: pairs of digits, any case")
    func hex() throws {
        let coercer = try makeCoercer(.binary) { $0.binaryEncoding = "hex" }
        #expect(coerced(coercer, "68656C6c6F") == .binary(Data("hello".utf8)))
        #expect(coerced(coercer, "de ad be ef") == .binary(Data([0xDE, 0xAD, 0xBE, 0xEF])))
        #expect(failure(coercer, "686") == #""686" is not hex (odd number of hex digits)"#)
        #expect(failure(coercer, "zz") == #""zz" is not hex"#)
        #expect(failure(coercer, "0x68") == #""0x68" is not hex"#)
    }

    @Test("binary setup errors")
    func binarySetup() {
        #expect(
            setupFailure(.binary) { $0.binaryEncoding = "base32" }
                == #"unknown binary encoding "base32" (expected base64 or hex)"#)
        #expect(
            setupFailure(.string) { $0.binaryEncoding = "hex" }
                == "a binary encoding applies to binary and transformable attributes only")
    }

    @Test("transformable values are the codec's encoded bytes, checked by the codec")
    func transformable() throws {
        TransformableCodecs.shared.register(CodableTransformableCodec<[String]>(), as: "CoercionTestsStringList")
        let list = try makeCoercer(.transformable, transformer: "CoercionTestsStringList")
        let encoded = Data(#"["a","b"]"#.utf8)
        #expect(coerced(list, encoded.base64EncodedString()) == .binary(encoded))
        let reason = try #require(failure(list, "bm9wZQ=="))
        #expect(
            reason.hasPrefix(#""bm9wZQ==" is not a CoercionTestsStringList value in base64 (the codec rejects it: "#))
        #expect(failure(list, "!!") == #""!!" is not a CoercionTestsStringList value in base64"#)

        let data = try makeCoercer(.transformable) { $0.binaryEncoding = "hex" }
        #expect(coerced(data, "0102") == .binary(Data([1, 2])))

        #expect(
            setupFailure(.transformable, transformer: "CoercionTestsMissing")
                == #"no transformable codec is registered as "CoercionTestsMissing""#)
    }
}

// The XML property-list reader: `.xccurrentversion` files, every element type, CF$UID
// dictionaries, the Apple DOCTYPE accepted without being fetched, and refusals with their line.
import Foundation
import PropertyLists
import Testing

@Suite struct XMLPropertyListTests {
    static func read(_ text: String, limits: PropertyListLimits = PropertyListLimits()) throws(PropertyListError)
        -> PropertyListValue
    {
        try XMLPropertyListReader(limits: limits).read(Data(text.utf8))
    }

    static func error(_ text: String, limits: PropertyListLimits = PropertyListLimits()) -> PropertyListError? {
        do {
            _ = try read(text, limits: limits)
            Issue.record("read without error: \(text)")
            return nil
        } catch {
            return error
        }
    }

    @Test func currentVersionFile() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>Model 3.xcdatamodel</string>
            </dict>
            </plist>
            """
        #expect(try Self.read(text) == ["_XCCurrentVersionName": "Model 3.xcdatamodel"])
        // The generic reader picks XML for it.
        #expect(try PropertyListReader().read(Data(text.utf8))["_XCCurrentVersionName"] == "Model 3.xcdatamodel")
    }

    @Test func everyElementType() throws {
        let text = """
            <plist version="1.0"><dict>
              <key>string</key><string>a &amp; b &lt;c&gt; &#233;<![CDATA[ <raw> ]]></string>
              <key>empty</key><string/>
              <key>integer</key><integer> -42 </integer>
              <key>hex</key><integer>0x1F</integer>
              <key>minimum</key><integer>-9223372036854775808</integer>
              <key>real</key><real>2.5</real>
              <key>infinite</key><real>+infinity</real>
              <key>yes</key><true/>
              <key>no</key><false/>
              <key>date</key><date>2001-01-02T00:00:01Z</date>
              <key>epoch</key><date>1970-01-01T00:00:00Z</date>
              <key>data</key><data>
                AAEC
                Aw==
              </data>
              <key>array</key><array><integer>1</integer><array/><dict/></array>
              <key>uid</key><dict><key>CF$UID</key><integer>7</integer></dict>
            </dict></plist>
            """
        let expected: PropertyListValue = [
            "string": "a & b <c> é <raw> ", "empty": "", "integer": -42, "hex": 31, "minimum": .integer(Int64.min),
            "real": 2.5, "infinite": .real(.infinity), "yes": true, "no": false,
            "date": .date(Date(timeIntervalSinceReferenceDate: 86_401)),
            "epoch": .date(Date(timeIntervalSince1970: 0)), "data": .data(Data([0, 1, 2, 3])),
            "array": [1, [], [:]], "uid": .uid(7),
        ]
        let value = try Self.read(text)
        #expect(value == expected)
        #expect(value.dictionaryValue?.keys.first == "string")
        // A value without <plist> around it is read too.
        #expect(try Self.read("<array><string>x</string></array>") == ["x"])
    }

    @Test func refusalsNameTheLine() {
        let notWellFormed = Self.error("<plist>\n<dict>\n<key>a</key>\n<string>x</dict>\n</plist>")
        #expect(notWellFormed?.position == .line(4, column: 17))
        guard case .invalidXML(let message)? = notWellFormed?.reason else {
            Issue.record("\(String(describing: notWellFormed))")
            return
        }
        #expect(message.contains("mismatch"))
        #expect(
            Self.error("<plist>\n<dict>\n<string>x</string>\n</dict></plist>")
                == PropertyListError(
                    .invalidXML("<dict> holds <string> where a <key> belongs"), at: .line(3, column: 0)))
        #expect(
            Self.error("<plist><dict><key>a</key></dict></plist>")?.reason == .invalidXML("the key 'a' has no value"))
        #expect(
            Self.error("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>")?.reason
                == .duplicateKey("a"))
        #expect(
            Self.error("<plist>\n<set/></plist>")
                == PropertyListError(.invalidXML("<set> is not a property-list element"), at: .line(2, column: 0)))
        #expect(Self.error("<plist><integer>12a</integer></plist>")?.reason == .invalidXML("'12a' is not an integer"))
        #expect(Self.error("<plist><integer>9223372036854775808</integer></plist>")?.reason == .integerOutOfRange)
        #expect(
            Self.error("<plist><date>2001-13-01T00:00:00Z</date></plist>")?.reason
                == .invalidXML("'2001-13-01T00:00:00Z' is not an ISO 8601 date (YYYY-MM-DDTHH:MM:SSZ)"))
        #expect(Self.error("<plist><data>!!!</data></plist>")?.reason == .invalidXML("'!!!' is not base64 data"))
        #expect(Self.error("<plist><true>x</true></plist>")?.reason == .invalidXML("<true/> must be empty"))
        #expect(
            Self.error("<plist><string>a<b/></string></plist>")?.reason == .invalidXML("<string> may hold text only"))
        #expect(Self.error("<plist><true/><false/></plist>")?.reason == .invalidXML("<plist> holds 2 values, not one"))
    }

    @Test func entitiesAreNeverDeclaredOrFetched() {
        let internalEntity = "<!DOCTYPE plist [<!ENTITY e \"boom\">]><plist><string>&e;</string></plist>"
        #expect(Self.error(internalEntity)?.reason == .invalidXML("entity declarations are not allowed"))
        let externalEntity =
            "<!DOCTYPE plist [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><plist><string>&e;</string></plist>"
        #expect(Self.error(externalEntity)?.reason == .invalidXML("entity declarations are not allowed"))
    }

    @Test func limits() {
        let deep = String(repeating: "<array>", count: 65) + String(repeating: "</array>", count: 65)
        #expect(Self.error(deep)?.reason == .tooDeep(limit: 64))
        let wide = "<array>" + String(repeating: "<true/>", count: 50) + "</array>"
        #expect(Self.error(wide, limits: PropertyListLimits(maxObjects: 20))?.reason == .tooManyValues(limit: 20))
        #expect(
            Self.error(wide, limits: PropertyListLimits(maxInputSize: 100))?.reason
                == .inputTooLarge(size: wide.utf8.count, limit: 100))
    }
}

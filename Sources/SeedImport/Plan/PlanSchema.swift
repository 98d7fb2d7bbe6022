// The JSON Schema of plan files (docs/PlanFormat.md, "Editors"): what editors use to complete and
// check plans. `seedkit plan schema` prints it and schemas/seedkit-plan.schema.json holds the same
// bytes (a test compares them, and checks the schema's keys against the decoder's and every plan in
// SeedData/ and docs/ against the schema). Edit both together when the format gains a key.

/// The JSON Schema (draft 2020-12) of plan files.
///
/// ```swift
/// print(PlanSchema.json, terminator: "")   // what `seedkit plan schema` prints
/// ```
public enum PlanSchema {
    /// The schema's text: pretty JSON ending in a newline.
    public static let json = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "SeedKit plan",
          "description": "A SeedKit import plan (YAML or JSON): the model, the target store, the run's policies and the sources in order. See docs/PlanFormat.md. A key whose value is null is the same as a key left out.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "model": {
              "$ref": "#/$defs/text",
              "description": "The model: .xcdatamodeld, .xcdatamodel, or a model .json/.yaml file, relative to the plan's folder."
            },
            "store": {
              "$ref": "#/$defs/text",
              "description": "The default target store, relative to the plan's folder; the command line may override it."
            },
            "layout": {
              "enum": ["seedkit", "core-data", null],
              "description": "The layout of a new store: seedkit (default) or core-data, a store a Core Data app opens without migration (needs an Xcode model). An existing store keeps its layout."
            },
            "template": {
              "$ref": "#/$defs/text",
              "description": "An empty Core Data store the app made for the model, relative to the plan's folder: a new store starts as a copy of it (core-data layout)."
            },
            "seed": {
              "type": ["object", "null"],
              "description": "Seed metadata written to the store.",
              "additionalProperties": false,
              "properties": {
                "version": {
                  "$ref": "#/$defs/text",
                  "description": "Written to the store's metadata as seed.version (taken as written: 1.10 is the text 1.10)."
                }
              }
            },
            "batchSize": {
              "$ref": "#/$defs/wholeNumber",
              "description": "Records per save (at least 1; default 5000)."
            },
            "onError": {
              "enum": ["abort", "skip", null],
              "description": "abort (default): the first bad record stops the run and nothing of it remains; skip: bad records are rejected and the run goes on."
            },
            "maxErrors": {
              "$ref": "#/$defs/wholeNumber",
              "description": "With onError: skip, the run stops and rolls back after this many rejects (0 or more; default 100)."
            },
            "rejects": {
              "$ref": "#/$defs/text",
              "description": "With onError: skip, a JSON-lines file receiving each rejected record."
            },
            "sources": {
              "type": ["array", "null"],
              "description": "The sources, imported in this order.",
              "items": { "$ref": "#/$defs/source" }
            }
          },
          "$defs": {
            "text": {
              "description": "A text, taken as written: numbers and Booleans are texts too.",
              "type": ["string", "number", "boolean", "null"]
            },
            "requiredText": {
              "type": ["string", "number", "boolean"]
            },
            "textList": {
              "description": "One text or a list of texts.",
              "anyOf": [
                { "$ref": "#/$defs/text" },
                { "type": "array", "items": { "type": ["string", "number", "boolean", "null"] } }
              ]
            },
            "wholeNumber": {
              "description": "A whole number in any YAML form: 5000, 5_000, 0x1388.",
              "anyOf": [
                { "type": ["integer", "null"] },
                { "type": "string", "pattern": "^[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|0|[1-9][0-9_]*)$" }
              ]
            },
            "flag": {
              "description": "true or false; also yes/no and on/off, in any case.",
              "anyOf": [
                { "type": ["boolean", "null"] },
                { "type": "string", "pattern": "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|[Oo][Nn]|[Oo][Ff][Ff])$" }
              ]
            },
            "onConflict": {
              "enum": ["update", "keep", "fail", null],
              "description": "When a record's key matches an object: update (mapped attributes only; default), keep, or fail."
            },
            "entityField": {
              "$ref": "#/$defs/text",
              "description": "The field naming the entity each record becomes: entity or one of its concrete sub-entities (entity may then be abstract). seedkit export writes it as the column entity."
            },
            "key": {
              "$ref": "#/$defs/textList",
              "description": "The attributes that identify an existing object; left out, every record inserts a new object."
            },
            "attributes": {
              "type": ["object", "null"],
              "description": "Attribute name to a field, or to a mapping of options; left out, every stored attribute is read by convention.",
              "additionalProperties": { "$ref": "#/$defs/attributeMapping" }
            },
            "relationships": {
              "type": ["object", "null"],
              "description": "Relationship name to a field, or to a mapping of options.",
              "additionalProperties": { "$ref": "#/$defs/relationshipMapping" }
            },
            "source": {
              "type": "object",
              "description": "A source file and how its records become objects.",
              "additionalProperties": false,
              "required": ["file", "entity"],
              "properties": {
                "file": {
                  "$ref": "#/$defs/requiredText",
                  "description": "The file to import, relative to the plan's folder."
                },
                "format": {
                  "enum": ["csv", "tsv", "json", "ndjson", "xml", null],
                  "description": "The file's format; default from the extension (csv; tsv, tab; json; ndjson, jsonl; xml)."
                },
                "csv": {
                  "type": ["object", "null"],
                  "description": "The CSV/TSV dialect (RFC 4180 by default).",
                  "additionalProperties": false,
                  "properties": {
                    "delimiter": { "$ref": "#/$defs/text", "description": "One ASCII character, not a line break (default , or tab for tsv)." },
                    "quote": { "$ref": "#/$defs/text", "description": "One ASCII character, or \"\" for no quoting (default \")." },
                    "header": { "$ref": "#/$defs/flag", "description": "Whether the first row names the columns (default true)." },
                    "allowRagged": { "$ref": "#/$defs/flag", "description": "Whether rows may have more or fewer fields than the header (default false)." },
                    "strict": { "$ref": "#/$defs/flag", "description": "Whether a quote inside an unquoted field is an error rather than a literal character (default false)." }
                  }
                },
                "records": {
                  "$ref": "#/$defs/text",
                  "description": "Which values are records: JSON items[*], XML catalog/item (not for CSV, TSV or NDJSON)."
                },
                "entity": {
                  "$ref": "#/$defs/requiredText",
                  "description": "The entity each record becomes (not abstract), or with entityField the entity whose sub-entities records name."
                },
                "entityField": { "$ref": "#/$defs/entityField" },
                "key": { "$ref": "#/$defs/key" },
                "onConflict": { "$ref": "#/$defs/onConflict" },
                "attributes": { "$ref": "#/$defs/attributes" },
                "relationships": { "$ref": "#/$defs/relationships" }
              }
            },
            "attributeMapping": {
              "anyOf": [
                {
                  "$ref": "#/$defs/text",
                  "description": "The field holding the value; null reads the conventional field (mappedKeyName, else the attribute's name)."
                },
                {
                  "type": "object",
                  "additionalProperties": false,
                  "properties": {
                    "field": { "$ref": "#/$defs/text", "description": "The field path (default: mappedKeyName, else the attribute's name)." },
                    "value": { "$ref": "#/$defs/text", "description": "A constant, coerced like a field's text; not with field or default." },
                    "default": { "$ref": "#/$defs/text", "description": "The text used when the field is missing or null." },
                    "date": {
                      "description": "Date attributes: iso8601 (default), epoch, epoch-ms, or a pattern such as dd/MM/yyyy HH:mm.",
                      "anyOf": [{ "enum": ["iso8601", "epoch", "epoch-ms"] }, { "$ref": "#/$defs/text" }]
                    },
                    "true": { "$ref": "#/$defs/textList", "description": "Boolean attributes: the words meaning true (default true, yes, 1, y, on)." },
                    "false": { "$ref": "#/$defs/textList", "description": "Boolean attributes: the words meaning false (default false, no, 0, n, off)." },
                    "null": { "$ref": "#/$defs/textList", "description": "Texts meaning null, such as \"\" or NULL." },
                    "trim": { "$ref": "#/$defs/flag", "description": "Whether white space around the text is removed." },
                    "binary": { "enum": ["base64", "hex", null], "description": "Binary attributes: base64 (default) or hex." }
                  }
                }
              ]
            },
            "relationshipMapping": {
              "anyOf": [
                {
                  "$ref": "#/$defs/text",
                  "description": "The field holding the destination's key(s); null reads the conventional field (mappedKeyName, else the relationship's name)."
                },
                {
                  "type": "object",
                  "additionalProperties": false,
                  "properties": {
                    "field": { "$ref": "#/$defs/text", "description": "The field holding the destination key(s), or the nested record(s) (default: mappedKeyName, else the relationship's name)." },
                    "match": { "$ref": "#/$defs/textList", "description": "The destination attribute(s) the field's values match." },
                    "missing": {
                      "enum": ["create", "reject", "ignore", null],
                      "description": "A reference to a destination that does not exist: create (default), reject, or ignore."
                    },
                    "split": {
                      "anyOf": [
                        { "$ref": "#/$defs/text", "description": "To-many text fields: the separator between keys." },
                        {
                          "type": "object",
                          "additionalProperties": false,
                          "properties": { "pattern": { "$ref": "#/$defs/text", "description": "PREFIX*SUFFIX around each key, such as <*> for <a><b>." } }
                        }
                      ]
                    },
                    "null": { "$ref": "#/$defs/textList", "description": "Texts meaning no destination, such as NULL or \"\"." },
                    "members": { "enum": ["add", "replace", null], "description": "To-many updates: add (default) to the members, or replace them." },
                    "nested": { "$ref": "#/$defs/nested" }
                  }
                }
              ]
            },
            "nested": {
              "type": ["object", "null"],
              "description": "Import the record(s) under field as destination objects.",
              "additionalProperties": false,
              "required": ["entity"],
              "properties": {
                "entity": {
                  "$ref": "#/$defs/requiredText",
                  "description": "The destination entity or one of its sub-entities (not abstract, unless entityField names each record's)."
                },
                "entityField": { "$ref": "#/$defs/entityField" },
                "key": { "$ref": "#/$defs/key" },
                "onConflict": { "$ref": "#/$defs/onConflict" },
                "attributes": { "$ref": "#/$defs/attributes" },
                "relationships": { "$ref": "#/$defs/relationships" }
              }
            }
          }
        }

        """#
}

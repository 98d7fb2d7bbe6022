// Checks one attribute declaration on its own: default value, options and validation rules fit its type.

/// The problems of a single attribute declaration.
enum AttributeChecks {
    /// Messages describing what is wrong with `attribute`; empty when nothing is.
    static func problems(in attribute: AttributeDescription) -> [String] {
        var problems: [String] = []
        let type = attribute.type
        if let value = attribute.defaultValue {
            if !value.matches(type) {
                problems.append("default value \(value) (\(value.kindName)) does not fit type \(type.rawValue)")
            } else if case .integer(let integer) = value, let range = type.integerRange, !range.contains(integer) {
                problems.append("default value \(integer) is out of range for \(type.rawValue)")
            }
        }
        if attribute.allowsExternalStorage && type != .binary {
            problems.append("external storage applies to binary attributes only")
        }
        if attribute.valueTransformerName != nil && type != .transformable {
            problems.append("a value transformer applies to transformable attributes only")
        }
        if attribute.isTransient && attribute.isIndexed {
            problems.append("a transient attribute cannot be indexed")
        }
        problems += ruleProblems(attribute.validation, type: type)
        return problems
    }

    private static func ruleProblems(_ rules: ValidationRules, type: AttributeType) -> [String] {
        var problems: [String] = []
        if rules.minimum != nil || rules.maximum != nil {
            if !type.isNumeric {
                problems.append("minimum/maximum value rules apply to numeric attributes only")
            } else if let minimum = rules.minimum, let maximum = rules.maximum, minimum > maximum {
                problems.append("minimum value \(minimum) exceeds maximum value \(maximum)")
            }
        }
        if rules.minimumLength != nil || rules.maximumLength != nil {
            if type != .string && type != .binary {
                problems.append("length rules apply to string and binary attributes only")
            } else if (rules.minimumLength ?? 0) < 0 || (rules.maximumLength ?? 0) < 0 {
                problems.append("lengths cannot be negative")
            } else if let minimum = rules.minimumLength, let maximum = rules.maximumLength, minimum > maximum {
                problems.append("minimum length \(minimum) exceeds maximum length \(maximum)")
            }
        }
        if let pattern = rules.pattern {
            if type != .string {
                problems.append("a regular expression rule applies to string attributes only")
            } else if (try? Regex(pattern)) == nil {
                problems.append("regular expression '\(pattern)' does not compile")
            }
        }
        if rules.earliestDate != nil || rules.latestDate != nil {
            if type != .date {
                problems.append("date range rules apply to date attributes only")
            } else if let earliest = rules.earliestDate, let latest = rules.latestDate, earliest > latest {
                problems.append("earliest date is after latest date")
            }
        }
        return problems
    }
}

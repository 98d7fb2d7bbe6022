// Counts in the tool's English output: "1 record", "2 records", "0 records".

/// A count followed by its noun, singular for exactly one.
///
/// `counted(1, "record")` is `"1 record"`; `counted(3, "entity", "entities")` is `"3 entities"`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}

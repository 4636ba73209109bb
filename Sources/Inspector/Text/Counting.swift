extension Int {
    /// `1 change`, `2 changes`: a count with its noun in the right number.
    func counted(_ singular: String, _ plural: String) -> String {
        "\(self) \(self == 1 ? singular : plural)"
    }
}

extension FixedWidthInteger {
    /// `value` rounded to the nearest integer; the nearest bound when it is out of range,
    /// and 0 for NaN. For numbers read from a log or a stream (a hostile one holds 1e300),
    /// where a plain conversion would trap.
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if let exact = Self(exactly: value.rounded()) {
            self = exact
        } else {
            self = value < 0 ? .min : .max
        }
    }

    /// `self + other`, or the nearest bound when that overflows.
    package func addingSaturating(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other < 0 ? .min : .max
    }
}

/// A decimal number followed by a unit, split apart: `"-1.25ms"` → negative, 125, scale 2, `ms`.
///
/// Keeps the number exact (digits as an integer plus a decimal scale) so scaling by a unit and
/// rounding happen once, in integer arithmetic. Used by `Units`.
struct DecimalText {
    var negative: Bool
    /// All digits, integer part then fraction, as one integer.
    var mantissa: UInt64
    /// How many of the mantissa's digits are after the decimal point.
    var fractionDigits: Int
    /// What follows the number, spaces between number and unit skipped (may be empty).
    var unit: String
    /// A non-zero fraction digit was dropped (beyond 19 digits after the point or 19 significant
    /// ones): the number is not whole even when the kept digits are.
    var droppedFraction = false

    /// Every 19-digit number fits in a `UInt64` mantissa (its maximum has 20 digits), and so
    /// does 10^19, the largest decimal scale. 18 refused `"9223372036854775807"`, exactly
    /// 2^63 - 1 bytes, as "too large … at most 2^63 - 1 bytes".
    private static let maximumDigits = 19

    init?(_ text: String, signed: Bool) {
        var bytes = Array(text.utf8)[...]
        while bytes.first == 0x20 { bytes.removeFirst() }
        while bytes.last == 0x20 { bytes.removeLast() }
        negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            guard signed else { return nil }
            negative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        mantissa = 0
        fractionDigits = 0
        var digits = 0, significant = 0
        var seenPoint = false
        while let byte = bytes.first {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                // At most 19 digits after the point too: leading zeros of a fraction are not
                // significant, and `"0.000…01s"` with 20 of them made 10^fractionDigits overflow
                // (a crash on bad input).
                let fractionFull = seenPoint && fractionDigits >= DecimalText.maximumDigits
                if significant < DecimalText.maximumDigits && !fractionFull {
                    if mantissa > 0 || byte != 0x30 { significant += 1 }
                    mantissa = mantissa * 10 + UInt64(byte - 0x30)
                    if seenPoint { fractionDigits += 1 }
                } else if !seenPoint {
                    return nil // Too large an integer part to keep exact.
                } else if byte != 0x30 {
                    droppedFraction = true
                }
                // Further fraction digits are below any unit's resolution (10^-19 of a day or a
                // terabyte is under a microsecond or a byte).
            } else {
                break
            }
            bytes.removeFirst()
        }
        guard digits > 0 else { return nil }
        while bytes.first == 0x20 { bytes.removeFirst() }
        unit = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a digit after the decimal point is not zero (`"1.5"`, not `"2.0"`).
    var hasFraction: Bool {
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        return mantissa % divisor != 0 || droppedFraction
    }

    /// The value times `scale` (units per whole number), rounded half away from zero.
    /// - Returns: nil when the result does not fit in `Int64`.
    func scaled(by scale: UInt64) -> Int64? {
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        let product = mantissa.multipliedFullWidth(by: scale)
        guard product.high < divisor else { return nil }
        var (quotient, remainder) = divisor.dividingFullWidth(product)
        if remainder >= divisor - remainder {
            let (rounded, overflow) = quotient.addingReportingOverflow(1)
            guard !overflow else { return nil }
            quotient = rounded
        }
        guard quotient <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(quotient) : Int64(quotient)
    }
}

/// Sizes for people: "840 B", "12.5 KiB", "3.2 MiB".
enum ByteCount {
    static func describe(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return OneDecimal.format(value) + " " + units[unit]
    }
}

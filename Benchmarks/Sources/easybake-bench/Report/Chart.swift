import Foundation

/// The results as a self-contained SVG bar chart: one group per scenario,
/// format and data set, one horizontal bar per contender.
///
/// Written beside the Markdown, and shown in the Performance article, since
/// people compare speeds by looking. Plain SVG — no script, no stylesheet, no
/// web font — so that it renders the same in a browser, in DocC and in an
/// image viewer. The payload scenarios share one MB/s scale, so bars compare
/// across groups; the core scenarios count operations, a different unit, so
/// each of their groups has a scale of its own.
func svgChart(_ rows: [Row], info: RunInfo) -> String {
    // Layout, in pixels at the article's width.
    let width = 860.0
    let margin = 16.0
    let fontSize = 12.0
    let barHeight = 16.0
    let rowGap = 5.0
    let groupGap = 14.0
    let valueWidth = 96.0
    let longestName = rows.map(\.contender.count).max() ?? 10
    // Bold Helvetica at 12 px is about 7 px per character on average
    // (EasyBake's labels are bold).
    let labelWidth = min(260, Double(longestName) * 7.2 + 12)
    let barLeft = margin + labelWidth
    let barSpan = width - barLeft - valueWidth - margin

    var groups: [(title: String, perByte: Bool, rows: [Row])] = []
    for row in rows {
        let title = "\(Scenario(rawValue: row.scenario)?.title ?? row.scenario) · \(row.format) · \(row.dataSet)"
        if groups.last?.title == title {
            groups[groups.count - 1].rows.append(row)
        } else {
            groups.append((title, Scenario(rawValue: row.scenario)?.readsPayload ?? true, [row]))
        }
    }
    func value(_ row: Row, perByte: Bool) -> Double? {
        guard row.failure == nil, let value = perByte ? row.megabytesPerSecond : row.recordsPerSecond, value.isFinite
        else {
            return nil
        }
        return value
    }
    let sharedScale =
        rows.compactMap { row in
            (Scenario(rawValue: row.scenario)?.readsPayload ?? true) ? value(row, perByte: true) : nil
        }.max() ?? 1

    var body = ""
    var y = margin
    func text(
        _ content: String, x: Double, y: Double, size: Double = fontSize, anchor: String = "start",
        weight: String = "normal", fill: String = "#222222"
    ) {
        body +=
            "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\" text-anchor=\"\(anchor)\" "
            + "font-weight=\"\(weight)\" fill=\"\(fill)\">\(escaped(content))</text>\n"
    }

    // Title, what was run, and the legend.
    y += 18
    text("EasyBake benchmark: throughput per contender", x: margin, y: y, size: 18, weight: "bold")
    y += 20
    let users = info.dataSets.filter { $0.shape == nil }.map(\.label)
    let shapes = Set(info.dataSets.compactMap { $0.shape == nil ? nil : $0.label }).sorted()
    let sets =
        "users " + users.joined(separator: " and ")
        + (shapes.isEmpty ? "" : ", shapes " + shapes.joined(separator: " and "))
    text(
        "\(sets); run of \(info.date.prefix(10)), commit \(info.commit); \(info.cores) cores, \(info.cpu)",
        x: margin, y: y, fill: "#555555")
    y += 17
    text(
        "Longer is faster. MB/s of input (one scale for every payload group); core scenarios in operations/s (own scale).",
        x: margin, y: y, fill: "#555555")
    y += 16
    for (i, (name, colour)) in [
        ("EasyBake", easyBakeColour), ("peers: Foundation, XMLCoder, SWXMLHash, Yams, libxml2, libyaml", peerColour),
    ].enumerated() {
        let x = margin + Double(i) * 110
        body += "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"12\" height=\"12\" fill=\"\(colour)\"/>\n"
        text(name, x: x + 17, y: y + 10.5)
    }
    y += 20

    for group in groups {
        y += groupGap
        let scale = group.perByte ? sharedScale : (group.rows.compactMap { value($0, perByte: false) }.max() ?? 1)
        text(group.title + (group.perByte ? "" : " (operations/s)"), x: margin, y: y + fontSize, weight: "bold")
        y += fontSize + 7
        body +=
            "<line x1=\"\(f(barLeft))\" y1=\"\(f(y - 2))\" x2=\"\(f(barLeft))\" "
            + "y2=\"\(f(y + Double(group.rows.count) * (barHeight + rowGap)))\" stroke=\"#999999\" stroke-width=\"1\"/>\n"
        for row in group.rows {
            let middle = y + barHeight / 2 + fontSize * 0.35
            text(
                row.contender, x: barLeft - 8, y: middle, anchor: "end",
                weight: row.easyBake ? "bold" : "normal")
            if let v = value(row, perByte: group.perByte) {
                let length = max(1, barSpan * v / scale)
                let colour = row.contender.hasPrefix("EasyBake") ? easyBakeColour : peerColour
                body +=
                    "<rect x=\"\(f(barLeft))\" y=\"\(f(y))\" width=\"\(f(length))\" height=\"\(f(barHeight))\" fill=\"\(colour)\"/>\n"
                let label = group.perByte ? String(format: "%.1f MB/s", v) : "\(rate(v))/s"
                text(label, x: barLeft + length + 5, y: middle)
            } else {
                text(row.failure == nil ? "not measured" : "failed", x: barLeft + 5, y: middle, fill: "#999999")
            }
            y += barHeight + rowGap
        }
    }
    y += margin

    return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(y))" viewBox="0 0 \(f(width)) \(f(y))" \
        font-family="Helvetica, Arial, sans-serif">
        <title>EasyBake benchmark results</title>
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(body)</svg>

        """
}

private let easyBakeColour = "#d9480f"
private let peerColour = "#5c7cfa"

/// A coordinate with at most one decimal: small files, stable diffs.
private func f(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

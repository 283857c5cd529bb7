/// What a PromQL expression names, read well enough to check it against what a service
/// exports: the metrics it selects with their label matchers, and the labels it groups by.
/// Strings, range and subquery brackets, numbers, functions and operators are stepped over.
/// Not a PromQL parser: it accepts only what it needs to find the names in.
struct PromQLNames: Equatable {
  /// One label matcher: `label op "value"`.
  struct Matcher: Equatable {
    var label: String
    var op: String
    var value: String
  }

  /// One selector: its metric name (nil for `{...}` alone) and matchers.
  struct Selector: Equatable {
    var metric: String?
    var matchers: [Matcher]
  }

  var selectors: [Selector] = []
  /// Labels named by `by`, `without`, `on`, `ignoring`, `group_left`, `group_right`.
  var groupingLabels: [String] = []

  static let modifiers: Set<String> = [
    "by", "without", "on", "ignoring", "group_left", "group_right",
  ]
  static let keywords: Set<String> = ["and", "or", "unless", "bool", "offset", "atop"]
  /// Aggregations, whose `by (...)` may come before their parenthesis.
  static let aggregations: Set<String> = [
    "sum", "avg", "min", "max", "count", "group", "stddev", "stdvar", "topk", "bottomk",
    "quantile", "count_values",
  ]

  init(_ expression: String) {
    let text = Array(expression)
    var index = 0
    func skipSpace() {
      while index < text.count, text[index].isWhitespace { index += 1 }
    }
    func isNameStart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c == "_" || c == ":") }
    func isNamePart(_ c: Character) -> Bool { isNameStart(c) || (c.isASCII && c.isNumber) }
    func name() -> String {
      let start = index
      while index < text.count, isNamePart(text[index]) { index += 1 }
      return String(text[start..<index])
    }
    func string() -> String {
      let quote = text[index]
      index += 1
      var value = ""
      while index < text.count, text[index] != quote {
        if text[index] == "\\", quote != "`", index + 1 < text.count { index += 1 }
        value.append(text[index])
        index += 1
      }
      index += 1
      return value
    }
    func matchers() -> [Matcher] {
      index += 1  // {
      var found: [Matcher] = []
      while true {
        skipSpace()
        guard index < text.count, text[index] != "}" else { break }
        if text[index] == "," {
          index += 1
          continue
        }
        let label = name()
        skipSpace()
        var op = ""
        while index < text.count, "=!~".contains(text[index]) {
          op.append(text[index])
          index += 1
        }
        skipSpace()
        guard !label.isEmpty, !op.isEmpty, index < text.count, "\"'`".contains(text[index])
        else { break }
        found.append(Matcher(label: label, op: op, value: string()))
      }
      index += 1  // }
      return found
    }
    while index < text.count {
      let c = text[index]
      if c.isWhitespace {
        index += 1
      } else if "\"'`".contains(c) {
        _ = string()
      } else if c == "[" {
        while index < text.count, text[index] != "]" { index += 1 }
        index += 1
      } else if c == "{" {
        selectors.append(Selector(metric: nil, matchers: matchers()))
      } else if isNameStart(c) {
        let word = name()
        skipSpace()
        let next = index < text.count ? text[index] : " "
        if Self.modifiers.contains(word) {
          guard next == "(" else { continue }
          index += 1
          while index < text.count, text[index] != ")" {
            skipSpace()
            let label = name()
            if label.isEmpty { index += 1 } else { groupingLabels.append(label) }
            skipSpace()
            if index < text.count, text[index] == "," { index += 1 }
          }
          index += 1
        } else if Self.keywords.contains(word) || Self.aggregations.contains(word) || next == "(" {
          continue  // an operator, or a function's or aggregation's name
        } else {
          selectors.append(
            Selector(metric: word, matchers: next == "{" ? matchers() : []))
        }
      } else if c.isNumber || c == "." {
        // A number (0.95, 1e3, 86400), never the start of a name.
        while index < text.count, text[index].isLetter || text[index].isNumber || text[index] == "."
        {
          index += 1
        }
      } else {
        index += 1
      }
    }
  }
}

import Foundation
import StoreBenchKit

/// A Java properties file as YCSB reads its workload files: `key=value`, `key: value` or
/// `key value` per line, `#` and `!` comments, a trailing backslash continuing a line, and
/// backslash escapes. Later lines override earlier ones, as in Java.
///
/// ```swift
/// let properties = try YCSBProperties.parse(text, source: "workloada")
/// properties.values["readproportion"]   // "0.5"
/// ```
public struct YCSBProperties: Sendable, Equatable {
    /// The values by key.
    public var values: [String: String]
    /// The line each key was last set on (1-based), for messages.
    public var lines: [String: Int]

    public init(values: [String: String] = [:], lines: [String: Int] = [:]) {
        self.values = values
        self.lines = lines
    }

    /// Parses `text`; `source` names it in errors.
    public static func parse(_ text: String, source: String) throws -> YCSBProperties {
        var out = YCSBProperties()
        let physical = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        var index = 0
        while index < physical.count {
            let startLine = index + 1
            var logical = String(physical[index].drop(while: isBlank))
            index += 1
            if logical.isEmpty || logical.first == "#" || logical.first == "!" { continue }
            while endsWithContinuation(logical), index < physical.count {
                logical.removeLast()
                logical += physical[index].drop(while: isBlank)
                index += 1
            }
            if endsWithContinuation(logical) { logical.removeLast() }
            let (key, value) = try split(logical, source: source, line: startLine)
            out.values[key] = value
            out.lines[key] = startLine
        }
        return out
    }

    // MARK: Internal helpers

    /// Java's property whitespace: space, tab, form feed.
    private static func isBlank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\u{0C}" }

    /// An odd number of trailing backslashes continues the line.
    private static func endsWithContinuation(_ s: String) -> Bool {
        s.reversed().prefix { $0 == "\\" }.count % 2 == 1
    }

    private static func split(_ line: String, source: String, line number: Int) throws -> (String, String) {
        var key = "", value = ""
        var chars = Array(line)[...]
        var escaped = false
        var separated = false
        while let c = chars.first {
            chars = chars.dropFirst()
            if escaped { key.append(unescape(c)); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "=" || c == ":" { separated = true; break }
            if isBlank(c) {
                // Whitespace ends the key; one `=` or `:` may follow it.
                chars = chars.drop(while: isBlank)
                if let next = chars.first, next == "=" || next == ":" { chars = chars.dropFirst() }
                separated = true
                break
            }
            key.append(c)
        }
        guard !key.isEmpty else {
            throw YCSBPropertyError(.syntax(line: number), "\(source):\(number): a property line needs a key before its value: \(line)")
        }
        guard separated else {
            throw YCSBPropertyError(.syntax(line: number), "\(source):\(number): '\(key)' has no value; write \(key)=VALUE")
        }
        chars = chars.drop(while: isBlank)
        escaped = false
        for c in chars {
            if escaped { value.append(unescape(c)); escaped = false } else if c == "\\" { escaped = true } else { value.append(c) }
        }
        return (key, value.trimmingCharacters(in: .whitespaces))
    }

    private static func unescape(_ c: Character) -> Character {
        switch c {
        case "t": "\t"
        case "n": "\n"
        case "r": "\r"
        case "f": "\u{0C}"
        default: c
        }
    }
}


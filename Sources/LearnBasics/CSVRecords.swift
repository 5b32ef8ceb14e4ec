/// RFC 4180 records: commas, doubled quotes and line breaks inside quotes,
/// CRLF or LF line ends. Works on Unicode scalars, since a `Character` view
/// would glue a CR to its LF and a quote to a following combining mark.
package struct CSVRecords {
    package struct Record {
        package var line: Int
        package var fields: [String]
        package var unterminated = false
    }

    /// The separator a file uses, read from its first line: ";" when it
    /// has semicolons and no commas (a German LibreOffice saves so), else ",".
    package static func separator(of text: String) -> Unicode.Scalar {
        var semicolons = false
        for scalar in text.unicodeScalars.prefix(4096) {
            switch scalar {
            case "\n", "\r": return semicolons ? ";" : ","
            case ",": return ","
            case ";": semicolons = true
            default: continue
            }
        }
        return semicolons ? ";" : ","
    }

    /// Records split at the separator the file uses (`separator(of:)`).
    package static func parse(anySeparator text: String) -> [Record] { parse(text, separator: separator(of: text)) }

    package static func parse(_ text: String, separator: Unicode.Scalar = ",") -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldStarted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()

        func endRecord() {
            fields.append(String(field))
            // A blank line is no record (many editors add one at the end).
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            field = .init()
            fieldStarted = false
        }

        while let c = pending {
            pending = iterator.next()
            if inQuotes {
                if c == "\"" {
                    if pending == "\"" { field.append("\""); pending = iterator.next() } else { inQuotes = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where !fieldStarted:
                inQuotes = true
                fieldStarted = true
            case separator:
                fields.append(String(field))
                field = .init()
                fieldStarted = false
            case "\r" where pending == "\n":
                break
            case "\n", "\r":
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(c)
                fieldStarted = true
            }
        }
        if inQuotes {
            fields.append(String(field))
            records.append(Record(line: recordLine, fields: fields, unterminated: true))
        } else if fieldStarted || !fields.isEmpty || !field.isEmpty {
            endRecord()
        }
        return records
    }

    /// Quotes a field only when it must be, so simple files stay readable.
    package static func escape(_ field: String, separator: Unicode.Scalar = ",") -> String {
        let needsQuotes = field.unicodeScalars.contains { $0 == separator || $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || field.first?.isWhitespace == true || field.last?.isWhitespace == true
        guard needsQuotes else { return field }
        // Doubled scalar by scalar, as the parser reads them: a quote with a
        // combining mark after it is one Character, which a Character-wise
        // replace would skip.
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in field.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}

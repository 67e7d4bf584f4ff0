extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (Foundation-free).
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isXMLSpace }), let last = lastIndex(where: { !$0.isXMLSpace }) else { return "" }
        return String(self[first...last])
    }
}

extension Character {
    /// XML's white space: a space, a tab or a line break. A Windows line break ("\r\n") is one
    /// Character in Swift, equal to neither "\r" nor "\n", so it is named here too.
    var isXMLSpace: Bool { self == " " || self == "\n" || self == "\t" || self == "\r" || self == "\r\n" }

    /// What separates the numbers of an array: XML's white space or a comma.
    var separatesNumbers: Bool { isXMLSpace || self == "," }
}

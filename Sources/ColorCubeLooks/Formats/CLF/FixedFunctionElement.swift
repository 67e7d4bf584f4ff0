import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's `FixedFunction` (CTF 2.0) and its deprecated forms `Function` (1.6, style
/// alone) and `ACES` (1.5, with `ACESParams`; in a file read as a CLF too), read into a
/// `FixedFunctionOp`.
struct FixedFunctionElement: CLFElement {
    let name: String
    let ctfOperator: CTFOperator?

    func operations(of node: XMLElementTree, in inDepth: CLFBitDepth, out outDepth: CLFBitDepth,
                    with reader: inout CLFNodeReader) throws(LUTFileError) -> [any TransformOp] {
        [try reader.fixedFunction(node, name)]
    }
}

extension CLFNodeReader {
    /// A FixedFunction (`style` and an optional `params` list), a `Function` (style alone) or
    /// an `ACES` (style and, for the surround, an `ACESParams` gamma).
    func fixedFunction(_ node: XMLElementTree, _ kind: String) throws(LUTFileError) -> FixedFunctionOp {
        guard let name = node.attribute("style") else { throw fail(node, "attribute style is missing") }
        guard let style = FixedFunctionOp.Style(ctfName: name) else {
            throw fail(node, "style \"\(name.excerpt)\" is not a fixed function OpenColorIO knows")
        }
        var values: [Double] = []
        if kind == "FixedFunction", let text = node.attribute("params") {
            for token in text.split(whereSeparator: \.separatesNumbers) {
                guard let value = Double(token), value.isFinite else {
                    throw fail(node, "params \"\(text.excerpt)\" is not a list of numbers")
                }
                values.append(value)
            }
        }
        if kind == "ACES" {
            let elements = parameters(node, "ACESParams")
            if let element = elements.first {
                guard style.parameterCount == 1 else {
                    throw fail(element, "the \(style.rawValue) style takes no parameter; remove the <\(element.name)>")
                }
                guard elements.count == 1 else { throw fail(elements[1], "the \(style.rawValue) style takes one gamma") }
                values = [try number(element, "gamma")]
            }
        }
        do throws(TransformError) {
            return try FixedFunctionOp(style: style, parameters: values)
        } catch {
            throw fail(node, error.description)
        }
    }
}

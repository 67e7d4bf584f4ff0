import ColorCubeCore
import ColorCubeTransform

/// OpenColorIO's grading operators read from a .ctf as OpenColorIO 2.6 reads them:
/// `GradingPrimary` and `GradingTone`, and the style and dynamic parameter every grading
/// operator has.
extension CLFNodeReader {
    /// The `style` names of a GradingPrimary (any case) with the style and whether it is reverse.
    private static let gradingStyles: [String: (GradingStyle, Bool)] = [
        "log": (.log, false), "logrev": (.log, true), "linear": (.linear, false), "linearrev": (.linear, true),
        "video": (.video, false), "videorev": (.video, true),
    ]

    /// The dynamic parameters OpenColorIO knows, by the operator that takes each.
    private static let dynamicParameterOwners = [
        "EXPOSURE": "ExposureContrast", "CONTRAST": "ExposureContrast", "GAMMA": "ExposureContrast",
        "PRIMARY": "GradingPrimary", "RGB_CURVE": "GradingRGBCurve", "HUE_CURVE": "GradingHueCurve", "TONE": "GradingTone",
    ]

    /// A GradingPrimary (a CTF 2.0 operator, which a file read as a CLF does not have: the
    /// versions are checked with its `CTFOperator` rules before it is read). Its
    /// `style` is one of log, logRev, linear, linearRev, video, videoRev; its children give the
    /// controls (every child is read, whether the style uses it or not; a repeated child
    /// replaces the earlier one; other elements are skipped):
    /// - `Brightness`, `Contrast`, `Gamma`, `Offset`, `Exposure`, `Lift`, `Gain`: both `rgb`
    ///   (three numbers) and `master` (one);
    /// - `Pivot`: any of `contrast` (the pivot), `black` and `white` (the gamma pivots);
    /// - `Saturation`: `master`; `Clamp`: either or both of `black` and `white`;
    /// - `DynamicParameter param="PRIMARY"`: the values are applied as written.
    /// Any other attribute on these children is refused, as OpenColorIO refuses it, and so are
    /// the values `GradingPrimaryOp` refuses.
    func gradingPrimary(_ node: XMLElementTree) throws(LUTFileError) -> any TransformOp {
        let (style, isReverse) = try gradingStyle(node)
        var values = GradingPrimaryOp.Parameters(style: style)
        var dynamic = false
        for element in node.children {
            switch element.name.lowercased() {
            case "brightness": values.brightness = try rgbm(element)
            case "contrast": values.contrast = try rgbm(element)
            case "gamma": values.gamma = try rgbm(element)
            case "offset": values.offset = try rgbm(element)
            case "exposure": values.exposure = try rgbm(element)
            case "lift": values.lift = try rgbm(element)
            case "gain": values.gain = try rgbm(element)
            case "pivot":
                let found = try gradingAttributes(element, ["contrast", "black", "white"], required: 1)
                values.pivot = found["contrast"] ?? values.pivot
                values.pivotBlack = found["black"] ?? values.pivotBlack
                values.pivotWhite = found["white"] ?? values.pivotWhite
            case "saturation":
                values.saturation = try gradingAttributes(element, ["master"], required: 1)["master"] ?? values.saturation
            case "clamp":
                let found = try gradingAttributes(element, ["black", "white"], required: 1)
                values.clampBlack = found["black"] ?? values.clampBlack
                values.clampWhite = found["white"] ?? values.clampWhite
            case "dynamicparameter":
                dynamic = try isDynamic(element, in: node) || dynamic
            default:
                break
            }
        }
        do throws(TransformError) {
            return try GradingPrimaryOp(style: style, isReverse: isReverse, parameters: values, dynamic: dynamic)
        } catch {
            throw fail(node, error.description)
        }
    }

    /// A GradingTone: a CTF 2.0 operator, read as a GradingPrimary is (the same styles and
    /// versions). Its children: `Blacks` and `Whites` (`rgb`, `master`, `start`, `width`),
    /// `Shadows` and `Highlights` (`rgb`, `master`, `start`, `pivot`), `Midtones` (`rgb`,
    /// `master`, `center`, `width`), all four required; `SContrast` (`master`);
    /// `DynamicParameter param="TONE"`.
    func gradingTone(_ node: XMLElementTree) throws(LUTFileError) -> any TransformOp {
        let (style, isReverse) = try gradingStyle(node)
        var values = GradingToneOp.Parameters(style: style)
        var dynamic = false
        for element in node.children {
            switch element.name.lowercased() {
            case "blacks": values.blacks = try rgbmsw(element, "start", "width")
            case "shadows": values.shadows = try rgbmsw(element, "start", "pivot")
            case "midtones": values.midtones = try rgbmsw(element, "center", "width")
            case "highlights": values.highlights = try rgbmsw(element, "start", "pivot")
            case "whites": values.whites = try rgbmsw(element, "start", "width")
            case "scontrast":
                values.sContrast = try gradingAttributes(element, ["master"], required: 1)["master"] ?? values.sContrast
            case "dynamicparameter":
                dynamic = try isDynamic(element, in: node) || dynamic
            default:
                break
            }
        }
        do throws(TransformError) {
            return try GradingToneOp(style: style, isReverse: isReverse, parameters: values, dynamic: dynamic)
        } catch {
            throw fail(node, error.description)
        }
    }

    /// A tonal control: `rgb`, `master` and the two attributes that place it, all required.
    private func rgbmsw(_ element: XMLElementTree, _ start: String, _ width: String) throws(LUTFileError) -> GradingToneOp.RGBMSW {
        let names = ["rgb", "master", start, width]
        let lists = try gradingLists(element, names)
        guard let rgb = lists["rgb"], let master = lists["master"], let first = lists[start], let second = lists[width] else {
            throw fail(element, "it needs all of \(names.joined(separator: ", ")), e.g. rgb=\"1 1 1\" master=\"1\" \(start)=\"0.5\" "
                + "\(width)=\"0.5\"")
        }
        for (name, list) in [("rgb", rgb), ("master", master), (start, first), (width, second)] where list.count != (name == "rgb" ? 3 : 1) {
            throw fail(element, "\(name) holds \(list.count) numbers; it needs \(name == "rgb" ? "three" : "one")")
        }
        return GradingToneOp.RGBMSW(rgb[0], rgb[1], rgb[2], master: master[0], start: first[0], width: second[0])
    }

    /// A grading operator's style and whether it is reverse.
    func gradingStyle(_ node: XMLElementTree) throws(LUTFileError) -> (GradingStyle, Bool) {
        guard let name = node.attribute("style") else {
            throw fail(node, "attribute style is missing; it is one of log, logRev, linear, linearRev, video, videoRev")
        }
        guard let found = Self.gradingStyles[name.trimmingWhitespace().lowercased()] else {
            throw fail(node, "style \"\(name.excerpt)\" is not one of log, logRev, linear, linearRev, video, videoRev")
        }
        return found
    }

    /// Whether a `DynamicParameter` child of `node` makes it dynamic: its `param` must be the
    /// one `node`'s operator takes; `LOOK_SWITCH` is ignored, as OpenColorIO ignores it.
    func isDynamic(_ element: XMLElementTree, in node: XMLElementTree) throws(LUTFileError) -> Bool {
        guard let param = element.attribute("param") else { return false }
        let key = param.uppercased()
        if key == "LOOK_SWITCH" { return false }
        guard let owner = Self.dynamicParameterOwners[key] else {
            throw fail(element, "dynamic parameter \"\(param.excerpt)\" is not one OpenColorIO knows; a <\(node.name)> takes "
                + (Self.dynamicParameterOwners.first { $0.value.lowercased() == node.name.lowercased() }?.key ?? "none"))
        }
        guard owner.lowercased() == node.name.lowercased() else {
            throw fail(element, "dynamic parameter \(key) belongs to <\(owner)>, not to <\(node.name)>; remove it")
        }
        return true
    }

    /// An RGBM control: `rgb` (three numbers) and `master` (one), both required.
    private func rgbm(_ element: XMLElementTree) throws(LUTFileError) -> GradingPrimaryOp.RGBM {
        let lists = try gradingLists(element, ["rgb", "master"])
        guard let rgb = lists["rgb"], let master = lists["master"] else {
            throw fail(element, "it needs both rgb (three numbers) and master (one), e.g. rgb=\"1 1 1\" master=\"1\"")
        }
        guard rgb.count == 3 else {
            throw fail(element, "rgb holds \(rgb.count) numbers; it needs three, red green blue")
        }
        guard master.count == 1 else {
            throw fail(element, "master holds \(master.count) numbers; it needs one")
        }
        return GradingPrimaryOp.RGBM(rgb[0], rgb[1], rgb[2], master: master[0])
    }

    /// The single numbers in the attributes `names` of `element`, of which at least `required`
    /// must be given.
    private func gradingAttributes(_ element: XMLElementTree, _ names: [String], required: Int) throws(LUTFileError) -> [String: Double] {
        var found: [String: Double] = [:]
        for (name, list) in try gradingLists(element, names) {
            guard list.count == 1 else {
                throw fail(element, "\(name) holds \(list.count) numbers; it takes one")
            }
            found[name] = list[0]
        }
        guard found.count >= required else {
            throw fail(element, "it gives none of \(names.joined(separator: ", ")); give \(names.count == 1 ? "it" : "at least one")")
        }
        return found
    }

    /// The number lists in the attributes of `element`, by the name in `names` each matches
    /// (any case); any other attribute is refused, as OpenColorIO refuses it.
    private func gradingLists(_ element: XMLElementTree, _ names: [String]) throws(LUTFileError) -> [String: [Double]] {
        var lists: [String: [Double]] = [:]
        for (attribute, text) in element.attributes.sorted(by: { $0.key < $1.key }) {
            guard let name = names.first(where: { $0.lowercased() == attribute.lowercased() }) else {
                throw fail(element, "attribute \(attribute) is not one of \(names.joined(separator: ", ")); remove it")
            }
            let tokens = text.split(whereSeparator: \.separatesNumbers)
            guard tokens.count <= 3 else {
                throw fail(element, "\(name) holds \(tokens.count) numbers; it takes \(name == "rgb" ? "three" : "one")")
            }
            var values: [Double] = []
            for token in tokens {
                values.append(try number(element, name, text: String(token)))
            }
            lists[name] = values
        }
        return lists
    }
}

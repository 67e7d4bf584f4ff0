import ColorCubeTransform

/// OpenColorIO's grading operators as CTF elements, as `CLFNodeReader` reads them back: the
/// style (with `Rev` for the reverse), each control that differs from the style's default, and
/// a `DynamicParameter` when the operator is dynamic.
extension CTFWriter {
    static func gradingPrimaryNode(_ primary: GradingPrimaryOp, id: String) -> String {
        let p = primary.parameters, neutral = GradingPrimaryOp.Parameters(style: primary.style)
        var text = open("GradingPrimary", primary.style, reverse: primary.isReverse, id: id)
        let controls: [(String, GradingPrimaryOp.RGBM, GradingPrimaryOp.RGBM)] = [
            ("Brightness", p.brightness, neutral.brightness), ("Contrast", p.contrast, neutral.contrast),
            ("Gamma", p.gamma, neutral.gamma), ("Offset", p.offset, neutral.offset), ("Exposure", p.exposure, neutral.exposure),
            ("Lift", p.lift, neutral.lift), ("Gain", p.gain, neutral.gain),
        ]
        for (name, value, standard) in controls where value != standard {
            text += "        <\(name) rgb=\"\(value.red) \(value.green) \(value.blue)\" master=\"\(value.master)\"/>\n"
        }
        if (p.pivot, p.pivotBlack, p.pivotWhite) != (neutral.pivot, neutral.pivotBlack, neutral.pivotWhite) {
            text += "        <Pivot contrast=\"\(p.pivot)\" black=\"\(p.pivotBlack)\" white=\"\(p.pivotWhite)\"/>\n"
        }
        if p.saturation != neutral.saturation { text += "        <Saturation master=\"\(p.saturation)\"/>\n" }
        var clamp = ""
        if p.clampBlack != GradingPrimaryOp.noClampBlack { clamp += " black=\"\(p.clampBlack)\"" }
        if p.clampWhite != GradingPrimaryOp.noClampWhite { clamp += " white=\"\(p.clampWhite)\"" }
        if !clamp.isEmpty { text += "        <Clamp\(clamp)/>\n" }
        return text + dynamic(primary.dynamic, "PRIMARY") + "    </GradingPrimary>\n"
    }

    static func gradingToneNode(_ tone: GradingToneOp, id: String) -> String {
        let p = tone.parameters
        var text = open("GradingTone", tone.style, reverse: tone.isReverse, id: id)
        let controls: [(String, GradingToneOp.RGBMSW, String, String)] = [
            ("Blacks", p.blacks, "start", "width"), ("Shadows", p.shadows, "start", "pivot"),
            ("Midtones", p.midtones, "center", "width"), ("Highlights", p.highlights, "start", "pivot"),
            ("Whites", p.whites, "start", "width"),
        ]
        for (name, value, start, width) in controls {
            text += "        <\(name) rgb=\"\(value.red) \(value.green) \(value.blue)\" master=\"\(value.master)\" "
                + "\(start)=\"\(value.start)\" \(width)=\"\(value.width)\"/>\n"
        }
        text += "        <SContrast master=\"\(p.sContrast)\"/>\n"
        return text + dynamic(tone.dynamic, "TONE") + "    </GradingTone>\n"
    }

    static func gradingRGBCurveNode(_ curves: GradingRGBCurveOp, id: String) -> String {
        var text = open("GradingRGBCurve", curves.style, reverse: curves.isReverse, id: id,
                        extra: curves.bypassLinToLog ? " bypassLinToLog=\"true\"" : "")
        for (name, curve) in curves.curves.named {
            text += curveElement(name.prefix(1).uppercased() + name.dropFirst(), curve)
        }
        return text + dynamic(curves.isDynamic, "RGB_CURVE") + "    </GradingRGBCurve>\n"
    }

    static func gradingHueCurveNode(_ curves: GradingHueCurveOp, id: String) -> String {
        var text = open("GradingHueCurve", curves.style, reverse: curves.isReverse, id: id,
                        extra: curves.skipsHSY ? " hsyTransform=\"none\"" : "")
        for name in GradingHueCurveOp.Curve.allCases {
            text += curveElement(name.rawValue, curves.curves[name])
        }
        return text + dynamic(curves.isDynamic, "HUE_CURVE") + "    </GradingHueCurve>\n"
    }

    /// A curve's element: its control points, then its slopes unless they are all 0 (estimated).
    private static func curveElement(_ name: String, _ curve: GradingCurve) -> String {
        let points = curve.points.map { "\($0.x) \($0.y)" }.joined(separator: " ")
        var text = "        <\(name)>\n            <ControlPoints>\(points)</ControlPoints>\n"
        if !curve.estimatesSlopes {
            text += "            <Slopes>\(curve.slopes.map { "\($0)" }.joined(separator: " "))</Slopes>\n"
        }
        return text + "        </\(name)>\n"
    }

    private static func open(_ element: String, _ style: GradingStyle, reverse: Bool, id: String, extra: String = "") -> String {
        CLFWriter.open(element, id: id, extra: " style=\"\(style.rawValue)\(reverse ? "Rev" : "")\"" + extra)
    }

    private static func dynamic(_ isDynamic: Bool, _ param: String) -> String {
        isDynamic ? "        <DynamicParameter param=\"\(param)\"/>\n" : ""
    }
}

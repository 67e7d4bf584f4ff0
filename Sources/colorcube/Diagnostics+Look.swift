import ColorCubeConverter
import ColorCubeLooks
import ColorCubeTransform

extension Diagnostics {
    /// Prints what every command that reads `look` tells about it: its warnings and the reader's
    /// notes.
    static func report(_ look: Look, path: String) {
        for note in look.notes { Diagnostics.note("\(path): \(note)") }
        if !look.otherLayouts.isEmpty {
            Diagnostics.note("\(path): to read it in another layout, pass "
                + look.otherLayouts.map { "--layout \($0.rawValue)" }.joined(separator: " or "))
        }
        for warning in look.warnings {
            let text = message(for: warning, path: path)
            if warning.isNote { Diagnostics.note(text) } else { Diagnostics.warning(text) }
        }
    }

    /// The words for one of a look's warnings.
    static func message(for warning: LookWarning, path: String) -> String {
        switch warning {
        case .convertedFromProfile(let profile):
            "\(path): converted the look's colours from its embedded profile \"\(profile)\" to sRGB "
                + "(pass --ignore-profile to keep the code values)"
        case .lossySource(let format):
            lossyReferenceWarning(path: path, format: format)
        case .spatialEdit(let roughness):
            roughnessWarning(roughness, path: path)
        case .displayProfileOnRGB(let profile):
            "\(profile) is an ICC display profile: read as OpenColorIO reads it, it takes CIE XYZ (D65) to the display's "
                + "codes, so on a picture's RGB it moves colours without meaning; to see a picture as that display shows it, "
                + "chain a conversion to XYZ first: \(LookSpec.conversionPrefix)srgb_rec709_display,lin_ciexyzd65_display+\(profile)"
        }
    }

    /// Prints what writing a look did to it: baking error, clamping, Core Image's size limit. The
    /// advice names `--size`, the cube size in every command that writes a look.
    static func report(_ written: LUTWriter.Report, path: String, format: any LUTFileFormat) {
        if let error = written.bakingError, error.isNoticeable, let size = written.size, let profile = format as? CameraRawProfileFormat {
            let largest = RGBTableOp.largest3D
            let closer = size < largest ? "--size \(largest) keeps it closer"
                : profile.space != .srgb ? "--profile-space srgb (every node a photo's colour) keeps it closer"
                : "Camera Raw reads no larger table"
            Diagnostics.warning("\(path): Camera Raw's reading of this \(size)-point table in \(profile.space.rawValue) is up to "
                + "\(decimal(error.maxCodes, places: 1)) 8-bit codes from the look (mean \(decimal(error.meanCodes, places: 2))); \(closer)")
        } else if let error = written.bakingError, error.isNoticeable, let size = written.size {
            let larger = format.largestSize.map { $0 <= size } == true ? "a larger size (\(format.name) holds at most \(size))"
                : size < 65 ? "--size 65" : "a larger --size"
            Diagnostics.warning("\(path): baking the look into a \(size)-cube changes it by up to "
                + "\(decimal(error.maxCodes, places: 1)) 8-bit codes (mean \(decimal(error.meanCodes, places: 2))); "
                + "\(larger), or a format that holds the chain (.clf), keeps it closer")
        }
        if let clamped = written.clamped {
            Diagnostics.note("\(path): values outside 0...1 (lowest \(decimal(Double(clamped.min), places: 4)), "
                + "highest \(decimal(Double(clamped.max), places: 4))) are clamped: "
                + "\(format.name) holds only 0...1; use .cube or raw output to keep them")
        }
        if written.exceedsCoreImage, let size = written.size {
            Diagnostics.note("\(path) holds a \(size)-cube; Core Image is reported to reject cubes above "
                + "\(LUTWriter.coreImageMaximumSize) (CIColorCube takes 2 to 64): pass --size 64 for Core Image")
        }
    }
}

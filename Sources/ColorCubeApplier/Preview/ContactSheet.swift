import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging

/// A contact sheet for choosing a look by eye: one thumbnail of a photo per look, each labelled with
/// the look's name, the untouched original first, in a grid read left to right, top to bottom.
///
/// The photo is brought to sRGB (from an embedded ICC profile) and scaled once with `ImageScaler`;
/// each look is then applied to a copy of that thumbnail with `ImageApplier`, exactly as `apply`
/// would treat a full-size image. Labels are drawn with `BitmapFont`, in capitals, shortened with
/// ".." when they do not fit under the thumbnail. The sheet is 8-bit RGB, tagged sRGB.
public struct ContactSheet: Sendable {
    /// A look on the sheet.
    public struct Look: Sendable {
        /// The label under its thumbnail.
        public var name: String
        public var engine: LUTEngine

        public init(name: String, engine: LUTEngine) {
            self.name = name
            self.engine = engine
        }
    }

    /// Layout and colours.
    public struct Options: Sendable {
        /// Thumbnail width in pixels; the height keeps the photo's aspect ratio.
        public var thumbnailWidth: Int
        /// Thumbnails per row (fewer when there are fewer thumbnails).
        public var columns: Int
        /// Screen pixels per font pixel.
        public var labelScale: Int
        /// Space around and between cells, in pixels.
        public var gap: Int
        /// The label of the untouched photo.
        public var originalName: String
        /// Sheet background, 8-bit sRGB.
        public var background: SIMD3<UInt8>
        /// Label colour, 8-bit sRGB.
        public var foreground: SIMD3<UInt8>

        public init(thumbnailWidth: Int = 320, columns: Int = 4, labelScale: Int = 2, gap: Int = 12,
                    originalName: String = "original", background: SIMD3<UInt8> = SIMD3(28, 28, 28),
                    foreground: SIMD3<UInt8> = SIMD3(232, 232, 232)) {
            self.thumbnailWidth = thumbnailWidth
            self.columns = columns
            self.labelScale = labelScale
            self.gap = gap
            self.originalName = originalName
            self.background = background
            self.foreground = foreground
        }
    }

    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Height in pixels of the band under each thumbnail that holds its label.
    public var labelHeight: Int { (BitmapFont.glyphHeight + 4) * max(options.labelScale, 1) }

    /// Renders the sheet for `photo` and `looks`.
    /// - Parameter path: names the photo in errors.
    /// - Throws: `ImageError.badProfile` when the photo's embedded profile cannot be converted.
    public func render(photo: RasterImage, looks: [Look], path: String = "photo") throws -> RasterImage {
        var photo = photo
        try ColorConversion.convertToSRGB(&photo, path: path)
        let width = max(1, options.thumbnailWidth)
        let height = max(1, Int((Double(photo.height) * Double(width) / Double(max(photo.width, 1))).rounded()))
        let background = SIMD3<Float>(Float(options.background.x), Float(options.background.y), Float(options.background.z))
        var thumbnail = ImageScaler.scaled(photo, width: width, height: height, background: background)
        thumbnail.colorSpace = .sRGB

        var cells: [(String, RasterImage)] = [(options.originalName, thumbnail)]
        for look in looks {
            var copy = thumbnail
            try ImageApplier(engine: look.engine).apply(to: &copy, path: path)
            cells.append((look.name, copy))
        }

        let columns = max(1, min(options.columns, cells.count))
        let rows = (cells.count + columns - 1) / columns
        let gap = max(0, options.gap)
        let cellHeight = height + labelHeight
        let sheetWidth = gap + columns * (width + gap)
        let sheetHeight = gap + rows * (cellHeight + gap)
        var canvas = Canvas(width: sheetWidth, height: sheetHeight, fill: options.background)
        for (index, (name, image)) in cells.enumerated() {
            let x = gap + (index % columns) * (width + gap)
            let y = gap + (index / columns) * (cellHeight + gap)
            canvas.paste(image, x: x, y: y)
            let label = fitted(name, width: width)
            let scale = max(options.labelScale, 1)
            let textX = x + (width - BitmapFont.width(of: label) * scale) / 2
            canvas.draw(label, x: textX, y: y + height + 2 * scale, scale: scale, color: options.foreground)
        }
        return RasterImage(width: sheetWidth, height: sheetHeight, channels: 3, pixels: .eight(canvas.samples),
                           colorSpace: .sRGB)
    }

    /// `name` in capitals, shortened with ".." to fit `width` pixels at the label scale.
    public func fitted(_ name: String, width: Int) -> String {
        let scale = max(options.labelScale, 1)
        let fits = max(1, (width / scale + 1) / BitmapFont.advance)
        let upper = name.uppercased()
        guard upper.count > fits else { return upper }
        return String(upper.prefix(max(0, fits - 2))) + ".."
    }
}

import ColorCubeEngine
import ColorCubeCore
import ColorCubeImaging

/// The picture `learn --report` writes, to be read at a glance: a title over each column, then one
/// row per pair, left to right the before, the after, the learned look applied to the before and a
/// heat map of the CIEDE2000 error between the last two (black 0, blue 1, cyan 2, yellow 4, red 8,
/// white 16 and more; the scale is drawn under the last pair's heat map, numbered 0, 2, 4, 8, 16+); then,
/// under a title, a strip of 8 tiles, one per eighth of blue (each labelled with its 8-bit blue
/// codes), each 8 x 8 cells of red (across) and green (down): a cell the pairs' before colours fall
/// in is filled with its colour, a cell they never show is grey with a dot of its colour.
///
/// Pairs are kept downscaled (box filter, whole factors) to at most `thumbnailSide` pixels a side
/// as they are added, so the picture costs little memory whatever the photos' size.
struct ReportPicture {
    /// Largest side of a pair's thumbnails.
    static let thumbnailSide = 256
    static let gap = 8
    static let cellsPerAxis = 8
    static let cellSide = 12
    static let background: SIMD3<UInt8> = SIMD3(24, 24, 24)
    static let ink: SIMD3<UInt8> = SIMD3(230, 230, 230)
    /// Height of a band that holds one line of labels.
    static let labelBand = BitmapFont.glyphHeight + 6
    /// Where the heat map's scale is numbered (CIEDE2000).
    static let scaleMarks = [0, 2, 4, 8, 16]

    /// A small 8-bit RGB image.
    struct Thumbnail {
        var width: Int
        var height: Int
        var rgb: [UInt8]

        /// `buffer` shrunk by the smallest whole factor that brings both sides within `side`.
        init(_ buffer: PixelBuffer, side: Int) {
            let factor = max(1, (max(buffer.width, buffer.height) + side - 1) / side)
            width = max(1, buffer.width / factor)
            height = max(1, buffer.height / factor)
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            let channels = buffer.channels, sourceWidth = buffer.width
            func sample(_ index: Int) -> Double {
                switch buffer.samples {
                case .eight(let values): Double(values[index])
                case .sixteen(let values): Double(values[index]) / 257
                }
            }
            let count = Double(factor * factor)
            for y in 0..<height {
                for x in 0..<width {
                    var sum = SIMD3<Double>.zero
                    for dy in 0..<factor {
                        for dx in 0..<factor {
                            let i = ((y * factor + dy) * sourceWidth + x * factor + dx) * channels
                            sum += SIMD3(sample(i), sample(i + 1), sample(i + 2))
                        }
                    }
                    let mean = (sum / count).rounded(.toNearestOrAwayFromZero)
                    let o = (y * width + x) * 3
                    rgb[o] = UInt8(mean.x)
                    rgb[o + 1] = UInt8(mean.y)
                    rgb[o + 2] = UInt8(mean.z)
                }
            }
            self.rgb = rgb
        }

        var raster: RasterImage {
            RasterImage(width: width, height: height, channels: 3, pixels: .eight(rgb))
        }

        func color(_ x: Int, _ y: Int) -> SIMD3<Double> {
            let o = (y * width + x) * 3
            return SIMD3(Double(rgb[o]), Double(rgb[o + 1]), Double(rgb[o + 2])) / 255
        }
    }

    private var pairs: [(before: Thumbnail, after: Thumbnail)] = []

    var isEmpty: Bool { pairs.isEmpty }

    mutating func add(before: PixelBuffer, after: PixelBuffer) {
        pairs.append((Thumbnail(before, side: Self.thumbnailSide), Thumbnail(after, side: Self.thumbnailSide)))
    }

    /// The heat map colour of a CIEDE2000 difference.
    static func heat(_ difference: Double) -> SIMD3<UInt8> {
        let stops: [(Double, SIMD3<Double>)] = [
            (0, SIMD3(0, 0, 0)), (1, SIMD3(30, 50, 190)), (2, SIMD3(0, 170, 210)), (4, SIMD3(235, 220, 0)),
            (8, SIMD3(230, 30, 0)), (16, SIMD3(255, 255, 255)),
        ]
        let d = difference.isFinite ? max(0, difference) : 16
        for index in 1..<stops.count where d <= stops[index].0 {
            let (x0, c0) = stops[index - 1], (x1, c1) = stops[index]
            let t = (d - x0) / (x1 - x0)
            let c = (c0 + (c1 - c0) * t).rounded(.toNearestOrAwayFromZero)
            return SIMD3(UInt8(c.x), UInt8(c.y), UInt8(c.z))
        }
        return SIMD3(255, 255, 255)
    }

    /// The picture for the learned `cube`; `occupied` holds `cellsPerAxis`^3 flags, red fastest.
    func render(cube: ColorCube, occupied: [Bool]) -> RasterImage {
        let gap = Self.gap
        let columnWidth = pairs.map { max($0.before.width, $0.after.width) }.max() ?? 0
        let tileSide = Self.cellsPerAxis * Self.cellSide
        let stripWidth = Self.cellsPerAxis * tileSide + (Self.cellsPerAxis - 1) * gap / 2
        let legendHeight = 12
        let width = max(4 * columnWidth + 5 * gap, stripWidth + 2 * gap)
        let rowsHeight = pairs.reduce(0) { $0 + $1.before.height + gap }
        let band = Self.labelBand
        let height = gap + band + rowsHeight + legendHeight + band + gap + band + band + tileSide + gap
        var canvas = Canvas(width: width, height: height, fill: Self.background)
        let engine = LUTEngine(cube: cube, interpolation: .trilinear)
        var y = gap
        for (column, title) in ["BEFORE", "AFTER", "LEARNED LOOK ON BEFORE", "ERROR (CIEDE2000)"].enumerated() {
            canvas.draw(title, x: gap + column * (columnWidth + gap), y: y, scale: 1, color: Self.ink)
        }
        y += band
        for pair in pairs {
            var learned = pair.before
            pair.before.rgb.withUnsafeBufferPointer { source in
                learned.rgb.withUnsafeMutableBufferPointer { destination in
                    guard let s = source.baseAddress, let d = destination.baseAddress else { return }
                    engine.apply(s, to: d, pixelCount: pair.before.width * pair.before.height, layout: .rgb,
                                 parallel: false)
                }
            }
            var heat = learned
            let shared = min(pair.after.width, learned.width) * min(pair.after.height, learned.height)
            for p in 0..<shared {
                let x = p % min(pair.after.width, learned.width), yy = p / min(pair.after.width, learned.width)
                let c = Self.heat(CIEDE2000.difference(sRGB: learned.color(x, yy), pair.after.color(x, yy)))
                let o = (yy * heat.width + x) * 3
                heat.rgb[o] = c.x
                heat.rgb[o + 1] = c.y
                heat.rgb[o + 2] = c.z
            }
            for (column, image) in [pair.before, pair.after, learned, heat].enumerated() {
                canvas.paste(image.raster, x: gap + column * (columnWidth + gap), y: y)
            }
            y += pair.before.height + gap
        }
        // The heat map's scale, 0 to 16, under the fourth column, numbered below.
        let legendX = gap + 3 * (columnWidth + gap)
        for x in 0..<columnWidth {
            let c = Self.heat(16 * Double(x) / Double(max(columnWidth - 1, 1)))
            for dy in 0..<legendHeight { canvas.fill(x: legendX + x, y: y + dy, size: 1, color: c) }
        }
        y += legendHeight
        for mark in Self.scaleMarks {
            let text = mark == Self.scaleMarks.last ? "\(mark)+" : "\(mark)"
            let centre = legendX + mark * (columnWidth - 1) / 16
            let left = min(max(centre - BitmapFont.width(of: text) / 2, legendX), legendX + columnWidth - BitmapFont.width(of: text))
            canvas.fill(x: centre, y: y, size: 2, color: Self.ink)
            canvas.draw(text, x: left, y: y + 3, scale: 1, color: Self.ink)
        }
        y += band + gap
        canvas.draw("COLOURS THE PAIRS SHOW - EACH TILE ONE EIGHTH OF BLUE - RED ACROSS - GREEN DOWN - GREY CELLS UNSEEN",
                    x: gap, y: y, scale: 1, color: Self.ink)
        y += band
        let n = Self.cellsPerAxis
        for blue in 0..<n {
            let tileX = gap + blue * (tileSide + gap / 2)
            canvas.draw("BLUE \(blue * 256 / n)-\((blue + 1) * 256 / n - 1)", x: tileX, y: y, scale: 1, color: Self.ink)
        }
        y += band
        for blue in 0..<n {
            let tileX = gap + blue * (tileSide + gap / 2)
            for green in 0..<n {
                for red in 0..<n {
                    let centre = SIMD3(Double(red), Double(green), Double(blue)) + 0.5
                    let rgb = (centre / Double(n) * 255).rounded(.toNearestOrAwayFromZero)
                    let colour = SIMD3(UInt8(rgb.x), UInt8(rgb.y), UInt8(rgb.z))
                    let covered = occupied[red + n * (green + n * blue)]
                    let x0 = tileX + red * Self.cellSide, y0 = y + green * Self.cellSide
                    for dy in 0..<Self.cellSide {
                        for dx in 0..<Self.cellSide {
                            let dot = abs(2 * dx - Self.cellSide + 1) < 5 && abs(2 * dy - Self.cellSide + 1) < 5
                            canvas.fill(x: x0 + dx, y: y0 + dy, size: 1, color: covered || dot ? colour : SIMD3(72, 72, 72))
                        }
                    }
                }
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: .eight(canvas.samples), colorSpace: .sRGB)
    }
}

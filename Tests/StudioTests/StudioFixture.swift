import ColorCubeConverter
import ColorCubeCore
import ColorCubeImaging
import ColorCubeLooks
import Foundation
import ColorCubeStudio

/// A folder of small photos and looks made by the test, and the studio's routes over it.
final class StudioFixture: @unchecked Sendable {
    let root: String
    let photos: String
    let looks: String
    let routes: StudioRoutes
    static let host = "127.0.0.1:50000"

    /// Two photos (a 96x64 and a 40x30 gradient) and three looks: warm.cube, cool.cube (9-cubes)
    /// and lift.cc (an ASC CDL).
    init(host: String = StudioFixture.host) throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("studio-tests-\(UUID().uuidString)").path
        photos = root + "/photos"
        looks = root + "/looks"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: looks, withIntermediateDirectories: true)
        try Self.gradient(width: 96, height: 64).write(to: photos + "/a.png")
        try Self.gradient(width: 40, height: 30).write(to: photos + "/b.png")
        try Self.cube { SIMD3(min(1, $0.x * 1.1 + 0.05), $0.y, $0.z * 0.85) }.write(to: looks + "/warm.cube")
        try Self.cube { SIMD3($0.x * 0.8, $0.y * 0.95 + 0.02, min(1, $0.z * 1.2)) }.write(to: looks + "/cool.cube")
        try """
            <ColorCorrection id="lift"><SOPNode><Slope>1.1 1 0.9</Slope><Offset>0.02 0 -0.01</Offset>\
            <Power>0.9 1 1.1</Power></SOPNode><SatNode><Saturation>0.8</Saturation></SatNode></ColorCorrection>
            """.write(toFile: looks + "/lift.cc", atomically: true, encoding: .utf8)
        let catalog = try StudioCatalog(photoInputs: [photos], lookFolders: [looks], samples: nil)
        routes = StudioRoutes(catalog: catalog, renderer: try StudioRenderer(), guardian: StudioGuard(host: host))
    }

    deinit {
        routes.renderer.close()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A request that passes every check: the right Host and the cookie.
    func request(_ method: String = "GET", _ path: String, query: [String: String] = [:], headers: [String: String] = [:],
                 body: Data = Data()) -> StudioRequest {
        var all = ["Host": routes.guardian.host, "Cookie": "\(routes.guardian.cookieName)=\(routes.guardian.secret)"]
        if method == "POST" { all["Content-Type"] = "application/json" }
        all.merge(headers) { $1 }
        return StudioRequest(method: method, path: path, query: query, headers: all, body: body)
    }

    func get(_ path: String, _ query: [String: String] = [:]) -> StudioResponse {
        routes.respond(request("GET", path, query: query))
    }

    /// The JSON of a chain of (look, strength) nodes.
    static func chain(_ nodes: [(String, Double?)]) -> String {
        let encoded = try? JSONEncoder().encode(nodes.map { StudioChain.Node(look: $0.0, strength: $0.1) })
        return String(decoding: encoded ?? Data(), as: UTF8.self)
    }

    /// PNG bytes of a gradient that meets many colours.
    static func gradient(width: Int, height: Int) throws -> Data {
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = 3 * (y * width + x)
                samples[i] = UInt8(x * 255 / max(width - 1, 1))
                samples[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                samples[i + 2] = UInt8((x * 7 + y * 13) % 256)
            }
        }
        let image = RasterImage(width: width, height: height, channels: 3, pixels: .eight(samples), colorSpace: .sRGB)
        let path = NSTemporaryDirectory() + "/gradient-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGFile.write(image, to: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A 9-cube .cube file of `transform`.
    static func cube(_ transform: @escaping (SIMD3<Float>) -> SIMD3<Float>) throws -> Data {
        let table = try ColorCube(size: 9, sampling: transform)
        let path = NSTemporaryDirectory() + "/cube-\(UUID().uuidString).cube"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try LUTWriter.write(table, format: CubeTextFormat(), to: path, title: "test")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The 8-bit samples of PNG bytes.
    static func samples(_ png: Data) throws -> [UInt8] {
        guard case .eight(let samples) = try pixels(png).pixels else { return [] }
        return samples
    }

    /// The 8-bit samples of a PNG file.
    static func samples(path: String) throws -> [UInt8] {
        try samples(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The pixels of PNG bytes.
    static func pixels(_ png: Data) throws -> RasterImage {
        let path = NSTemporaryDirectory() + "/read-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try png.write(to: URL(fileURLWithPath: path))
        return try PNGFile.read(path: path)
    }
}

extension Data {
    func write(to path: String) throws { try write(to: URL(fileURLWithPath: path)) }
}

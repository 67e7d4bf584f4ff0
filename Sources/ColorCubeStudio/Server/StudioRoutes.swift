import ColorCubeConverter
import ColorCubeCore
import ColorCubeLooks
import ColorCubeTransform
import Foundation

/// The studio's routes over its catalogue, renderer and grading job: a request in, a response out,
/// with no socket, so that every route and every refusal is tested directly.
///
/// | route | what it gives |
/// | --- | --- |
/// | `GET /` | the page (`GET /?token=SECRET` trades the secret for a cookie first) |
/// | `GET /app.js`, `GET /app.css` | the page's script and style |
/// | `GET /api/state` | the photos, looks, colour spaces and export formats, as JSON |
/// | `GET /api/image?photo=N&width=W&chain=JSON` | the photo at W pixels wide under the chain, PNG |
/// | `GET /api/command?photo=N&chain=JSON` | the LOOK text and the `colorcube apply` line, JSON |
/// | `GET /api/export?chain=JSON&format=F&size=S` | the chain as `convert` writes it, a download |
/// | `POST /api/grade` `{"chain": [...], "output": "/folder"}` | starts grading every photo |
/// | `GET /api/grade` | the grading run's progress and summary |
public struct StudioRoutes: Sendable {
    public let catalog: StudioCatalog
    public let renderer: StudioRenderer
    public let guardian: StudioGuard
    public let grading: GradeJob

    public init(catalog: StudioCatalog, renderer: StudioRenderer, guardian: StudioGuard, grading: GradeJob = GradeJob()) {
        self.catalog = catalog
        self.renderer = renderer
        self.guardian = guardian
        self.grading = grading
    }

    /// Checks `request` (`StudioGuard`) and answers it; never throws, every failure is a response.
    public func respond(_ request: StudioRequest) -> StudioResponse {
        var response: StudioResponse
        if let refusal = guardian.check(request) {
            response = refusal
        } else {
            do {
                response = try route(request)
            } catch {
                response = .failure(error)
            }
        }
        response.headers += [
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'none'"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ]
        if response.header("Cache-Control") == nil { response.headers.append(("Cache-Control", "no-store")) }
        return response
    }

    private func route(_ request: StudioRequest) throws(StudioError) -> StudioResponse {
        let get = request.method == "GET" || request.method == "HEAD"
        switch (request.path, get) {
        case ("/", true):
            return .text(StudioPage.html, type: "text/html; charset=utf-8")
        case ("/app.js", true):
            return .text(StudioPage.script, type: "text/javascript; charset=utf-8")
        case ("/app.css", true):
            return .text(StudioPage.style, type: "text/css; charset=utf-8")
        case ("/api/state", true):
            return .json(state())
        case ("/api/image", true):
            let photo = try catalog.photo(request.query["photo"])
            let width = try number(request.query["width"], name: "width", range: StudioRenderer.widths) ?? 1280
            let spec = try StudioChain(json: request.query["chain"]).spec(in: catalog)
            let png = try renderer.png(photo, width: width, spec: spec)
            return StudioResponse(headers: [("Content-Type", "image/png")], body: png)
        case ("/api/command", true):
            let photo = try catalog.photo(request.query["photo"])
            guard let spec = try StudioChain(json: request.query["chain"]).spec(in: catalog) else {
                return .json(["look": "", "command": ""])
            }
            let output = "graded/" + FilePath.split(photo.path).name
            return .json(["look": spec, "command": StudioChain.command(spec: spec, photo: photo.path, output: output)])
        case ("/api/export", true):
            guard let spec = try StudioChain(json: request.query["chain"]).spec(in: catalog) else {
                throw .badRequest("add a look to the chain to export it")
            }
            let format = request.query["format"] ?? "cube"
            let size = try number(request.query["size"], name: "size", range: ColorCube.sizeRange)
            let bytes = try renderer.export(spec, format: format, size: size)
            let name = Self.fileName(for: spec, format: format)
            return StudioResponse(headers: [("Content-Type", "application/octet-stream"),
                                            ("Content-Disposition", "attachment; filename=\"\(name)\"")], body: bytes)
        case ("/api/grade", true):
            return .json(grading.status)
        case ("/api/grade", false) where request.method == "POST":
            struct Order: Decodable {
                var chain: [StudioChain.Node]
                var output: String
            }
            guard let order = try? JSONDecoder().decode(Order.self, from: request.body) else {
                throw .badRequest("grading takes {\"chain\": [nodes], \"output\": \"/absolute/folder\"}")
            }
            let chain = try StudioChain(json: String(decoding: (try? JSONEncoder().encode(order.chain)) ?? Data(), as: UTF8.self))
            guard let spec = try chain.spec(in: catalog) else { throw .badRequest("add a look to the chain to grade with it") }
            try grading.start(spec: spec, engine: try renderer.engine(spec), inputs: catalog.photoInputs, output: order.output,
                              readFolders: catalog.photoInputs + catalog.lookInputs)
            return .json(grading.status, status: 202)
        case ("/", false), ("/app.js", false), ("/app.css", false), ("/api/state", false), ("/api/image", false),
             ("/api/command", false), ("/api/export", false), ("/api/grade", _):
            throw .methodNotAllowed(method: request.method, path: request.path)
        default:
            throw .notFound(request.path)
        }
    }

    /// What the page lists.
    struct State: Encodable {
        struct Photo: Encodable { var id: Int; var name: String }
        struct LookTile: Encodable { var name: String; var group: String }
        struct Space: Encodable { var id: String; var name: String }
        var photos: [Photo]
        var looks: [LookTile]
        var spaces: [Space]
        var formats: [String]
        var photoSpace: String
    }

    func state() -> State {
        State(photos: catalog.photos.enumerated().map { State.Photo(id: $0.offset, name: $0.element.name) },
              looks: catalog.looks.map { State.LookTile(name: $0.name, group: $0.group) },
              spaces: ColorSpaces.all.filter { $0.kind == .scene }.map { State.Space(id: $0.id, name: $0.name) },
              formats: ["cube", "clf", "raw", "png"], photoSpace: StudioChain.photoSpace)
    }

    /// A whole number parameter in `range`, nil when absent.
    private func number(_ text: String?, name: String, range: ClosedRange<Int>) throws(StudioError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text.prefix(20))")
        }
        return value
    }

    /// "film+grade.cube" for a chain, by the stems of its looks.
    static func fileName(for spec: String, format: String) -> String {
        let stems = LookSpec.paths(spec).map { FilePath.stem($0) }
        let base = stems.joined(separator: "+").filter { $0.isLetter || $0.isNumber || "-_+.".contains($0) }
        let pathExtension = format == "raw" ? "bin" : format
        return (base.isEmpty ? "look" : String(base.prefix(80))) + "." + pathExtension
    }
}

import ColorCubeApplier
import ColorCubeConverter
import ColorCubeCore
import ColorCubeEngine
import ColorCubeImaging
import ColorCubeLooks
import Foundation
import Testing
import ColorCubeStudio

/// The routes and their checks, without sockets.
@Suite struct StudioRoutesTests {
    @Test func thePageAndItsPartsAreServedWithTheirMarks() throws {
        let fixture = try StudioFixture()
        let page = fixture.get("/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let html = String(decoding: page.body, as: UTF8.self)
        for role in ["chain", "preview", "command", "export"] { #expect(html.contains("data-role=\"\(role)\"")) }
        // Nothing from other hosts.
        #expect(!html.contains("http://") && !html.contains("https://"))
        let script = String(decoding: fixture.get("/app.js").body, as: UTF8.self)
        for mark in ["\"data-look\"", "\"data-role\": \"photo\"", "\"data-role\": \"node\""] { #expect(script.contains(mark)) }
        #expect(!script.contains("http://") && !script.contains("https://"))
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
    }

    @Test func stateListsPhotosAndLooks() throws {
        let fixture = try StudioFixture()
        let state = try JSONSerialization.jsonObject(with: fixture.get("/api/state").body) as? [String: Any]
        let photos = state?["photos"] as? [[String: Any]], looks = state?["looks"] as? [[String: Any]]
        #expect(photos?.compactMap { $0["name"] as? String } == ["a.png", "b.png"])
        #expect(looks?.compactMap { $0["name"] as? String } == ["cool.cube", "lift.cc", "warm.cube"])
    }

    @Test func photosAndLooksMayBeGivenAsFiles() throws {
        let fixture = try StudioFixture()
        let catalog = try StudioCatalog(photoInputs: [fixture.photos + "/b.png"], lookFolders: [fixture.looks + "/lift.cc"], samples: nil)
        #expect(catalog.photos.map(\.name) == ["b.png"])
        #expect(catalog.looks.map(\.name) == ["lift.cc"])
        #expect(throws: StudioError.refusedFolder(path: fixture.root + "/none", reason: "no such file or folder")) {
            try StudioCatalog(photoInputs: [fixture.root + "/none"], lookFolders: [], samples: nil)
        }
    }

    @Test func thePreviewIsTheLookAppliedToTheScaledPhoto() throws {
        let fixture = try StudioFixture()
        let before = fixture.get("/api/image", ["photo": "0", "width": "48"])
        let after = fixture.get("/api/image", ["photo": "0", "width": "48", "chain": StudioFixture.chain([("warm.cube", nil)])])
        #expect(before.status == 200 && after.status == 200)
        var expected = try StudioFixture.pixels(before.body)
        #expect(expected.width == 48 && expected.height == 32)
        let look = try LUTReader.read(path: fixture.looks + "/warm.cube")
        try ImageApplier(engine: try LUTEngine(transform: look.transform)).apply(to: &expected)
        guard case .eight(let expectedSamples) = expected.pixels else {
            Issue.record("not 8-bit")
            return
        }
        #expect(try StudioFixture.samples(after.body) == expectedSamples)
    }

    @Test func theCommandIsTheChainInTheLookSyntax() throws {
        let fixture = try StudioFixture()
        let chain = StudioFixture.chain([("warm.cube", nil), ("lift.cc", 0.6)])
        let body = try JSONSerialization.jsonObject(with: fixture.get("/api/command", ["photo": "1", "chain": chain]).body)
        let command = (body as? [String: String])?["command"]
        #expect(command == "colorcube apply \(fixture.looks)/warm.cube+\(fixture.looks)/lift.cc@0.6 \(fixture.photos)/b.png -o graded/b.png")
    }

    @Test func aNodeInALookSpaceConvertsAroundIt() throws {
        let fixture = try StudioFixture()
        var node = StudioChain.Node(look: "warm.cube", strength: 0.5, space: "acescct")
        node.outputSpace = "camera_rec709"
        let spec = try StudioChain(nodes: [node]).spec(in: fixture.routes.catalog)
        #expect(spec == "space:srgb_rec709_scene,acescct+\(fixture.looks)/warm.cube@0.5+space:camera_rec709,srgb_rec709_scene")
    }

    @Test func anExportIsWhatConvertWrites() throws {
        let fixture = try StudioFixture()
        let chain = StudioFixture.chain([("warm.cube", nil), ("cool.cube", 0.25)])
        let response = fixture.get("/api/export", ["chain": chain, "format": "cube", "size": "17"])
        #expect(response.status == 200)
        #expect(response.header("Content-Disposition") == "attachment; filename=\"warm+cool.cube\"")
        let spec = "\(fixture.looks)/warm.cube+\(fixture.looks)/cool.cube@0.25"
        let path = fixture.root + "/expected.cube"
        try LUTWriter.write(try LookSpec.read(spec, options: LUTReadOptions()), format: CubeTextFormat(), to: path,
                            title: FilePath.stem(spec), size: 17)
        #expect(response.body == (try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func gradingWritesEveryPhotoAndTheSummary() async throws {
        let fixture = try StudioFixture()
        let output = fixture.root + "/graded"
        let body = Data(#"{"chain": [{"look": "cool.cube", "strength": 0.5}], "output": "\#(output)"}"#.utf8)
        let started = fixture.routes.respond(fixture.request("POST", "/api/grade", body: body))
        #expect(started.status == 202)
        var status = fixture.routes.grading.status
        for _ in 0..<200 where status.running {
            try await Task.sleep(for: .milliseconds(20))
            status = fixture.routes.grading.status
        }
        #expect(status.summary == "2 done, 0 skipped, 0 failed")
        #expect(FileManager.default.fileExists(atPath: output + "/a.png") && FileManager.default.fileExists(atPath: output + "/b.png"))
        // Resumed: what exists is kept.
        _ = fixture.routes.respond(fixture.request("POST", "/api/grade", body: body))
        for _ in 0..<200 where fixture.routes.grading.status.running { try await Task.sleep(for: .milliseconds(20)) }
        #expect(fixture.routes.grading.status.summary == "0 done, 2 skipped, 0 failed")
    }

    @Test(arguments: [
        ("photos", "lies inside the photos"), ("photos/sub", "inside"), ("", "holds them"), ("relative", "absolute"),
    ])
    func gradingNeverWritesWhereItReads(folder: String, why: String) throws {
        let fixture = try StudioFixture()
        let output = folder == "relative" ? "graded" : folder.isEmpty ? fixture.root : fixture.root + "/" + folder
        let body = Data(#"{"chain": [{"look": "cool.cube"}], "output": "\#(output)"}"#.utf8)
        let response = fixture.routes.respond(fixture.request("POST", "/api/grade", body: body))
        #expect(response.status == 403)
        #expect(!fixture.routes.grading.status.running)
    }

    @Test func everyRefusalIsAClearError() throws {
        let fixture = try StudioFixture()
        let guardian = fixture.routes.guardian
        func status(_ request: StudioRequest) -> (Int, String) { answer(fixture.routes.respond(request)) }
        func answer(_ response: StudioResponse) -> (Int, String) {
            let error = (try? JSONSerialization.jsonObject(with: response.body) as? [String: String])?["error"] ?? ""
            return (response.status, error)
        }
        // No secret, a wrong one, the secret in the address: a cookie and the page.
        #expect(status(StudioRequest(method: "GET", path: "/", headers: ["Host": guardian.host])).0 == 401)
        #expect(status(StudioRequest(method: "GET", path: "/", query: ["token": "00"], headers: ["Host": guardian.host])).0 == 401)
        let entry = fixture.routes.respond(StudioRequest(method: "GET", path: "/", query: ["token": guardian.secret],
                                                        headers: ["Host": guardian.host]))
        #expect(entry.status == 303)
        #expect(entry.header("Set-Cookie") == "\(guardian.cookieName)=\(guardian.secret); Path=/; HttpOnly; SameSite=Strict")
        // DNS rebinding, other sites, oversize bodies.
        #expect(status(fixture.request("GET", "/api/state", headers: ["Host": "evil.example:50000"])).0 == 403)
        #expect(status(fixture.request("GET", "/api/state", headers: ["Sec-Fetch-Site": "cross-site"])).0 == 403)
        #expect(status(fixture.request("POST", "/api/grade", headers: ["Origin": "http://evil.example"])).0 == 403)
        #expect(status(fixture.request("POST", "/api/grade", headers: ["Content-Type": "text/plain"])).0 == 400)
        #expect(status(fixture.request("POST", "/api/grade", headers: ["Content-Length": "100000000"])).0 == 413)
        // Paths, photos and looks that are not listed.
        #expect(answer(fixture.get("/../../etc/passwd")).0 == 404)
        #expect(answer(fixture.get("/api/image", ["photo": "../../etc/passwd"])).0 == 404)
        #expect(answer(fixture.get("/api/image", ["photo": "7"])).0 == 404)
        let outside = answer(fixture.get("/api/image", ["photo": "0", "chain": StudioFixture.chain([("../../etc/passwd", nil)])]))
        #expect(outside.0 == 404 && outside.1.contains("no look named \"../../etc/passwd\""))
        #expect(answer(fixture.get("/api/image", ["photo": "0", "chain": StudioFixture.chain([("/etc/passwd", nil)])])).0 == 404)
        #expect(answer(fixture.get("/api/image", ["photo": "0", "chain": "[{]"])).0 == 400)
        #expect(answer(fixture.get("/api/image", ["photo": "0", "chain": StudioFixture.chain([("warm.cube", 2)])])).0 == 400)
        #expect(answer(fixture.get("/api/image", ["photo": "0", "width": "100000"])).0 == 400)
        #expect(answer(fixture.get("/api/export", ["chain": StudioFixture.chain([("warm.cube", nil)]), "format": "gif"])).0 == 400)
        #expect(answer(fixture.get("/api/export", ["chain": StudioFixture.chain([("warm.cube", nil)]), "size": "999"])).0 == 400)
        #expect(status(fixture.request("DELETE", "/api/state", headers: ["Content-Type": "application/json"])).0 == 405)
    }

    @Test func errorsNameWhatWasRefused() {
        #expect(StudioError.unknownLook("x.cube").description == "no look named \"x.cube\": the studio lists the looks of the folders it was given")
        #expect(StudioError.tooLarge(declared: 9, limit: 4).description == "a request body of 9 bytes is refused: the studio takes at most 4 bytes")
        #expect(StudioError.foreignHost("a:1").status == 403)
    }
}

import ColorCubeImaging

extension FuzzTarget {
    /// The PNG decoder, reading the input from an in-memory file.
    static let png = FuzzTarget(name: "png") { bytes in
        guard DeclaredSize.isSmall(DeclaredSize.png(bytes)) else { return }
        ScratchFile.withPath(holding: bytes) { path in
            _ = try? PNGFile.read(path: path)
        }
    }
}

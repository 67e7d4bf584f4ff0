import ColorCubeImaging

extension FuzzTarget {
    /// The JPEG decoder, reading the input from an in-memory file.
    static let jpeg = FuzzTarget(name: "jpeg") { bytes in
        guard DeclaredSize.isSmall(DeclaredSize.jpeg(bytes)) else { return }
        ScratchFile.withPath(holding: bytes) { path in
            _ = try? JPEGFile.read(path: path)
        }
    }
}

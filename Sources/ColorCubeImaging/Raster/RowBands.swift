/// Decodes an image's rows a band at a time into a buffer that grows only as decoded data arrives, so
/// that a file whose header declares far more pixels than its data holds is found truncated before
/// the declared size is ever allocated.
///
/// The buffer starts at what the file's size can plausibly hold (64 times its bytes: photos
/// compress about 2:1, flat graphics rarely beyond 50:1) and doubles from there, up to the
/// declared size; a real photo is thus allocated once at its full size. Interlaced images need
/// every row at once (each pass touches all of them), so they are allocated whole.
///
/// Any decoder that produces rows top to bottom uses it: PNG, JPEG.
struct RowBands {
    let width: Int
    let height: Int
    let channels: Int
    let interlaced: Bool
    /// The file's length, or nil when unknown.
    let fileBytes: Int?

    /// Rows per call into libpng: about 4 MB of samples.
    private var bandRows: Int { max(1, (4 << 20) / max(1, width * channels)) }

    /// Reads every row with `readRows(base, rows)`, which fills the next `rows` rows at `base` and
    /// returns nil, or the decoder's message when it fails.
    /// - Throws: `ImageError.corrupt` with that message when the data ends early or is damaged,
    ///   `.outOfMemory` when the buffer cannot grow.
    func read<Sample: FixedWidthInteger>(
        path: String, _ readRows: (UnsafeMutableRawPointer?, Int) -> String?
    ) throws(ImageError) -> [Sample] {
        let rowSamples = width * channels
        let total = rowSamples * height
        if interlaced {
            var samples: [Sample] = try SampleBuffer.make(count: total, path: path)
            let failure = samples.withUnsafeMutableBytes { readRows($0.baseAddress, height) }
            if let failure { throw .corrupt(path: path, reason: failure) }
            return samples
        }
        let plausible = (fileBytes ?? Int.max / 128).multipliedReportingOverflow(by: 64)
        var samples: [Sample] = []
        var capacity = min(total, plausible.overflow ? total : max(plausible.partialValue / MemoryLayout<Sample>.stride,
                                                                    rowSamples * bandRows))
        try reserve(&samples, capacity, path: path)
        var row = 0
        while row < height {
            let rows = min(bandRows, height - row)
            let needed = (row + rows) * rowSamples
            if needed > capacity {
                capacity = min(total, max(needed, capacity.multipliedReportingOverflow(by: 2).partialValue))
                try reserve(&samples, capacity, path: path)
            }
            samples.append(contentsOf: repeatElement(0, count: rows * rowSamples))
            let offset = row * rowSamples * MemoryLayout<Sample>.stride
            let failure = samples.withUnsafeMutableBytes { readRows($0.baseAddress.map { $0 + offset }, rows) }
            if let failure { throw .corrupt(path: path, reason: failure) }
            row += rows
        }
        return samples
    }

    private func reserve<Sample: FixedWidthInteger>(_ samples: inout [Sample], _ count: Int, path: String) throws(ImageError) {
        try SampleBuffer.checkAvailable(count: count, of: Sample.self, path: path)
        samples.reserveCapacity(count)
    }
}

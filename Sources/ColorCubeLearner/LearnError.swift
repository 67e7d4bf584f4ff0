import ColorCubeCore

/// Why a look could not be learned; each case carries its evidence.
public enum LearnError: ColorCubeError, Equatable {
    /// The two images of a pair differ in pixel size.
    case sizeMismatch(before: String, beforeWidth: Int, beforeHeight: Int,
                      after: String, afterWidth: Int, afterHeight: Int)
    /// A pixel buffer handed over in code is not what it claims.
    case badBuffer(reason: String)
    /// One input is a file and the other a folder.
    case mixedInputs(file: String, folder: String)
    /// Two folders share no file by relative path.
    case noPairs(before: String, after: String)
    /// `fit` was asked before any pair with a usable pixel was added.
    case noPixels
    /// A lattice size the learner does not fit.
    case invalidSize(Int)
    /// A smoothness that is negative or not finite.
    case invalidSmoothness(Double)

    /// The largest lattice a look is learned on: a 65-cube's normal equations take about 70 MB;
    /// photo pairs rarely pin down a finer lattice.
    public static let sizeRange = 2...65

    public var path: String? {
        switch self {
        case .sizeMismatch(let before, _, _, _, _, _): before
        case .mixedInputs(let file, _): file
        case .noPairs(let before, _): before
        case .badBuffer, .noPixels, .invalidSize, .invalidSmoothness: nil
        }
    }

    public var description: String {
        switch self {
        case .sizeMismatch(let before, let bw, let bh, let after, let aw, let ah):
            "\(before) is \(bw)x\(bh) pixels but \(after) is \(aw)x\(ah): the two images of a pair must have the "
                + "same pixel size; export both at full size, uncropped and unrotated"
        case .badBuffer(let reason):
            "the pixel buffer has \(reason)"
        case .mixedInputs(let file, let folder):
            "\(file) is a file but \(folder) is a folder: give two images or two folders"
        case .noPairs(let before, let after):
            "no image in \(before) has a partner of the same relative path in \(after) (extensions may differ)"
        case .noPixels:
            "no pixels to learn from: every pair was empty or fully transparent"
        case .invalidSize(let size):
            "a look is learned on 2 to 65 points per axis, not \(size)"
        case .invalidSmoothness(let value):
            "smoothness \(value) is not a finite number of 0 or more"
        }
    }
}

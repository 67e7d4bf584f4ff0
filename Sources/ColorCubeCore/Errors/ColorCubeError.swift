/// The one shape every library error of colorcube has: what went wrong, with the evidence, and the
/// file it concerns.
///
/// Library modules describe the problem in plain words ("photo.png declares 100000x100000 pixels,
/// over the limit of 500000000"); they never tell the user which command-line flag to pass. The
/// command-line tool adds that advice from `advice`'s key, so a Swift app that links the library
/// gets messages that make sense without a command line.
public protocol ColorCubeError: Error, Sendable, CustomStringConvertible {
    /// The file or folder the error concerns, or nil when it concerns none (a bad value given in
    /// code). When not nil, `description` names it.
    var path: String? { get }

    /// A stable key for the kind of remedy that fits, for front ends to turn into their own advice
    /// (the command-line tool maps it to a flag); nil when the description says all there is.
    var remedy: ErrorRemedy? { get }
}

extension ColorCubeError {
    public var remedy: ErrorRemedy? { nil }
}

/// What a user can do about an error, independent of how a front end spells it. Cases carry what
/// the advice needs (the size to ask for), never a flag.
public enum ErrorRemedy: Sendable, Equatable {
    /// Keep the code values as stored instead of converting an embedded colour profile.
    case ignoreProfile
    /// Resample the cube to another lattice size: to at most `largestSize` points per axis, or,
    /// when nil, to one of the sizes the format holds (which are not one range).
    case resample(largestSize: Int?)
    /// Ask for the size the file has (`foundSize`), or for none.
    case chooseSize(foundSize: Int)
    /// Premultiply a transparent reference instead of refusing it.
    case premultiplyAlpha
    /// Read the data as raw frames rather than as an image file.
    case rawFrames
    /// Check the declared raw frame size and pixel format against what the producer sends.
    case checkFrameFormat
    /// Raise the pixel limit for decoded images.
    case raisePixelLimit
    /// A picture was given where a look was expected: the look comes first, the pictures after.
    case lookComesFirst
    /// Name a video encoder: the clip's codec has none to default to.
    case chooseVideoEncoder
    /// Drop the constant-quality factor, or choose an encoder that has one.
    case chooseQualityEncoder
}

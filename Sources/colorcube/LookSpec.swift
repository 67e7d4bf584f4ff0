import ColorCubeConverter

extension LookSpec {
    /// The help text's description of a LOOK argument.
    static let help = "any LUT file (" + FormatArgument.readableList + "), or several joined by + to chain them, "
        + "each at a strength with @ (film.cube@0.6+grade.cc); space:FROM,TO in a chain converts between two colour spaces"
}

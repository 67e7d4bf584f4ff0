// ColorCubeConverter extends ColorCubeLooks (its `LUTFormats.all` is the portable table plus the
// image and ICC formats; its formats read into `Look`s), so a module that imports the converter
// sees the whole look API without a second import.
@_exported import ColorCubeLooks

import ColorCubeCore
enum CubeTextFormatPending { static func write(_ t: some CubeTable, title: String, to: String, displayPath: String) throws { throw ConversionError.unsupportedOutput(path: to, reason: "pending") } }

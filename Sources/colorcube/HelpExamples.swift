/// The examples each command's `--help` ends with, as `ociobakelut --help` shows its own.
enum HelpExamples {
    /// "\n\nEXAMPLES:\n  line\n  line", to end a command's discussion.
    static func block(_ lines: [String]) -> String {
        "\n\nEXAMPLES:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }

    static let generate = block([
        "colorcube generate -o identity-64.png              # the reference to edit",
        "colorcube generate --size 16 --depth 16 -o ref.png # a 16-bit 16-cube",
        "colorcube generate --all -o refs/",
    ])

    static let convert = block([
        "colorcube convert edited.png                # edited.bin, Core Image's data",
        "colorcube convert edited.png -o look.cube   # for Resolve, Premiere, ffmpeg",
        "colorcube convert film.png --size 64 -o film.bin",
        "colorcube convert show-lut.clf -o show-lut.cube",
        "colorcube convert shot.ccc --cdl-id cool -o cool.cc",
        "colorcube convert --from slog3_sgamut3cine --to acescct -o slog3-to-acescct.clf",
        "colorcube convert sony-look.cube --look-space slog3_sgamut3cine --look-output-space camera_rec709 -o photo-look.cube",
    ])

    static let spaces = block([
        "colorcube spaces             # every colour space, one line each",
        "colorcube spaces sony        # those whose ID, name or family holds 'sony'",
    ])

    static let apply = block([
        "colorcube apply look.cube photo.jpg -o graded.jpg",
        "colorcube apply look.png ~/Pictures -o ~/Graded --strength 0.7",
        "colorcube apply log-to-709.cube+grade.cc clip.mp4 -o graded.mp4",
        "colorcube apply look.cube --raw 1920x1080 --pixel-format rgb24 -i in.rgb -o out.rgb",
        "colorcube apply slog3-to-709.cube photo.jpg --look-space slog3_sgamut3cine --look-output-space camera_rec709 -o out.jpg",
    ])

    static let combine = block([
        "colorcube combine camera-log.cube grade.cc display.clf -o shot.clf",
        "colorcube combine camera-log.cube grade.cc -o shot.cube --size 65",
    ])

    static let invert = block([
        "colorcube invert rec709-to-log.cube -o log-to-rec709.cube",
        "colorcube invert show-lut.clf -o show-lut-inverse.clf",
    ])

    static let info = block([
        "colorcube info look.cube",
        "colorcube info LUTs/*.png show-lut.clf",
        "colorcube info shaper.spi1d+grade.cube+look.cc   # how a chain is applied",
    ])

    static let preview = block([
        "colorcube preview LUTs/*.cube --image photo.jpg -o sheet.png",
        "colorcube preview a.cube b.cube --image photo.jpg -o sheet.png --columns 2",
    ])

    static let learn = block([
        "colorcube learn before.png after.png -o look.cube",
        "colorcube learn before/ after/ -o look.cube --report look-report.png",
        "colorcube learn before.png after.png -o slog3-look.cube --look-space slog3_sgamut3cine",
    ])
}

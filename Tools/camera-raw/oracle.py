#!/usr/bin/env python3
"""Camera Raw profile fixtures and comparisons against Adobe's DNG SDK (an oracle built from the SDK's
sources: its `decode`, `encode`, `spaces` modes). The SDK is a peer to test against, never part of
colorcube.

  oracle.py fixtures ORACLE OUTDIR     encode the fixture profiles with the SDK, evaluate them on a
                                       fixed set of linear ProPhoto colours, write .xmp + .txt files
  oracle.py photos ORACLE COLORCUBE    apply SDK-encoded profiles to 8- and 16-bit photos with
                                       colorcube and with the SDK; print the code differences
  oracle.py written ORACLE COLORCUBE   write profiles with colorcube (convert), decode them with the
                                       SDK, compare its evaluation with colorcube's apply of the look
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np
from PIL import Image

ALPHABET = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?`'|()[]{}@%$#"

# (name, divisions, primaries, gamma, gamut, min amount, max amount, amounts evaluated, dimensions)
FIXTURES = [
    ("srgb-srgb-clip-32", 32, 0, 1, 0, 0.0, 2.0, [1.0, 0.5, 1.6], 3),
    ("adobe-22-extend-17", 17, 1, 3, 1, 0.0, 1.5, [1.0, 0.25], 3),
    ("prophoto-18-clip-9", 9, 2, 2, 0, 0.5, 1.0, [1.0, 0.5], 3),
    ("p3-srgb-extend-25", 25, 3, 1, 1, 0.0, 2.0, [1.0, 2.0], 3),
    ("rec2020-rec2020-clip-12", 12, 4, 4, 0, 0.0, 2.0, [1.0, 0.37], 3),
    ("srgb-linear-clip-16", 16, 0, 0, 0, 0.0, 2.0, [1.0], 3),
    ("srgb-srgb-clip-1d-64", 64, 0, 1, 0, 0.0, 2.0, [1.0, 0.6], 1),
]


def look(rgb):
    """A smooth look in the table's encoded values, 0..1 in and out: contrast, a cross-channel
    twist, a warm cast."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    s = lambda x: 0.5 - 0.5 * np.cos(np.pi * np.clip(x, 0, 1))
    out = np.stack([0.8 * s(r) + 0.15 * g + 0.03,
                    0.85 * s(g) + 0.1 * b + 0.02,
                    0.75 * s(b) + 0.12 * r], axis=-1)
    return np.clip(out, 0, 1)


def base85(data):
    out = bytearray()
    for i in range(0, len(data), 4):
        chunk = data[i:i + 4]
        value = int.from_bytes(chunk + b"\0" * (4 - len(chunk)), "little")
        for _ in range(len(chunk) + 1):
            out.append(ALPHABET[value % 85])
            value //= 85
    return out.decode()


def one_d_text(divisions, primaries, gamma, gamut, lo, hi):
    """A 1D table's text, made here (the oracle's encode makes 3D tables only)."""
    x = np.arange(divisions) / (divisions - 1)
    values = look(np.stack([x, x, x], axis=-1))
    payload = struct.pack("<4I", 1, 1, 1, divisions)
    for i in range(divisions):
        nop = (i * 0xFFFF + divisions // 2) // (divisions - 1)
        for c in range(3):
            payload += struct.pack("<H", (int(round(values[i, c] * 65535)) - nop) & 0xFFFF)
    payload += struct.pack("<3I2d", primaries, gamma, gamut, lo, hi)
    import hashlib
    return base85(struct.pack("<I", len(payload)) + zlib.compress(payload)), hashlib.md5(payload).hexdigest().upper()


def xmp(name, key, text, amount=None):
    extra = f'\n   crs:RGBTableAmount="{amount}"' if amount is not None else ""
    return f"""<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
   crs:PresetType="Look"
   crs:UUID="{key}"
   crs:SupportsAmount="True"{extra}
   crs:RGBTable="{key}"
   crs:Table_{key}="{text}">
   <crs:Name><rdf:Alt><rdf:li xml:lang="x-default">{name}</rdf:li></rdf:Alt></crs:Name>
   <crs:Group><rdf:Alt><rdf:li xml:lang="x-default">Oracle</rdf:li></rdf:Alt></crs:Group>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
"""


def encode(oracle, divisions, primaries, gamma, gamut, lo, hi, dims):
    if dims == 1:
        return one_d_text(divisions, primaries, gamma, gamut, lo, hi)
    i = np.arange(divisions) / (divisions - 1)
    grid = np.stack(np.meshgrid(i, i, i, indexing="ij"), axis=-1).reshape(-1, 3)  # blue fastest
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        np.savetxt(f, look(grid), fmt="%.9f")
    run = subprocess.run([oracle, "encode", f.name, str(divisions), str(primaries), str(gamma), str(gamut), str(lo), str(hi)],
                         capture_output=True, text=True, check=True)
    os.unlink(f.name)
    return run.stdout.strip(), run.stderr.strip()


def evaluate(oracle, text, amount, colours):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    run = subprocess.run([oracle, "decode", f.name, repr(amount)], input="\n".join("%.9g %.9g %.9g" % tuple(c) for c in colours),
                         capture_output=True, text=True, check=True)
    os.unlink(f.name)
    return np.array([[float(v) for v in line.split()] for line in run.stdout.split("\n") if line.strip()])


def spaces(oracle):
    import json
    data = json.loads(subprocess.run([oracle, "spaces"], capture_output=True, text=True, check=True).stdout)
    return np.array(data["srgb_to_prophoto"]), np.array(data["prophoto_to_srgb"])


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(v):
    v = np.clip(v, 0, 1)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def fixture_colours():
    """Linear ProPhoto colours: a 6-step grid and 120 fixed pseudo-random ones, all in 0..1."""
    i = np.arange(6) / 5
    grid = np.stack(np.meshgrid(i, i, i, indexing="ij"), axis=-1).reshape(-1, 3) ** 2.2
    rng = np.random.default_rng(7)
    return np.concatenate([grid, rng.random((120, 3)) ** 2])


def fixtures(oracle, outdir):
    os.makedirs(outdir, exist_ok=True)
    colours = fixture_colours()
    for name, d, p, g, gm, lo, hi, amounts, dims in FIXTURES:
        text, key = encode(oracle, d, p, g, gm, lo, hi, dims)
        default = amounts[1] if len(amounts) > 1 and name.startswith("p3") else None
        with open(os.path.join(outdir, name + ".xmp"), "w") as f:
            f.write(xmp(name, key, text, default))
        with open(os.path.join(outdir, name + ".txt"), "w") as f:
            f.write(f"# {name}: the SDK's evaluation (dng_rgb_to_rgb_table_data::Process_32) per amount;\n"
                    "# each line: amount, linear ProPhoto in (r g b), linear ProPhoto out (r g b)\n")
            for amount in amounts:
                out = evaluate(oracle, text, amount, colours)
                for c, o in zip(colours, out):
                    f.write("%g %.9g %.9g %.9g %.9g %.9g %.9g\n" % (amount, *c, *o))
        print(f"fixtures: {name} ({dims}D, {d} divisions, key {key})")


def photo_codes(bits):
    """Every code of a coarse grid plus a dense neutral ramp, as an image of (N, 1) pixels."""
    top = (1 << bits) - 1
    steps = np.round(np.linspace(0, top, 41)).astype(np.int64)
    grid = np.stack(np.meshgrid(steps, steps, steps, indexing="ij"), axis=-1).reshape(-1, 3)
    ramp = np.repeat(np.round(np.linspace(0, top, 256)).astype(np.int64)[:, None], 3, axis=1)
    return np.concatenate([grid, ramp])


def write_png(codes, bits, path):
    width = 256
    count = len(codes)
    height = (count + width - 1) // width
    padded = np.zeros((height * width, 3), dtype=np.int64)
    padded[:count] = codes
    pixels = padded.reshape(height, width, 3)
    if bits == 8:
        Image.fromarray(pixels.astype(np.uint8), "RGB").save(path)
    else:
        # PIL keeps 16-bit RGB only as 8 bits: write the PNG here (filter 0 rows, one zlib stream).
        rows = b"".join(b"\0" + row.astype(">u2").tobytes() for row in pixels)
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return height


def read_png(path, count, bits):
    if bits == 8:
        return np.asarray(Image.open(path).convert("RGB")).reshape(-1, 3)[:count].astype(np.int64)
    return read_png16(path)[:count]


def read_png16(path):
    """The pixels of a non-interlaced 16-bit RGB PNG (the five row filters undone), (N, 3)."""
    data = open(path, "rb").read()
    at, idat, width, height = 8, b"", 0, 0
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 16 and colour == 2, "expected 16-bit RGB"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride, bpp = width * 6, 6
    out = np.zeros((height, stride), dtype=np.int64)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)], dtype=np.uint8).astype(np.int64)
        cur = np.zeros(stride, dtype=np.int64)
        for x in range(stride):
            a = cur[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 0: p = 0
            elif kind == 1: p = a
            elif kind == 2: p = b
            elif kind == 3: p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    pairs = out.reshape(height, width * 3, 2)
    return (pairs[..., 0] * 256 + pairs[..., 1]).reshape(-1, 3)


def sdk_on_codes(oracle, text, amount, codes, bits, to_pp, from_pp):
    top = (1 << bits) - 1
    linear = srgb_decode(codes / top) @ to_pp.T
    out = evaluate(oracle, text, amount, linear)
    return np.round(srgb_encode(out @ from_pp.T) * top).astype(np.int64)


def photos(oracle, colorcube):
    to_pp, from_pp = spaces(oracle)
    work = tempfile.mkdtemp()
    for name, d, p, g, gm, lo, hi, amounts, dims in FIXTURES:
        text, key = encode(oracle, d, p, g, gm, lo, hi, dims)
        profile = os.path.join(work, name + ".xmp")
        with open(profile, "w") as f:
            f.write(xmp(name, key, text))
        for bits in (8, 16):
            codes = photo_codes(bits)
            src = os.path.join(work, f"in{bits}.png")
            write_png(codes, bits, src)
            for amount in amounts:
                dst = os.path.join(work, f"out-{name}-{bits}-{amount}.png")
                args = [colorcube, "apply", profile, src, "-o", dst]
                if amount != 1.0:
                    args += ["--strength", repr(amount)]
                subprocess.run(args, check=True, capture_output=True)
                ours = read_png(dst, len(codes), bits)
                sdk = sdk_on_codes(oracle, text, amount, codes, bits, to_pp, from_pp)
                diff = np.abs(ours - sdk)
                exact = np.mean(np.all(diff == 0, axis=1)) * 100
                print(f"photos: {name:26s} {bits:2d}-bit amount {amount:<4g} max {diff.max():3d} codes, "
                      f"mean {diff.mean():.4f}, {exact:6.2f}% exact ({len(codes)} colours)")


def written(oracle, colorcube):
    """A smooth 33-cube written by colorcube at 32 in each profile space, decoded and evaluated by
    the SDK, against colorcube's apply of the 33-cube itself, on an 8-bit photo."""
    to_pp, from_pp = spaces(oracle)
    work = tempfile.mkdtemp()
    n = 33
    i = np.arange(n) / (n - 1)
    grid = np.stack(np.meshgrid(i, i, i, indexing="ij"), axis=-1)  # [r][g][b]
    values = look(grid)
    cube = os.path.join(work, "smooth.cube")
    with open(cube, "w") as f:
        f.write(f"LUT_3D_SIZE {n}\n")
        for b in range(n):
            for g in range(n):
                for r in range(n):
                    f.write("%.6f %.6f %.6f\n" % tuple(values[r, g, b]))
    codes = photo_codes(8)
    src = os.path.join(work, "in.png")
    write_png(codes, 8, src)
    ref = os.path.join(work, "ref.png")
    subprocess.run([colorcube, "apply", cube, src, "-o", ref, "--interpolation", "tetrahedral"], check=True, capture_output=True)
    wanted = read_png(ref, len(codes), 8)
    for space, prim in [("srgb", 0), ("adobe-rgb", 1), ("prophoto", 2), ("display-p3", 3), ("rec2020", 4)]:
        profile = os.path.join(work, f"{space}.xmp")
        subprocess.run([colorcube, "convert", cube, "-o", profile, "--profile-space", space, "--size", "32"],
                       check=True, capture_output=True)
        data = open(profile).read()
        key = data.split('crs:RGBTable="')[1].split('"')[0]
        text = data.split(f'crs:Table_{key}="')[1].split('"')[0]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        info = subprocess.run([oracle, "decode", f.name], input="", capture_output=True, text=True).stderr.strip()
        os.unlink(f.name)
        sdk = sdk_on_codes(oracle, text, 1.0, codes, 8, to_pp, from_pp)
        diff = np.abs(sdk - wanted)
        print(f"written: {space:10s} SDK: {info}  key {key}\n"
              f"         SDK evaluation vs colorcube apply of the 33-cube: max {diff.max()} codes, mean {diff.mean():.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("fixtures", "photos", "written"):
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    {"fixtures": fixtures, "photos": photos, "written": written}[sys.argv[1]](sys.argv[2], sys.argv[3])

#!/usr/bin/env python3
"""Hostile Camera Raw profiles against colorcube: each must be refused with one line, exit 1, and
a small peak memory (the goal: under 100 MB).

  hostile.py COLORCUBE      prints, per file, the exit status, peak memory (MB) and the message
"""
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zlib

ALPHABET = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?`'|()[]{}@%$#"


def base85(data):
    out = bytearray()
    for i in range(0, len(data), 4):
        chunk = data[i:i + 4]
        value = int.from_bytes(chunk + b"\0" * (4 - len(chunk)), "little")
        for _ in range(len(chunk) + 1):
            out.append(ALPHABET[value % 85])
            value //= 85
    return bytes(out)


def profile(text, key="0" * 32):
    return (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description '
            b'xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:PresetType="Look" crs:RGBTable="'
            + key.encode() + b'" crs:Table_' + key.encode() + b'="' + text + b'"/></rdf:RDF></x:xmpmeta>\n')


def table(payload, declared=None, cut=0):
    compressed = zlib.compress(payload)
    compressed = compressed[:len(compressed) - cut]
    return base85(struct.pack("<I", len(payload) if declared is None else declared) + compressed)


def header(dims, divisions):
    return struct.pack("<4I", 1, 1, dims, divisions)


def cases():
    zeros = bytes(1 << 30)  # 1 GiB of zeros: about 1 MB compressed
    yield "zlib bomb: 1 GiB behind a declared 196,656 bytes", profile(table(zeros, declared=196656))
    yield "declared size 4 GiB - 1", profile(table(zeros[:4096], declared=0xFFFFFFFF))
    yield "3D table declaring 4096 divisions", profile(table(header(3, 4096) + bytes(64)))
    yield "1D table declaring 2^32-1 divisions", profile(table(header(1, 0xFFFFFFFF) + bytes(64)))
    yield "32-division header, samples cut short", profile(table(header(3, 32) + bytes(1000)))
    yield "truncated zlib stream", profile(table(header(3, 32) + bytes(196636), cut=20))
    yield "damaged text", profile(b"0000~" * 1000)
    yield "15 MB of base-85 digits", profile(b"0" * (15 << 20))
    yield "64 MB file", profile(b"0" * (64 << 20))
    yield "develop preset, no table", b'<x:xmpmeta><rdf:Description crs:PresetType="Normal" crs:Exposure2012="+1"/></x:xmpmeta>'


def main(colorcube):
    work = tempfile.mkdtemp()
    for name, data in cases():
        path = os.path.join(work, "hostile.xmp")
        with open(path, "wb") as f:
            f.write(data)
        run = subprocess.run(["/usr/bin/time", "-f", "%M", colorcube, "info", path], capture_output=True, text=True)
        lines = run.stderr.strip().split("\n")
        peak = int(lines[-1]) / 1024
        messages = [line for line in lines[:-1] if line.strip() and not line.startswith("Command exited")]
        print(f"hostile: {name:48s} exit {run.returncode}, {peak:6.1f} MB, {len(messages)} line: {messages[0][:160] if messages else ''}")
        os.unlink(path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    main(sys.argv[1])

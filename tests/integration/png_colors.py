#!/usr/bin/env python3
"""png_colors.py PNG R,G,B[,...] ... : how many pixels of a PNG have each
colour (within 6 per channel), one count a line. Reads 8-bit RGB and RGBA
PNGs, as Chromium writes them, with nothing but the standard library."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if depth != 8 or ctype not in (2, 6):
        sys.exit(f"{path}: colour type {ctype}, depth {depth} not handled")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    for line in rows:
        for x in range(0, stride, bpp):
            yield line[x], line[x + 1], line[x + 2]


def main():
    wanted = [tuple(int(v) for v in arg.split(",")) for arg in sys.argv[2:]]
    counts = [0] * len(wanted)
    for px in pixels(sys.argv[1]):
        for k, w in enumerate(wanted):
            if all(abs(px[j] - w[j]) <= 6 for j in range(3)):
                counts[k] += 1
    for c in counts:
        print(c)


main()

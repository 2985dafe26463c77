#!/usr/bin/env python3
"""Map snapshots for the server's image tests, made and read by Pillow (independent of Runnect).

  map_images.py make DIR      writes DIR/with-gps.jpg (EXIF with GPS position, a comment),
                              DIR/with-text.png (tEXt, iTXt, eXIf and tIME chunks), and
                              DIR/plain.png, each 64x48 with a drawn line
  map_images.py compare A B   prints JSON: both sizes, and the share of pixels whose channels
                              differ by more than 64 between the two pictures (RGB)
  map_images.py read FILE     prints JSON: format, width, height, the EXIF tags and the GPS
                              tags found, the PNG text keys, whether a comment is there, and the
                              SHA-256 of the decoded RGB pixels
"""
import hashlib
import io
import json
import os
import sys

from PIL import Image, ImageDraw, PngImagePlugin


def picture():
    image = Image.new("RGB", (64, 48), (240, 236, 228))
    draw = ImageDraw.Draw(image)
    draw.line([(4, 40), (20, 10), (44, 30), (60, 6)], fill=(225, 60, 40), width=3)
    return image


def make(directory):
    os.makedirs(directory, exist_ok=True)
    image = picture()
    exif = Image.Exif()
    exif[0x010F] = "Apple"          # Make
    exif[0x0110] = "iPhone 15"      # Model
    exif[0x0131] = "Runnect 1.0"    # Software
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (37.0, 31.0, 12.5)     # 37°31'12.5" N: a runner's home, to be stripped
    gps[3] = "E"
    gps[4] = (126.0, 55.0, 3.25)
    image.save(os.path.join(directory, "with-gps.jpg"), "JPEG", quality=90, exif=exif, comment=b"taken at home")
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "runner")
    info.add_itxt("Description", "집 앞 코스", lang="ko")
    image.save(os.path.join(directory, "with-text.png"), "PNG", pnginfo=info, exif=exif)
    # A tIME chunk (Pillow writes none): insert one before IEND by hand.
    path = os.path.join(directory, "with-text.png")
    data = open(path, "rb").read()
    import struct, zlib
    body = struct.pack(">HBBBBB", 2026, 11, 29, 6, 30, 0)
    chunk = struct.pack(">I", len(body)) + b"tIME" + body + struct.pack(">I", zlib.crc32(b"tIME" + body))
    open(path, "wb").write(data[:-12] + chunk + data[-12:])
    image.save(os.path.join(directory, "plain.png"), "PNG")


def read(path):
    image = Image.open(path)
    image.load()
    exif = image.getexif()
    gps = exif.get_ifd(0x8825) if exif else {}
    text = sorted(k for k in image.info.keys() if k not in ("dpi", "jfif", "jfif_version", "jfif_unit", "jfif_density"))
    print(json.dumps({
        "format": image.format,
        "width": image.width,
        "height": image.height,
        "exif_tags": sorted(int(k) for k in exif.keys()) if exif else [],
        "gps_tags": sorted(int(k) for k in gps.keys()),
        "info_keys": text,
        "pixels_sha256": hashlib.sha256(image.convert("RGB").tobytes()).hexdigest(),
    }))


def compare(first, second):
    a = Image.open(first).convert("RGB")
    b = Image.open(second).convert("RGB")
    result = {"sizes": [list(a.size), list(b.size)]}
    if a.size == b.size:
        pa, pb = a.tobytes(), b.tobytes()
        differing = sum(1 for i in range(0, len(pa), 3) if max(abs(pa[i + k] - pb[i + k]) for k in range(3)) > 64)
        result["differing_share"] = differing / (a.size[0] * a.size[1])
        result["route_pixels"] = [sum(1 for i in range(0, len(p), 3) if p[i] > 200 and p[i + 1] < 140 and p[i + 2] < 110) for p in (pa, pb)]
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "read":
        read(sys.argv[2])
    else:
        sys.exit(__doc__)

"""Makes NotoColorEmoji-small.ttf from Debian's fonts-noto-color-emoji package.

The full font is 10.9 MB: one 136x128 PNG per emoji (a 109 pixels-per-em strike). Names are
drawn at 16 to 32 pixels, so every bitmap is scaled down to a STRIKE pixels-per-em strike
(Lanczos), reduced to at most 64 colours plus alpha and stored again as an optimised PNG; the
metrics and the strike's line metrics are scaled alike. Every glyph, every character and the
GSUB ligatures (skin tones, ZWJ sequences, flags, keycaps) are kept.

Run: apt-get download fonts-noto-color-emoji && dpkg -x fonts-noto-color-emoji_*.deb x
     pip install fonttools pillow
     python3 subset-emoji.py x/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf \
         NotoColorEmoji-small.ttf
"""

import io
import sys

from fontTools.ttLib import TTFont
from PIL import Image

STRIKE = 24
COLOURS = 48


def shrink(png, f):
    img = Image.open(io.BytesIO(png)).convert("RGBA")
    w = max(1, round(img.width * f))
    h = max(1, round(img.height * f))
    img = img.resize((w, h), Image.LANCZOS)
    img = img.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue(), w, h


def main(src, dst):
    font = TTFont(src)
    cblc, cbdt = font["CBLC"], font["CBDT"]
    for strike, data in zip(cblc.strikes, cbdt.strikeData):
        ppem = strike.bitmapSizeTable.ppemX
        f = STRIKE / ppem
        for glyph in data.values():
            glyph.decompile()
            m = glyph.metrics
            glyph.imageData, w, h = shrink(glyph.imageData, f)
            m.width, m.height = w, h
            for attr in ("BearingX", "BearingY", "Advance"):
                for side in ("hori", "vert"):
                    if hasattr(m, side + attr):
                        setattr(m, side + attr, round(getattr(m, side + attr) * f))
            if hasattr(m, "BearingX"):
                m.BearingX = round(m.BearingX * f)
                m.BearingY = round(m.BearingY * f)
                m.Advance = round(m.Advance * f)
        bst = strike.bitmapSizeTable
        bst.ppemX = bst.ppemY = STRIKE
        for line in (bst.hori, bst.vert):
            for attr in vars(line):
                v = getattr(line, attr)
                if isinstance(v, int) and attr not in ("caretSlopeNumerator", "caretSlopeDenominator"):
                    setattr(line, attr, max(-128, min(127, round(v * f))))
        for sub in strike.indexSubTables:
            if hasattr(sub, "metrics"):
                m = sub.metrics
                for attr in vars(m):
                    v = getattr(m, attr)
                    if isinstance(v, int):
                        setattr(m, attr, round(v * f))
    if "DSIG" in font:
        del font["DSIG"]
    font.save(dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

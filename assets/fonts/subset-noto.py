"""Makes the Noto*-Bold-subset.ttf script fonts from Debian's fonts-noto-core package.

Each font keeps every character and every layout table (GSUB, GPOS, GDEF: rustybuzz needs
them for joining, conjuncts, vowel signs and mark positioning); only the TrueType hinting
(fpgm, prep, cvt, per-glyph instructions) and the DSIG signature are dropped, which the
renderer never uses: it rasterises the plain outlines with anti-aliasing.

Run: apt-get download fonts-noto-core && dpkg -x fonts-noto-core_*.deb x
     pip install fonttools
     python3 subset-noto.py x/usr/share/fonts/truetype/noto .
"""

import os
import sys

from fontTools import subset

# The scripts of the fallback chain (src/render/fonts.rs), bold like DejaVu Sans Bold.
SCRIPTS = [
    "Arabic",
    "Hebrew",
    "Devanagari",
    "Bengali",
    "Gurmukhi",
    "Gujarati",
    "Tamil",
    "Telugu",
    "Kannada",
    "Malayalam",
    "Sinhala",
    "Thai",
    "Lao",
    "Khmer",
    "Myanmar",
    "Georgian",
    "Armenian",
    "Ethiopic",
]


def main(src, out):
    for script in SCRIPTS:
        name = f"NotoSans{script}-Bold"
        options = subset.Options()
        options.hinting = False
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.glyph_names = False
        options.drop_tables += ["DSIG"]
        font = subset.load_font(os.path.join(src, name + ".ttf"), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=font.getBestCmap().keys())
        subsetter.subset(font)
        target = os.path.join(out, name + "-subset.ttf")
        subset.save_font(font, target, options)
        print(target, os.path.getsize(target))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""Makes DroidSansFallback-subset.ttf from Debian's fonts-droid-fallback package.

The full font is 3.4 MB; player names need the common characters only. Kept:
CJK punctuation, kana, full/half-width forms, Hangul compatibility jamo, and the
ideographs and Hangul syllables of the everyday national character sets
(GB2312, JIS X 0208, Big5 level 1, KS X 1001). Everything else falls back to a
replacement box in the renderer.

Run: apt-get download fonts-droid-fallback && dpkg -x fonts-droid-fallback_*.deb x
     pip install fonttools
     python3 subset-cjk.py x/usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf
"""

import sys

from fontTools import subset

RANGES = [
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF00, 0xFFEF),  # half-width and full-width forms
]


def everyday(cp):
    ch = chr(cp)
    for codec in ("gb2312", "shift_jis", "euc_kr"):
        try:
            ch.encode(codec)
            return True
        except UnicodeEncodeError:
            pass
    try:
        # Big5 level 1 (common traditional characters) ends at 0xC67E.
        return ch.encode("big5") <= b"\xc6\x7e"
    except UnicodeEncodeError:
        return False


def main():
    source = sys.argv[1]
    keep = set()
    for lo, hi in RANGES:
        keep.update(range(lo, hi + 1))
    keep.update(cp for cp in range(0x4E00, 0xA000) if everyday(cp))  # ideographs
    keep.update(cp for cp in range(0xAC00, 0xD7A4) if everyday(cp))  # Hangul syllables
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(keep))
    subsetter.subset(font)
    subset.save_font(font, "DroidSansFallback-subset.ttf", options)
    print(len(keep), "code points kept")


if __name__ == "__main__":
    main()

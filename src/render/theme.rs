//! Colours of the two themes. Stone colours follow the Okabe-Ito palette for 3-4 players,
//! which stays distinct under the common colour-vision deficiencies.

use std::str::FromStr;

/// An opaque colour.
pub(crate) type Rgb = [u8; 3];

/// The look of the whole picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// Light wood, light footer: for Discord's light mode and printing.
    #[default]
    Light,
    /// Darker wood, dark footer: for Discord's dark mode.
    Dark,
}

impl Theme {
    /// Both themes.
    pub const ALL: [Theme; 2] = [Theme::Light, Theme::Dark];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Theme::Light => 0,
            Theme::Dark => 1,
        }
    }

    pub(crate) fn colours(self) -> &'static Colours {
        match self {
            Theme::Light => &LIGHT,
            Theme::Dark => &DARK,
        }
    }
}

/// A theme name that is neither `light` nor `dark`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown theme `{0}` (expected light or dark)")]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            _ => Err(UnknownTheme(s.to_string())),
        }
    }
}

/// One stone colour: body shading and the mark that tells 3 and 4 apart without hue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StoneLook {
    /// Lit side.
    pub light: Rgb,
    /// Body colour.
    pub body: Rgb,
    /// Shadowed rim.
    pub rim: Rgb,
    /// Colour of marks drawn on this stone (last move dot, colour mark).
    pub mark: Rgb,
    /// The shape that sets this stone apart beyond its hue.
    pub shape: StoneMark,
}

/// A shape painted on every stone of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StoneMark {
    None,
    Ring,
    Diamond,
}

/// Every colour a theme uses.
#[derive(Debug)]
pub(crate) struct Colours {
    pub wood: Rgb,
    /// The wood's grain bands, as a signed change of brightness.
    pub grain: f32,
    pub grid: Rgb,
    pub label: Rgb,
    pub footer: Rgb,
    pub footer_rule: Rgb,
    pub text: Rgb,
    pub muted: Rgb,
    pub accent: Rgb,
    pub line_core: Rgb,
    pub line_edge: Rgb,
    pub threat_core: Rgb,
    pub cross: Rgb,
    /// A thin ring around footer stone icons, so that dark stones stand out on a dark footer.
    pub icon_ring: Option<Rgb>,
    pub stones: [StoneLook; 4],
}

const STONES: [StoneLook; 4] = [
    StoneLook {
        light: [92, 92, 98],
        body: [28, 28, 31],
        rim: [8, 8, 10],
        mark: [245, 245, 240],
        shape: StoneMark::None,
    },
    StoneLook {
        light: [255, 255, 255],
        body: [236, 234, 228],
        rim: [176, 174, 168],
        mark: [24, 24, 26],
        shape: StoneMark::None,
    },
    StoneLook {
        light: [250, 150, 80],
        body: [213, 94, 0],
        rim: [140, 55, 0],
        mark: [255, 236, 214],
        shape: StoneMark::Ring,
    },
    StoneLook {
        light: [110, 185, 235],
        body: [0, 114, 178],
        rim: [0, 62, 104],
        mark: [226, 242, 255],
        shape: StoneMark::Diamond,
    },
];

static LIGHT: Colours = Colours {
    wood: [222, 181, 104],
    grain: 6.0,
    grid: [52, 36, 18],
    label: [74, 52, 26],
    footer: [246, 240, 229],
    footer_rule: [214, 196, 164],
    text: [36, 30, 24],
    muted: [118, 104, 88],
    accent: [196, 120, 0],
    line_core: [255, 210, 40],
    line_edge: [70, 34, 0],
    threat_core: [255, 120, 40],
    cross: [176, 20, 20],
    icon_ring: None,
    stones: STONES,
};

static DARK: Colours = Colours {
    wood: [150, 110, 62],
    grain: 5.0,
    grid: [40, 27, 12],
    label: [244, 230, 204],
    footer: [43, 45, 49],
    footer_rule: [70, 72, 78],
    text: [240, 240, 242],
    muted: [170, 172, 178],
    accent: [255, 196, 60],
    line_core: [255, 210, 40],
    line_edge: [40, 20, 0],
    threat_core: [255, 120, 40],
    cross: [210, 30, 30],
    icon_ring: Some([120, 122, 130]),
    stones: STONES,
};

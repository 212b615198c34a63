//! Translations: Fluent files in `assets/locales/{en,es,fi}/`, embedded in the binary.
//!
//! Every user-facing sentence goes through here. Private replies use the caller's Discord
//! locale, public messages the server's; anything else falls back to English.

use std::borrow::Cow;
use std::fmt;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// A language the bot speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English (the fallback).
    #[default]
    En,
    /// Spanish.
    Es,
    /// Finnish.
    Fi,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Es, Lang::Fi];

    /// The short code used in files and preferences (`en`, `es`, `fi`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
            Lang::Fi => "fi",
        }
    }

    /// Discord's locale codes that map to this language (for command localisations).
    pub fn discord_locales(self) -> &'static [&'static str] {
        match self {
            Lang::En => &["en-US", "en-GB"],
            Lang::Es => &["es-ES", "es-419"],
            Lang::Fi => &["fi"],
        }
    }

    /// The language of a Discord locale (`es-ES`, `es-419`, `fi`, ...) or of a code; English otherwise.
    pub fn from_locale(locale: &str) -> Lang {
        let primary = locale
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "es" => Lang::Es,
            "fi" => Lang::Fi,
            _ => Lang::En,
        }
    }

    /// Parses a preference code exactly (`en`, `es`, `fi`).
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The Fluent files of every language, embedded: `sources!("bot.ftl", "clocks.ftl")` lists
/// `assets/locales/<lang>/<file>` for each language. Each feature keeps its messages in a file
/// of its own; every language must have the same files (the tests check their keys).
macro_rules! sources {
    ($($file:literal),+ $(,)?) => {
        [
            $((Lang::En, $file, include_str!(concat!("../assets/locales/en/", $file))),)+
            $((Lang::Es, $file, include_str!(concat!("../assets/locales/es/", $file))),)+
            $((Lang::Fi, $file, include_str!(concat!("../assets/locales/fi/", $file))),)+
        ]
    };
}

/// The Fluent sources: (language, file name, text).
const SOURCES: &[(Lang, &str, &str)] = &sources!(
    "bot.ftl",
    "social.ftl",
    "clocks.ftl",
    "ratings.ftl",
    "engine.ftl",
    "renju.ftl",
    "tournaments.ftl",
    "review.ftl",
    "picker.ftl"
);

/// All translations, loaded once; cheap to share between threads.
pub struct I18n {
    bundles: Vec<(Lang, FluentBundle<FluentResource>)>,
}

impl fmt::Debug for I18n {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("I18n").finish_non_exhaustive()
    }
}

/// Arguments for a message: `&[("name", "Ann".into())]`.
pub type Args<'a> = [(&'a str, FluentValue<'a>)];

impl I18n {
    /// Loads the embedded Fluent files.
    ///
    /// # Panics
    /// Only if an embedded file has a syntax error, which the test suite rules out.
    pub fn load() -> I18n {
        let bundles = Lang::ALL
            .into_iter()
            .map(|lang| {
                let id: LanguageIdentifier = lang.code().parse().expect("valid language code");
                let mut bundle = FluentBundle::new_concurrent(vec![id]);
                // Unicode isolation marks show up as stray characters in Discord clients.
                bundle.set_use_isolating(false);
                for &(_, file, source) in SOURCES.iter().filter(|(l, _, _)| *l == lang) {
                    let resource = FluentResource::try_new(source.to_string())
                        .unwrap_or_else(|(_, e)| panic!("assets/locales/{lang}/{file}: {e:?}"));
                    bundle
                        .add_resource(resource)
                        .unwrap_or_else(|e| panic!("assets/locales/{lang}/{file}: {e:?}"));
                }
                (lang, bundle)
            })
            .collect();
        I18n { bundles }
    }

    fn bundle(&self, lang: Lang) -> &FluentBundle<FluentResource> {
        &self
            .bundles
            .iter()
            .find(|(l, _)| *l == lang)
            .expect("every language is loaded")
            .1
    }

    /// The message `key` in `lang`, with arguments; English if missing, the key itself as a last resort.
    pub fn tr(&self, lang: Lang, key: &str, args: &Args<'_>) -> String {
        let mut fargs = FluentArgs::new();
        for (k, v) in args {
            fargs.set(*k, v.clone());
        }
        for l in [lang, Lang::En] {
            let bundle = self.bundle(l);
            if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                let text: Cow<'_, str> = bundle.format_pattern(pattern, Some(&fargs), &mut errors);
                return text.into_owned();
            }
        }
        key.to_string()
    }

    /// The message `key` in `lang` without arguments.
    pub fn get(&self, lang: Lang, key: &str) -> String {
        self.tr(lang, key, &[])
    }

    /// Whether `lang` has its own message `key` (no fallback).
    pub fn has(&self, lang: Lang, key: &str) -> bool {
        self.bundle(lang).has_message(key)
    }

    /// Every message id in a language's file, in file order.
    pub fn keys(lang: Lang) -> Vec<String> {
        let mut keys = Vec::new();
        for &(_, _, source) in SOURCES.iter().filter(|(l, _, _)| *l == lang) {
            let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
            keys.extend(resource.entries().filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            }));
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_parses_without_errors() {
        for (lang, file, source) in SOURCES {
            if let Err((_, errors)) = FluentResource::try_new(source.to_string()) {
                panic!("{lang}/{file}: {errors:?}");
            }
        }
        let _ = I18n::load();
    }

    #[test]
    fn every_key_exists_in_every_language() {
        let en = I18n::keys(Lang::En);
        assert!(en.len() > 10);
        for lang in [Lang::Es, Lang::Fi] {
            let other = I18n::keys(lang);
            let missing: Vec<&String> = en.iter().filter(|k| !other.contains(k)).collect();
            let extra: Vec<&String> = other.iter().filter(|k| !en.contains(k)).collect();
            assert!(missing.is_empty(), "{lang} lacks {missing:?}");
            assert!(extra.is_empty(), "{lang} has keys English lacks: {extra:?}");
        }
    }

    fn variables(lang: Lang) -> Vec<(String, Vec<String>)> {
        use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
        fn walk_pattern(p: &Pattern<&str>, out: &mut Vec<String>) {
            for el in &p.elements {
                if let PatternElement::Placeable { expression } = el {
                    walk_expr(expression, out);
                }
            }
        }
        fn walk_inline(e: &InlineExpression<&str>, out: &mut Vec<String>) {
            match e {
                InlineExpression::VariableReference { id } => out.push(id.name.to_string()),
                InlineExpression::Placeable { expression } => walk_expr(expression, out),
                _ => {}
            }
        }
        fn walk_expr(e: &Expression<&str>, out: &mut Vec<String>) {
            match e {
                Expression::Inline(i) => walk_inline(i, out),
                Expression::Select { selector, variants } => {
                    walk_inline(selector, out);
                    for v in variants {
                        walk_pattern(&v.value, out);
                    }
                }
            }
        }
        SOURCES
            .iter()
            .filter(|(l, _, _)| *l == lang)
            .flat_map(|(_, _, source)| fluent_syntax::parser::parse(*source).unwrap().body)
            .filter_map(|e| match e {
                Entry::Message(m) => {
                    let mut vars = Vec::new();
                    if let Some(v) = &m.value {
                        walk_pattern(v, &mut vars);
                    }
                    vars.sort();
                    vars.dedup();
                    Some((m.id.name.to_string(), vars))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn translations_use_the_same_variables_as_english() {
        let en = variables(Lang::En);
        for lang in [Lang::Es, Lang::Fi] {
            for (key, vars) in variables(lang) {
                let english = &en.iter().find(|(k, _)| *k == key).unwrap().1;
                assert_eq!(
                    &vars, english,
                    "{lang} {key} uses other variables than English"
                );
            }
        }
    }

    #[test]
    fn discord_locales_map_to_languages() {
        assert_eq!(Lang::from_locale("es-ES"), Lang::Es);
        assert_eq!(Lang::from_locale("es-419"), Lang::Es);
        assert_eq!(Lang::from_locale("fi"), Lang::Fi);
        assert_eq!(Lang::from_locale("en-US"), Lang::En);
        assert_eq!(Lang::from_locale("pt-BR"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
    }

    #[test]
    fn missing_keys_fall_back_to_english_then_to_the_key() {
        let i = I18n::load();
        assert_eq!(i.get(Lang::Fi, "no-such-key"), "no-such-key");
        assert!(!i.get(Lang::Es, "rules-no-captures").is_empty());
    }
}

/// Rule sets in words, in any language (for /rules and challenge messages).
pub mod rules_text {
    use super::{I18n, Lang};
    use crate::rules::{Captures, Opening, Preset, RuleSet, SelfCapture};

    /// The localised name of a preset.
    pub fn preset_name(i18n: &I18n, lang: Lang, preset: Preset) -> String {
        i18n.get(lang, &format!("preset-{}", preset.name()))
    }

    /// One line per rule, in `lang`.
    pub fn describe(i18n: &I18n, lang: Lang, r: &RuleSet) -> Vec<String> {
        let mut lines = vec![i18n.tr(
            lang,
            "rules-title",
            &[
                ("game", preset_name(i18n, lang, r.preset).into()),
                ("size", r.size.into()),
                ("players", r.players.into()),
            ],
        )];
        if r.teams {
            lines.push(i18n.get(lang, "rules-teams"));
        }
        lines.push(i18n.get(lang, "rules-turns"));
        if r.is_renju() {
            lines.push(i18n.get(lang, "rules-renju-win"));
            lines.push(i18n.get(lang, "rules-renju-forbidden"));
            lines.push(i18n.get(lang, "rules-renju-three"));
        } else {
            let line_key = if r.overline_wins {
                "rules-line-or-more"
            } else {
                "rules-line-exact"
            };
            lines.push(i18n.tr(lang, line_key, &[("line", r.line.into())]));
        }
        if r.captures == Captures::None {
            lines.push(i18n.get(lang, "rules-no-captures"));
        } else {
            lines.push(i18n.get(
                lang,
                if r.captures == Captures::Pairs {
                    "rules-captures-pairs"
                } else {
                    "rules-captures-triples"
                },
            ));
            lines.push(i18n.get(
                lang,
                match r.self_capture {
                    SelfCapture::None => "rules-self-none",
                    SelfCapture::Capture => "rules-self-capture",
                    SelfCapture::Forbidden => "rules-self-forbidden",
                },
            ));
            if r.players > 2 {
                lines.push(i18n.get(
                    lang,
                    if r.mixed_captures {
                        "rules-mixed-on"
                    } else {
                        "rules-mixed-off"
                    },
                ));
            }
            lines.push(match (r.capture_win, r.teams) {
                (0, _) => i18n.get(lang, "rules-capture-win-off"),
                (n, false) => i18n.tr(lang, "rules-capture-win", &[("stones", n.into())]),
                (n, true) => i18n.tr(lang, "rules-capture-win-teams", &[("stones", n.into())]),
            });
            if r.extra_time_capture {
                lines.push(i18n.get(lang, "rules-extra-time"));
            }
        }
        lines.push(match r.opening {
            Opening::None => i18n.get(lang, "rules-opening-none"),
            Opening::Pro => i18n.tr(lang, "rules-opening-pro", &[("distance", 3.into())]),
            Opening::LongPro => i18n.tr(lang, "rules-opening-pro", &[("distance", 4.into())]),
            Opening::Swap => i18n.get(lang, "rules-opening-swap"),
            Opening::Swap2 => i18n.get(lang, "rules-opening-swap2"),
            Opening::Taraguchi10 => i18n.get(lang, "rules-opening-taraguchi-10"),
            Opening::Soosorv8 => i18n.get(lang, "rules-opening-soosorv-8"),
        });
        lines.push(i18n.get(lang, "rules-draw"));
        lines
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn rules_read_in_every_language() {
            let i18n = I18n::load();
            let r = RuleSet::from_spec(
                "keryo players=4 teams=on extra_time_capture=on self_capture=forbidden",
            )
            .unwrap();
            let en = describe(&i18n, Lang::En, &r).join("\n");
            assert!(
                en.contains("Keryo-Pente on a 19×19 board, 4 players"),
                "{en}"
            );
            assert!(en.contains("capture 15 stones as a team"), "{en}");
            let es = describe(&i18n, Lang::Es, &r).join("\n");
            assert!(es.contains("tablero de 19×19"), "{es}");
            let fi = describe(
                &i18n,
                Lang::Fi,
                &RuleSet::from_spec("gomoku-standard").unwrap(),
            )
            .join("\n");
            assert!(fi.contains("täsmälleen 5 kiveä"), "{fi}");
            for lang in Lang::ALL {
                for spec in [
                    "gomoku",
                    "pente opening=long-pro",
                    "pente opening=swap2 self_capture=capture",
                    "pente players=3 mixed_captures=on capture_win=12",
                ] {
                    let text = describe(&i18n, lang, &RuleSet::from_spec(spec).unwrap()).join("\n");
                    assert!(
                        !text.contains("rules-"),
                        "untranslated key in {lang}: {text}"
                    );
                    assert!(
                        !text.contains('{'),
                        "unfilled placeholder in {lang}: {text}"
                    );
                }
            }
        }
    }
}

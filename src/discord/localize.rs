//! Command names, descriptions and choice labels from the Fluent files, in every language.
//!
//! Keys: `cmd-NAME` (the localised name), `cmd-NAME-desc`, `cmd-NAME-PARAM`,
//! `cmd-NAME-PARAM-desc`, and `choice-PARAM-VALUE` for choice labels (shared by commands).
//! English names stay the code names; English descriptions and labels come from `en`.

use std::borrow::Cow;

use super::{Data, Error};
use crate::i18n::{I18n, Lang};

type Localizations = Cow<'static, [(Cow<'static, str>, Cow<'static, str>)]>;

fn localizations(i18n: &I18n, key: &str) -> Localizations {
    let mut out = Vec::new();
    for lang in [Lang::Es, Lang::Fi] {
        if i18n.has(lang, key) {
            let text = i18n.get(lang, key);
            for locale in lang.discord_locales() {
                out.push((Cow::Borrowed(*locale), Cow::Owned(text.clone())));
            }
        }
    }
    Cow::Owned(out)
}

/// Fills in names, descriptions and choice labels of `commands` from the translations.
/// Subcommands use their parent's key: `cmd-tournament-create`, `cmd-tournament-create-name`.
pub fn apply(commands: &mut [poise::Command<Data, Error>], i18n: &I18n) {
    for cmd in commands {
        apply_one(cmd, i18n, "");
    }
}

fn apply_one(cmd: &mut poise::Command<Data, Error>, i18n: &I18n, parent: &str) {
    let name = format!("{parent}{}", cmd.name);
    cmd.name_localizations = localizations(i18n, &format!("cmd-{name}"));
    let desc_key = format!("cmd-{name}-desc");
    cmd.description = Some(Cow::Owned(i18n.get(Lang::En, &desc_key)));
    cmd.description_localizations = localizations(i18n, &desc_key);
    for param in &mut cmd.parameters {
        let pname = param.name.to_string();
        param.name_localizations = localizations(i18n, &format!("cmd-{name}-{pname}"));
        let key = format!("cmd-{name}-{pname}-desc");
        param.description = Some(Cow::Owned(i18n.get(Lang::En, &key)));
        param.description_localizations = localizations(i18n, &key);
        let mut choices = param.choices.to_vec();
        for choice in &mut choices {
            let key = format!("choice-{pname}-{}", choice.name);
            choice.localizations = localizations(i18n, &key);
            choice.name = Cow::Owned(i18n.get(Lang::En, &key));
        }
        param.choices = Cow::Owned(choices);
    }
    let prefix = format!("{name}-");
    for sub in &mut cmd.subcommands {
        apply_one(sub, i18n, &prefix);
    }
}

/// Every Fluent key the commands use (for the completeness test).
#[cfg(test)]
pub fn keys(commands: &[poise::Command<Data, Error>]) -> Vec<String> {
    fn walk(cmd: &poise::Command<Data, Error>, parent: &str, keys: &mut Vec<String>) {
        let name = format!("{parent}{}", cmd.name);
        keys.push(format!("cmd-{name}"));
        keys.push(format!("cmd-{name}-desc"));
        for p in &cmd.parameters {
            keys.push(format!("cmd-{name}-{}", p.name));
            keys.push(format!("cmd-{name}-{}-desc", p.name));
        }
        for sub in &cmd.subcommands {
            walk(sub, &format!("{name}-"), keys);
        }
    }
    let mut keys = Vec::new();
    for cmd in commands {
        walk(cmd, "", &mut keys);
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid_name(n: &str) -> bool {
        let len = n.chars().count();
        (1..=32).contains(&len)
            && n.chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
            && n.to_lowercase() == n
    }

    #[test]
    fn every_command_text_exists_in_every_language_and_fits_discords_limits() {
        let i18n = I18n::load();
        let raw = super::super::all_commands();
        for key in keys(&raw) {
            for lang in Lang::ALL {
                assert!(i18n.has(lang, &key), "{lang} lacks {key}");
            }
        }
        let mut cmds = raw;
        apply(&mut cmds, &i18n);
        assert!(cmds.len() <= 100);
        let subcommands: Vec<&poise::Command<Data, Error>> =
            cmds.iter().flat_map(|c| c.subcommands.iter()).collect();
        assert!(subcommands.len() >= 7, "the subcommands of /tournament");
        for c in cmds.iter().chain(subcommands) {
            assert!(valid_name(&c.name), "{}", c.name);
            let d = c.description.as_deref().unwrap();
            assert!((1..=100).contains(&d.chars().count()), "{}: {d}", c.name);
            assert!(c.parameters.len() <= 25);
            for (locale, n) in c.name_localizations.iter() {
                assert!(valid_name(n), "{locale} {n}");
            }
            for (locale, d) in c.description_localizations.iter() {
                assert!((1..=100).contains(&d.chars().count()), "{locale}: {d}");
            }
            let mut seen = Vec::new();
            for p in &c.parameters {
                assert!(valid_name(&p.name), "{}", p.name);
                for (locale, n) in p.name_localizations.iter() {
                    assert!(valid_name(n), "{} {locale}: {n}", c.name);
                    assert!(
                        !seen.contains(&(locale.to_string(), n.to_string())),
                        "duplicate {locale} {n} in {}",
                        c.name
                    );
                    seen.push((locale.to_string(), n.to_string()));
                }
                let pd = p.description.as_deref().unwrap();
                assert!(
                    (1..=100).contains(&pd.chars().count()),
                    "{}.{}: {pd}",
                    c.name,
                    p.name
                );
                for (_, d) in p.description_localizations.iter() {
                    assert!(
                        (1..=100).contains(&d.chars().count()),
                        "{}.{}: {d}",
                        c.name,
                        p.name
                    );
                }
                assert!(p.choices.len() <= 25);
                for choice in p.choices.iter() {
                    assert!(
                        !choice.name.starts_with("choice-"),
                        "untranslated choice {}",
                        choice.name
                    );
                    assert_eq!(choice.localizations.len(), 3, "{}", choice.name);
                    assert!(choice.name.chars().count() <= 100);
                }
            }
        }
    }
}

//! The checks, one module per family of lints. Each family first turns the grammar's and the
//! model's own findings into lints ([`observed`]), then adds what only it looks for.

mod bytes;
mod extensions;
mod groups;
mod keys;
pub(crate) mod observed;
mod patterns;
mod sitemaps;

use robotrules_model::{DiagnosticKind, Profile};

use crate::code::Family;
use crate::context::Context;

/// Run every check.
pub(crate) fn run(ctx: &mut Context<'_>) {
    for o in observed::collect(ctx) {
        // The grammar's findings (a line that is no record included) are read in one place.
        if matches!(o.any(), Some(DiagnosticKind::Grammar(_))) {
            bytes::from_model(ctx, &o);
            continue;
        }
        match o.code.family() {
            Family::Bytes => bytes::from_model(ctx, &o),
            Family::Keys => keys::from_model(ctx, &o),
            Family::Groups => groups::from_model(ctx, &o),
            Family::Patterns => patterns::from_model(ctx, &o),
            Family::Sitemaps | Family::Extensions => {}
        }
    }
    keys::check(ctx);
    groups::check(ctx);
    patterns::check(ctx);
    sitemaps::check(ctx);
    extensions::check(ctx);
    bytes::finish(ctx);
}

/// Profile names for a message: `google`, `rfc9309 and legacy1994`, `a, b and c`.
pub(crate) fn profile_list(profiles: &[Profile]) -> String {
    let names: Vec<&str> = profiles.iter().map(|p| p.name()).collect();
    match names.as_slice() {
        [] => "no profile".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `google reads`, `rfc9309 and legacy1994 read`: profiles as the subject of `verb`.
pub(crate) fn profiles_do(profiles: &[Profile], verb: &str) -> String {
    let subject = profile_list(profiles);
    if profiles.len() == 1 {
        let (stem, ending) = if verb.ends_with("ch") || verb.ends_with('s') {
            (verb, "es")
        } else if let Some(stem) = verb
            .strip_suffix('y')
            .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
        {
            (stem, "ies")
        } else {
            (verb, "s")
        };
        format!("{subject} {stem}{ending}")
    } else {
        format!("{subject} {verb}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_subjects_agree_with_their_verb() {
        assert_eq!(profiles_do(&[Profile::Google], "read"), "google reads");
        assert_eq!(profiles_do(&[Profile::Google], "apply"), "google applies");
        assert_eq!(profiles_do(&[Profile::Google], "say"), "google says");
        assert_eq!(
            profiles_do(&[Profile::Google], "never match"),
            "google never matches"
        );
        assert_eq!(
            profiles_do(&[Profile::Rfc9309, Profile::Legacy1994], "ignore"),
            "rfc9309 and legacy1994 ignore"
        );
        assert_eq!(
            profile_list(&Profile::ALL),
            "rfc9309, google and legacy1994"
        );
        assert_eq!(profile_list(&[]), "no profile");
    }
}

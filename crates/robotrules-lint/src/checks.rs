//! The checks, one module per family of lints. Each family first turns the grammar's and the
//! model's own findings into lints ([`observed`]), then adds what only it looks for.

mod bytes;
mod extensions;
mod groups;
mod keys;
pub(crate) mod observed;
mod patterns;
mod regroup;
mod sitemaps;
pub(crate) mod spelling;
mod usage;

use robotrules_model::DiagnosticKind;

pub(crate) use crate::render::{profile_list, profiles_do};

use crate::code::Family;
use crate::context::Context;

/// Run every check.
pub(crate) fn run(ctx: &mut Context<'_>) {
    bytes::encoding(ctx);
    bytes::not_text(ctx);
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
            Family::Sitemaps | Family::Extensions | Family::Usage => {}
        }
    }
    // Past the deadline, each family is skipped (and the loops of the long ones stop).
    let families: [fn(&mut Context<'_>); 7] = [
        keys::check,
        groups::check,
        patterns::check,
        sitemaps::check,
        extensions::check,
        usage::check,
        bytes::finish,
    ];
    for family in families {
        if ctx.expired() {
            return;
        }
        family(ctx);
    }
}

//! Benchmarks of robotrules against the Rust crates `texting_robots` and `robotstxt`.
//!
//! This library holds what the `compare` bench and the `memory`, `report`, `profile`,
//! `cli_throughput` and `fleet_cache` binaries share:
//!
//! - [`cli_run`]: running the `robotrules` binary over URL lists and timing it;
//! - [`corpus`]: the small committed corpus, the typical file, and the real sample when present;
//! - [`synthetic`]: deterministic generators for a realistic file and the adversarial files
//!   (500 KiB of `/*a*a*…*a$` patterns, a 500 KiB single line, 10,000 groups);
//! - [`urls`]: the fixed list of URLs asked about each file;
//! - [`contenders`]: one way to parse and to check per implementation, the same everywhere;
//! - [`crawler_pays`]: what a crawler pays per site (parse, resolve, a few checks), the same
//!   work for robotrules and the peers;
//! - [`site_owner`]: the worst cases of the site-owner commands (`lint`, `explain`, `show`,
//!   `usage`, `diff`), generated files and the commands asked about them;
//! - [`where_it_shows`]: where resolving a crawler shows outside a crawler's own loop (the
//!   one-shot `is_allowed`, the client's first decision, the survey).
//!
//! The figures and the commands that produce them are in `docs/performance.md`.

pub mod cli_run;
pub mod contenders;
pub mod corpus;
pub mod crawler_pays;
pub mod site_owner;
pub mod synthetic;
pub mod urls;
pub mod where_it_shows;

//! The answer tables in `conformance/answers/`, through the facade: the same tables run
//! through the Python and npm packages, so that no surface can read them differently.

use std::path::PathBuf;

use robotrules::status::{status_access, TooManyRequests};
use robotrules::{crawler_name_for, ParseOptions, Profile, Robots};

/// The rows of `conformance/answers/NAME`: tab-separated, `#` lines and blank lines skipped.
pub(crate) fn table(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/answers")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect()
}

#[test]
fn status_access_follows_its_table() {
    let rows = table("status-access.tsv");
    assert!(rows.len() > 20, "{} rows", rows.len());
    for row in rows {
        let [status, location, policy, expected] = row.as_slice() else {
            panic!("a row of four columns: {row:?}");
        };
        let status: u16 = status.parse().unwrap();
        let policy = TooManyRequests::from_name(policy).unwrap();
        let access = status_access(status, location == "yes", policy);
        assert_eq!(access.name(), expected, "{row:?}");
    }
}

#[test]
fn a_user_agent_stands_for_the_crawler_its_table_names() {
    let rows = table("crawler-name.tsv");
    assert!(rows.len() > 10, "{} rows", rows.len());
    for row in rows {
        let [user_agent, profile, expected] = row.as_slice() else {
            panic!("a row of three columns: {row:?}");
        };
        let profile: Profile = profile.parse().unwrap();
        let name = crawler_name_for(user_agent, profile);
        assert_eq!(name, expected.as_str(), "{row:?}");
        // Every name the policy gives is one the profile answers for.
        let options = ParseOptions::new().with_profile(profile);
        let robots = Robots::parse_with(b"user-agent: *\ndisallow: /x\n", &options);
        assert_eq!(
            robots.crawler_for(user_agent).name(),
            expected.as_str(),
            "{row:?}"
        );
    }
}

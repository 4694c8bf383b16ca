//! The external pieces `cargo xtask test` brings (Redis, a browser, Java, Python, Node.js), and
//! the environment variable per piece that leaves out the tests needing it:
//! `ROBOTRULES_SKIP_REDIS`, `ROBOTRULES_SKIP_BROWSER`, `ROBOTRULES_SKIP_JAVA`,
//! `ROBOTRULES_SKIP_PYTHON`, `ROBOTRULES_SKIP_JS`, each set to `1`. A skipped piece is neither installed nor tested, and the run ends with a loud list of
//! what was not tested. `.ci/run` sets none of them.

/// One external piece the tests need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// `redis-server`: the fleet-cache tests (fetch, facade, the CLI's `--cache` and `cache`
    /// commands, the test server's TLS Redis).
    Redis,
    /// Chromium and chromedriver: the browser tests of `robotrules serve`.
    Browser,
    /// A Java runtime: the Spark job's Python test.
    Java,
    /// A Python virtualenv: the Python package's tests.
    Python,
    /// Node.js, wasm-bindgen-cli and npm packages: the npm package's tests.
    Js,
}

impl Piece {
    /// Every piece, in the order the run meets them.
    pub(crate) const ALL: [Piece; 5] = [
        Piece::Redis,
        Piece::Browser,
        Piece::Python,
        Piece::Java,
        Piece::Js,
    ];

    /// The variable that skips the piece's tests.
    pub(crate) fn variable(self) -> &'static str {
        match self {
            Piece::Redis => "ROBOTRULES_SKIP_REDIS",
            Piece::Browser => "ROBOTRULES_SKIP_BROWSER",
            Piece::Java => "ROBOTRULES_SKIP_JAVA",
            Piece::Python => "ROBOTRULES_SKIP_PYTHON",
            Piece::Js => "ROBOTRULES_SKIP_JS",
        }
    }

    /// The tests that need the piece.
    pub(crate) fn tests(self) -> &'static str {
        match self {
            Piece::Redis => "the tests that start a real redis-server (the fleet cache)",
            Piece::Browser => {
                "the browser tests of `robotrules serve` and of the static tester (Chromium)"
            }
            Piece::Java => "the Spark job's Python test (Java)",
            Piece::Python => "the Python package's tests (a virtualenv)",
            Piece::Js => "the npm package's tests (Node.js, wasm-bindgen-cli, npm)",
        }
    }

    /// The cargo features that turn the piece's Rust tests on (`cargo xtask test` adds them
    /// unless the piece is skipped); Java, Python and JS have none, their tests are pytest's
    /// and Node.js's.
    pub(crate) fn features(self) -> &'static [&'static str] {
        match self {
            Piece::Redis => &[
                "robotrules-fetch/redis-tests",
                "robotrules/redis-tests",
                "robotrules-cli/redis-tests",
                "robotrules-testserver/redis-tests",
            ],
            Piece::Browser => &["robotrules-cli/browser-tests"],
            Piece::Java | Piece::Python | Piece::Js => &[],
        }
    }

    /// Whether the piece's variable is set to `1` in this process's environment.
    pub(crate) fn skipped(self) -> bool {
        self.skipped_in(|name| std::env::var_os(name))
    }

    /// Whether the piece's variable is `1` in `env`.
    fn skipped_in(self, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
        env(self.variable()).is_some_and(|value| value == "1")
    }
}

/// The loud end of a run that skipped pieces: one line per piece skipped, between rules;
/// `None` when nothing was.
pub(crate) fn summary(skipped: &[Piece]) -> Option<String> {
    if skipped.is_empty() {
        return None;
    }
    let rule = "=".repeat(78);
    let mut out = format!("{rule}\nxtask: NOT EVERYTHING WAS TESTED. Skipped:\n");
    for piece in skipped {
        out.push_str(&format!("  - {} ({}=1)\n", piece.tests(), piece.variable()));
    }
    out.push_str(&rule);
    Some(out)
}

/// The pieces skipped in this process's environment.
pub(crate) fn skipped() -> Vec<Piece> {
    Piece::ALL
        .into_iter()
        .filter(|piece| piece.skipped())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_piece_has_its_own_variable_and_only_1_skips() {
        let mut variables: Vec<&str> = Piece::ALL.iter().map(|p| p.variable()).collect();
        variables.sort_unstable();
        variables.dedup();
        assert_eq!(variables.len(), Piece::ALL.len());
        assert!(Piece::Python.variable() == "ROBOTRULES_SKIP_PYTHON");
        let env = |value: &'static str| {
            move |name: &str| (name == "ROBOTRULES_SKIP_REDIS").then(|| value.into())
        };
        assert!(Piece::Redis.skipped_in(env("1")));
        assert!(!Piece::Redis.skipped_in(env("0")));
        assert!(!Piece::Browser.skipped_in(env("1")));
    }

    #[test]
    fn the_summary_names_every_skipped_piece_and_its_variable() {
        assert_eq!(summary(&[]), None);
        let said = summary(&[Piece::Redis, Piece::Java]).unwrap_or_default();
        assert!(said.contains("NOT EVERYTHING WAS TESTED"), "{said}");
        assert!(said.contains("redis-server") && said.contains("ROBOTRULES_SKIP_REDIS=1"));
        assert!(said.contains("Spark") && said.contains("ROBOTRULES_SKIP_JAVA=1"));
        assert!(!said.contains("Chromium"), "{said}");
    }

    #[test]
    fn the_features_are_features_of_workspace_packages() {
        let metadata = crate::tidy::workspace_metadata();
        let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
        for piece in Piece::ALL {
            for feature in piece.features() {
                let (package, name) = feature.split_once('/').unwrap_or_default();
                let declared = packages
                    .iter()
                    .any(|p| p["name"] == package && p["features"].get(name).is_some());
                assert!(declared, "{feature} is no feature of a workspace package");
            }
        }
    }
}

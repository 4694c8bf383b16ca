//! The native half of the `robotrules` Python package (`robotrules._robotrules`): the facade
//! of the `robotrules` crate, bound with PyO3.
//!
//! The Python package (`python/robotrules/`) re-exports these classes and adds the drop-ins
//! for Protego, Scrapy and `urllib.robotparser` in pure Python. Every object is immutable
//! (`frozen`) and safe to share across threads; parsing, linting and `allowed_many` release
//! the GIL. Bad input never crashes: any `bytes`, any `str` (lone surrogates included) is read
//! as the profile reads bytes, and a crawler name or URL the profile cannot read raises
//! `InvalidAgent` or `InvalidUrl` (both `ValueError`s) with the CLI's message. `Survey` is
//! `robotrules survey`'s per-capture function, for engines such as Spark.
//!
//! PyO3's macros expand to `unsafe` FFI glue, and the workspace denies `unsafe_code`; the
//! lint does not fire on code expanded from an external proc-macro, so this crate
//! needs no exemption and writes no `unsafe` itself.

mod agent;
mod crawler;
mod diagnostic;
mod errors;
mod explanation;
mod input;
mod lint;
mod robots;
mod survey;
mod usage;

use pyo3::prelude::*;

/// The `robotrules._robotrules` module.
#[pymodule]
fn _robotrules(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<robots::Robots>()?;
    m.add_class::<crawler::Crawler>()?;
    m.add_class::<crawler::RequestRate>()?;
    m.add_class::<explanation::Explanation>()?;
    m.add_class::<explanation::RuleMatch>()?;
    m.add_class::<diagnostic::Diagnostic>()?;
    m.add_class::<lint::Finding>()?;
    m.add_class::<usage::Usage>()?;
    m.add_class::<usage::VocabularyUsage>()?;
    m.add_class::<usage::CategoryUsage>()?;
    m.add_class::<usage::CombinedUsage>()?;
    m.add_class::<usage::UsageStatement>()?;
    m.add_function(wrap_pyfunction!(lint::lint, m)?)?;
    m.add_function(wrap_pyfunction!(crawler::crawler_token, m)?)?;
    m.add_function(wrap_pyfunction!(crawler::status_access, m)?)?;
    m.add_class::<agent::NameReading>()?;
    m.add_function(wrap_pyfunction!(agent::name_reading, m)?)?;
    m.add_function(wrap_pyfunction!(agent::governs, m)?)?;
    m.add_class::<survey::Survey>()?;
    m.add_class::<survey::Surveyed>()?;
    m.add_function(wrap_pyfunction!(survey::url_key, m)?)?;
    m.add(
        "SURVEY_COLUMNS",
        pyo3::types::PyTuple::new(py, robotrules_survey::COLUMNS)?,
    )?;
    m.add(
        "SURVEY_USAGE_COLUMNS",
        pyo3::types::PyTuple::new(py, robotrules_survey::USAGE_COLUMNS)?,
    )?;
    let invalid_agent = py.get_type::<errors::InvalidAgent>();
    // The product token to pass instead, when the model can tell (`None` on the class).
    invalid_agent.setattr("suggestion", py.None())?;
    m.add("InvalidAgent", invalid_agent)?;
    m.add("InvalidUrl", py.get_type::<errors::InvalidUrl>())?;
    m.add(
        "PROFILES",
        pyo3::types::PyTuple::new(
            py,
            robotrules::Profile::ALL.map(robotrules::Profile::as_str),
        )?,
    )?;
    m.add("DEFAULT_PARSE_LIMIT", robotrules::DEFAULT_PARSE_LIMIT)?;
    // The crates' one version, which is also the wheel's (pyproject.toml: dynamic version).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

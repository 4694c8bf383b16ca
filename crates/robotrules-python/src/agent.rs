//! `NameReading`: what a profile reads of a crawler name that no group can name as it is; and
//! `governs`, whether a robots.txt governs a URL.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::{errors, input};

/// What the profile reads of a crawler's name when no group can name it as it is: Google's
/// library reads only the letters, `_` and `-` a `user-agent` line starts with, so
/// `User-agent: MJ12bot` names `MJ`. `message` is the warning the CLI prints.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
pub(crate) struct NameReading {
    /// The crawler's name as asked.
    name: String,
    /// What the profile reads of a `user-agent` line that gives the name.
    reads: String,
    /// The name to pass instead, when there is one.
    token: Option<String>,
    /// The warning, in one sentence (the CLI's).
    message: String,
}

impl From<robotrules::NameReading> for NameReading {
    fn from(reading: robotrules::NameReading) -> Self {
        NameReading {
            message: reading.to_string(),
            name: reading.name().to_owned(),
            reads: reading.reads().to_owned(),
            token: reading.token().map(str::to_owned),
        }
    }
}

#[pymethods]
impl NameReading {
    fn __repr__(&self) -> String {
        format!(
            "NameReading(name={:?}, reads={:?}, token={:?})",
            self.name, self.reads, self.token
        )
    }

    fn __str__(&self) -> &str {
        &self.message
    }
}

/// What `profile` reads of crawler name `agent`, outside any file; `None` when it reads the
/// name whole.
#[pyfunction]
#[pyo3(signature = (agent, *, profile = "rfc9309"))]
pub(crate) fn name_reading(
    agent: &Bound<'_, PyString>,
    profile: &str,
) -> PyResult<Option<NameReading>> {
    let profile = errors::profile(profile)?;
    Ok(robotrules::name_reading(profile, &input::text(agent)?.as_str()).map(NameReading::from))
}

/// Does the robots.txt at `robots_txt_url` govern `url` (RFC 9309 §2.3: the same scheme, host
/// and port; a robots.txt below the root governs nothing; a path is of the file's own origin)?
/// Raises `InvalidUrl` for a URL that cannot be read.
#[pyfunction]
pub(crate) fn governs(
    robots_txt_url: &Bound<'_, PyString>,
    url: &Bound<'_, PyString>,
) -> PyResult<bool> {
    robotrules::governs(
        &input::text(robots_txt_url)?.as_str(),
        &input::text(url)?.as_str(),
    )
    .map_err(errors::url)
}

//! The Python exceptions: `InvalidAgent` and `InvalidUrl`, both `ValueError`s, carrying the
//! messages of the Rust errors (their `Display`, as the CLI prints them).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::PyAnyMethods;
use pyo3::{PyErr, Python};

create_exception!(
    robotrules,
    InvalidAgent,
    PyValueError,
    "A crawler name the profile does not answer for (RFC 9309 §2.2.1: a product token)."
);
create_exception!(
    robotrules,
    InvalidUrl,
    PyValueError,
    "A URL the profile cannot read (rfc9309 and legacy1994: an absolute URL with a host, or a path starting with `/`)."
);

/// `InvalidAgent` with the Rust error's message, and the model's suggested token as its
/// `suggestion` (what the drop-ins ask about for a full User-Agent header).
pub(crate) fn agent(error: robotrules::InvalidAgent) -> PyErr {
    let err = InvalidAgent::new_err(error.to_string());
    Python::attach(|py| {
        // Setting an attribute on a fresh exception instance does not fail; if it did, the
        // exception still carries its message.
        let _ = err
            .value(py)
            .setattr("suggestion", error.suggestion.as_deref());
    });
    err
}

/// `InvalidUrl` with the Rust error's message.
pub(crate) fn url(error: robotrules::InvalidUrl) -> PyErr {
    InvalidUrl::new_err(error.to_string())
}

/// Either exception, for questions that take a crawler name and a URL.
pub(crate) fn either(error: robotrules::Error) -> PyErr {
    match error {
        robotrules::Error::InvalidAgent(error) => agent(error),
        robotrules::Error::InvalidUrl(error) => url(error),
        // `Error` is non-exhaustive: a later kind is still a value the caller gave.
        other => pyo3::exceptions::PyValueError::new_err(other.to_string()),
    }
}

/// A profile name that is not one of `rfc9309`, `google`, `legacy1994`: a `ValueError`.
pub(crate) fn profile(name: &str) -> Result<robotrules::Profile, PyErr> {
    name.parse()
        .map_err(|error: robotrules::UnknownProfile| PyValueError::new_err(error.to_string()))
}

//! The Python exceptions: `InvalidAgent` and `InvalidUrl`, both `ValueError`s, carrying the
//! messages of the Rust errors (their `Display`, as the CLI prints them).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

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

/// `InvalidAgent` with the Rust error's message.
pub(crate) fn agent(error: robotrules::InvalidAgent) -> PyErr {
    InvalidAgent::new_err(error.to_string())
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

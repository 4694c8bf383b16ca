//! The tester's error: a request it does not answer, with the HTTP status and the message
//! its JSON body carries (`{"error": "…"}`).

use hyper::StatusCode;

use std::time::Duration;

use super::limits::{MAX_BODY, MAX_HEAVY, RETRY_AFTER};
use crate::error::CliError;

/// A request the API does not answer: the status and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    /// The `Retry-After` header's seconds, when the request may be sent again soon.
    pub(crate) retry_after: Option<u32>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: String) -> ApiError {
        ApiError {
            status,
            message,
            retry_after: None,
        }
    }

    /// A heavy request while [`MAX_HEAVY`] others are computed: 503, to be sent again.
    pub(crate) fn busy() -> ApiError {
        ApiError {
            retry_after: Some(RETRY_AFTER),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{MAX_HEAVY} large requests are being answered; try again in {RETRY_AFTER} s"
                ),
            )
        }
    }

    pub(crate) fn not_found(path: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no such page: {:?}", robotrules_text::excerpt(path, 100)),
        )
    }

    pub(crate) fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {} bytes (1 MiB)", MAX_BODY),
        )
    }

    /// A request past `deadline`: 503 (its computation has stopped, or stops at its next
    /// look at the deadline).
    pub(crate) fn deadline(deadline: Duration) -> ApiError {
        let took = if deadline.subsec_millis() == 0 {
            format!("{} s", deadline.as_secs())
        } else {
            format!("{} ms", deadline.as_millis())
        };
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than its deadline of {took}"),
        )
    }

    /// `{"error": "…"}`.
    pub(crate) fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({ "error": self.message }))
            .unwrap_or_else(|_| b"{\"error\":\"internal error\"}".to_vec())
    }
}

impl From<CliError> for ApiError {
    /// The command's message, as a bad request.
    fn from(error: CliError) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error.to_string())
    }
}

/// More URLs than a request may ask about.
pub(crate) fn too_many_urls(count: usize) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        robotrules_tester_api::check::too_many_urls(count),
    )
}

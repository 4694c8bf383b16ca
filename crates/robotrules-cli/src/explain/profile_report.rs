//! One profile's answer to an `explain` question.

use robotrules::{Explanation, Profile};
use serde::Serialize;

/// One profile's answer: its explanation, or why it could not answer (a crawler name or a
/// URL it cannot read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct ProfileReport {
    /// The profile.
    pub(crate) profile: Profile,
    /// Why it cannot answer, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// The model's account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) explanation: Option<Explanation>,
}

impl ProfileReport {
    /// The verdict, if the profile could answer.
    pub(crate) fn allowed(&self) -> Option<bool> {
        self.explanation.as_ref().map(|e| e.allowed)
    }
}

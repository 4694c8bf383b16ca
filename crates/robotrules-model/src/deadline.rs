//! When long work on a file stops: a [`Deadline`] that the work's loops ask, and the
//! [`Expired`] error they return once it has passed. This is cooperative cancellation: a
//! tester that answers "too late" also stops computing (lint, explain, diff, show take one),
//! instead of leaving a thread to finish work nobody waits for.

use std::time::{Duration, Instant};

/// A point in time past which a computation gives up, or none (it runs to its end).
///
/// ```
/// use std::time::Duration;
/// use robotrules_model::{Deadline, Expired};
///
/// assert_eq!(Deadline::NONE.check(), Ok(()));
/// assert_eq!(Deadline::after(Duration::ZERO).check(), Err(Expired));
/// assert_eq!(Deadline::after(Duration::from_secs(3600)).check(), Ok(()));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline: the work runs to its end.
    pub const NONE: Deadline = Deadline(None);

    /// A deadline at `instant`.
    pub fn at(instant: Instant) -> Deadline {
        Deadline(Some(instant))
    }

    /// A deadline `duration` from now (none if that is past what an [`Instant`] holds).
    pub fn after(duration: Duration) -> Deadline {
        Deadline(Instant::now().checked_add(duration))
    }

    /// `Err(Expired)` once the deadline has passed (at it included).
    ///
    /// # Errors
    /// [`Expired`] when the deadline has passed.
    pub fn check(&self) -> Result<(), Expired> {
        match self.0 {
            Some(at) if Instant::now() >= at => Err(Expired),
            _ => Ok(()),
        }
    }
}

/// The work stopped at its [`Deadline`]: it has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the computation stopped at its deadline")]
pub struct Expired;

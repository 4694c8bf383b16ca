//! Catching the message and location of a panic while the sweep runs, instead of letting the
//! default hook print it.

use std::cell::RefCell;
use std::panic::{self, PanicHookInfo};

thread_local! {
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

type Hook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

/// While alive, panics on this thread are recorded (message and location) rather than
/// printed; dropping it restores the previous hook.
pub(crate) struct Capture {
    previous: Option<Hook>,
}

impl Capture {
    /// Install the recording hook.
    pub(crate) fn install() -> Capture {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(|info| {
            let text = info.to_string();
            LAST.with(|last| *last.borrow_mut() = Some(text));
        }));
        Capture {
            previous: Some(previous),
        }
    }

    /// The last recorded panic on this thread, if any, clearing it.
    pub(crate) fn take(&self) -> Option<String> {
        LAST.with(|last| last.borrow_mut().take())
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        if let Some(previous) = self.previous.take() {
            panic::set_hook(previous);
        }
    }
}

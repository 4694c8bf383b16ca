//! robotrules-url (under construction).

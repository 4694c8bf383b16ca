//! robotrules-fetch (under construction).

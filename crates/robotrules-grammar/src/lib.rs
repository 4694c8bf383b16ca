//! robotrules-grammar (under construction).

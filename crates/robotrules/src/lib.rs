//! robotrules (under construction).

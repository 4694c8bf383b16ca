//! robotrules-bench (under construction).

//! robotrules-conformance (under construction).

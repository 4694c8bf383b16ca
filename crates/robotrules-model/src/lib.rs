//! robotrules-model (under construction).

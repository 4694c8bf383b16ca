//! Lints for robots.txt files (work in progress).

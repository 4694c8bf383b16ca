//! The process's peak resident memory.

/// Peak resident set size in KiB (`VmHWM` in `/proc/self/status`); `None` where that file
/// does not exist (not Linux) or has no such line.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

/// The `VmHWM:   1234 kB` line's number.
pub(crate) fn parse_vm_hwm(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

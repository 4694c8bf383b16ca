//! A criterion measurement that counts the benchmark thread's CPU time instead of wall time.
//!
//! On a machine shared with other busy processes, wall time includes the time the thread
//! waited for a core; the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) does not. Select it
//! with `ROBOTRULES_BENCH_CLOCK=cpu`.

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::Throughput;

/// The benchmark thread's CPU time.
pub(crate) struct ThreadCpuTime;

fn now() -> Duration {
    cpu_time::ThreadTime::try_now()
        .map(|t| t.as_duration())
        .unwrap_or_default()
}

impl Measurement for ThreadCpuTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        now()
    }

    fn end(&self, start: Duration) -> Duration {
        now().saturating_sub(start)
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Formats nanoseconds of CPU time, and rates per CPU second.
struct CpuFormatter;

/// Scale `values` (ns) by the unit that suits `typical` (ns).
fn scale_ns(typical: f64, values: &mut [f64]) -> &'static str {
    let (factor, unit) = match typical {
        t if t < 1e3 => (1.0, "ns cpu"),
        t if t < 1e6 => (1e-3, "µs cpu"),
        t if t < 1e9 => (1e-6, "ms cpu"),
        _ => (1e-9, "s cpu"),
    };
    values.iter_mut().for_each(|v| *v *= factor);
    unit
}

/// Replace each time (ns) by `amount` per CPU second, scaled by the unit that suits `typical`.
fn scale_rate(
    amount: f64,
    typical: f64,
    values: &mut [f64],
    units: [&'static str; 4],
) -> &'static str {
    let per_second = amount * 1e9 / typical;
    let (denominator, unit) = match per_second {
        r if r < 1e3 => (1.0, units[0]),
        r if r < 1e6 => (1e3, units[1]),
        r if r < 1e9 => (1e6, units[2]),
        _ => (1e9, units[3]),
    };
    for v in values.iter_mut() {
        *v = amount * 1e9 / *v / denominator;
    }
    unit
}

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        scale_ns(typical, values)
    }

    fn scale_throughputs(
        &self,
        typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let bytes = ["B/s cpu", "KB/s cpu", "MB/s cpu", "GB/s cpu"];
        let elements = ["elem/s cpu", "Kelem/s cpu", "Melem/s cpu", "Gelem/s cpu"];
        match *throughput {
            Throughput::Bytes(b) | Throughput::BytesDecimal(b) => {
                scale_rate(b as f64, typical, values, bytes)
            }
            Throughput::Bits(b) => scale_rate(b as f64 / 8.0, typical, values, bytes),
            Throughput::Elements(e) | Throughput::ElementsAndBytes { elements: e, .. } => {
                scale_rate(e as f64, typical, values, elements)
            }
        }
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

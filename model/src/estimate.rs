//! One type for every measured or predicted number: a point estimate with its standard error
//! and a confidence interval (criterion.rs's `Estimate`, Saavedra-Barrera's eq. 4.13).

use serde::{Deserialize, Serialize};

/// The confidence level of every interval opcost reports (Saavedra-Barrera's section 4.5: 90 %).
pub const CONFIDENCE: f64 = 0.90;

/// A point estimate in nanoseconds (or seconds, by the field that holds it) with its standard
/// error and a two-sided interval at [`CONFIDENCE`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The estimator's value (the mean unless the run chose median or min).
    pub mean_ns: f64,
    /// Standard error of `mean_ns` (Saavedra-Barrera's sigma of the parameter, eqs. 4.7-4.12).
    pub std_dev_ns: f64,
    pub ci_low_ns: f64,
    pub ci_high_ns: f64,
    /// Observations behind the estimate (the smallest sample when several experiments combine).
    pub observations: usize,
}

impl Estimate {
    /// Half-width of the interval relative to the estimate, in percent (Saavedra-Barrera's eq. 4.14).
    pub fn ci_half_width_percent(&self) -> f64 {
        if self.mean_ns.abs() < f64::MIN_POSITIVE {
            return f64::INFINITY;
        }
        100.0 * (self.ci_high_ns - self.ci_low_ns) / 2.0 / self.mean_ns.abs()
    }

    /// Whether the interval excludes zero: Saavedra-Barrera reports parameters it cannot separate from
    /// zero as "1<" rather than as a number.
    pub fn separable_from_zero(&self) -> bool {
        self.ci_low_ns > 0.0 || self.ci_high_ns < 0.0
    }

    pub fn contains(&self, v: f64) -> bool {
        self.ci_low_ns <= v && v <= self.ci_high_ns
    }
}

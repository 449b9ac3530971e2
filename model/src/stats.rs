//! The pure statistics every crate shares: the median of a sample and Student's t factor of
//! the confidence intervals. One copy, used by the characterizer, the predictor, the
//! validation and the timing drivers.

use crate::estimate::CONFIDENCE;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// The median of a sample (NaN when empty): the statistic Whaley & Castaldo section 2.1 recommends for
/// CPU time, used by the characterizer, the validation and the timing drivers alike.
pub fn median(values: &[f64]) -> f64 {
    let mut s = values.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// The two-sided [`CONFIDENCE`] (90 %) Student's t factor for `n` observations
/// (Saavedra-Barrera's eq. 4.13).
pub fn t_factor(n: usize) -> f64 {
    let df = n.saturating_sub(1).max(1) as f64;
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(0.5 + CONFIDENCE / 2.0))
        .unwrap_or(f64::INFINITY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_factor_matches_tables() {
        // t(0.95) with 9 and infinite-ish degrees of freedom.
        assert!((t_factor(10) - 1.833).abs() < 1e-3);
        assert!((t_factor(1000) - 1.646).abs() < 2e-3);
    }

    #[test]
    fn median_of_odd_even_and_empty_samples() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }
}

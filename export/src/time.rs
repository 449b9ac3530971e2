//! The civil UTC time, for dates in result files and the names of their backups.

/// A UTC date and time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utc {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub seconds_of_day: i64,
}

/// Seconds since the Unix epoch (0 on a clock set before it).
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Utc {
    pub fn now() -> Self {
        Self::from_unix(unix_now())
    }

    /// Civil date from the Unix epoch (days-to-civil, H. Hinnant's algorithm).
    pub fn from_unix(secs: i64) -> Self {
        let days = secs.div_euclid(86400);
        let z = days + 719468;
        let era = z.div_euclid(146097);
        let doe = z - era * 146097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400;
        Utc {
            year: if month <= 2 { y + 1 } else { y },
            month,
            day,
            seconds_of_day: secs.rem_euclid(86400),
        }
    }

    fn hms(&self) -> (i64, i64, i64) {
        let s = self.seconds_of_day;
        (s / 3600, s % 3600 / 60, s % 60)
    }

    /// `2026-11-25T15:04:05Z`
    pub fn rfc3339(&self) -> String {
        let (h, m, s) = self.hms();
        format!(
            "{:04}-{:02}-{:02}T{h:02}:{m:02}:{s:02}Z",
            self.year, self.month, self.day
        )
    }

    /// `20261125-150405`, for file names.
    pub fn stamp(&self) -> String {
        let (h, m, s) = self.hms();
        format!(
            "{:04}{:02}{:02}-{h:02}{m:02}{s:02}",
            self.year, self.month, self.day
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        let t = super::Utc::from_unix(1_764_083_045);
        assert_eq!(t.rfc3339(), "2025-11-25T15:04:05Z");
        assert_eq!(t.stamp(), "20251125-150405");
    }
}

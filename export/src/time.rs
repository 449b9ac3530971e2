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

    /// Seconds since the Unix epoch (days-from-civil, H. Hinnant's algorithm).
    pub fn unix(&self) -> i64 {
        let y = if self.month <= 2 {
            self.year - 1
        } else {
            self.year
        };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (self.month + 9) % 12;
        let doy = (153 * mp + 2) / 5 + self.day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        (era * 146097 + doe - 719468) * 86400 + self.seconds_of_day
    }

    /// Read back what [`Utc::rfc3339`] writes (`2026-11-25T15:04:05Z`, fractions of a second
    /// ignored), so the age of a dated result can be told; None for anything else.
    pub fn parse_rfc3339(s: &str) -> Option<Self> {
        let s = s.trim().strip_suffix('Z')?;
        let (date, time) = s.split_once('T')?;
        let num = |t: &str| t.parse::<i64>().ok();
        let d: Vec<i64> = date.split('-').map(num).collect::<Option<_>>()?;
        let time = time.split('.').next()?;
        let t: Vec<i64> = time.split(':').map(num).collect::<Option<_>>()?;
        let (&[year, month, day], &[h, m, sec]) = (d.as_slice(), t.as_slice()) else {
            return None;
        };
        let valid = (1..=12).contains(&month) && (1..=31).contains(&day);
        let valid = valid && (0..24).contains(&h) && (0..60).contains(&m) && (0..61).contains(&sec);
        valid.then_some(Utc {
            year,
            month,
            day,
            seconds_of_day: h * 3600 + m * 60 + sec,
        })
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

    #[test]
    fn rfc3339_reads_back_to_the_same_second() {
        for secs in [0, 951_782_400, 1_764_083_045, 4_102_444_799] {
            let t = super::Utc::from_unix(secs);
            assert_eq!(super::Utc::parse_rfc3339(&t.rfc3339()), Some(t));
            assert_eq!(t.unix(), secs);
        }
        assert_eq!(
            super::Utc::parse_rfc3339("2026-11-25T15:04:05.25Z").map(|t| t.unix()),
            super::Utc::parse_rfc3339("2026-11-25T15:04:05Z").map(|t| t.unix())
        );
        for bad in [
            "",
            "2026-11-25",
            "2026-13-01T00:00:00Z",
            "yesterday",
            "2026-11-25T15:04Z",
        ] {
            assert_eq!(super::Utc::parse_rfc3339(bad), None, "{bad}");
        }
    }
}

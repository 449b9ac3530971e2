//! The X-Ray cache: a measured report kept per host so `opcost time` and `opcost xray` need
//! not measure again. An entry is trusted only for the host it was measured on (the host key
//! of [`MachineInfo::host_key`], not the CPU name two cloud hosts share), only while fresh,
//! and a quick measurement (fewer samples, for tests) never stands in for a full one.
//!
//! Where: `$OPCOST_CACHE_DIR` (tests point it at a temporary directory, so the suite never
//! touches the user's cache), else `$XDG_CACHE_HOME/opcost`, else `~/.cache/opcost`.

use model::characterization::MachineInfo;
use model::files::Versioned;
use model::hardware::HardwareReport;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Entries older than this are measured again: a host's neighbours, kernel and firmware change.
pub const MAX_AGE_DAYS: i64 = 30;

/// One cached report and what it was measured on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CachedReport {
    pub format: String,
    pub format_version: u32,
    pub host: MachineInfo,
    pub host_key: String,
    /// Measured with `--quick` (fewer samples).
    pub quick: bool,
    /// RFC 3339, UTC.
    pub measured: String,
    pub measured_unix_s: i64,
    pub report: HardwareReport,
}

/// Version 2 added the bandwidths, version 3 divide, square root and packed instruction rows,
/// version 4 the out-of-order window, version 5 an integer multiply chain no compiler can
/// regroup (LLVM had folded version 4's), version 6 the longest DO loop whose exit is
/// foreseen, version 7 the arithmetic ports' rate: an entry measured without them is
/// measured again.
impl Versioned for CachedReport {
    const FORMAT: &'static str = "opcost-xray-cache";
    const VERSION: u32 = 7;
}

/// Why a cache entry was not used (said to the user before measuring again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No entry for this host.
    Absent,
    /// The entry cannot be read or is not an X-Ray cache entry.
    Unreadable(String),
    /// Only a quick entry exists and a full measurement is wanted.
    OnlyQuick,
    /// Older than [`MAX_AGE_DAYS`].
    Stale { days: i64 },
    /// Measured on another host (a copied cache directory).
    OtherHost,
    /// Written before X-Ray measured the random-access curve (rule 33).
    Incomplete,
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Miss::Absent => write!(f, "no cached X-Ray report for this host"),
            Miss::Unreadable(why) => write!(f, "the cached X-Ray report is unusable ({why})"),
            Miss::OnlyQuick => write!(
                f,
                "the cached X-Ray report is from a quick run, not trusted for a full one"
            ),
            Miss::Stale { days } => write!(
                f,
                "the cached X-Ray report is {days} days old (more than {MAX_AGE_DAYS})"
            ),
            Miss::OtherHost => write!(f, "the cached X-Ray report was measured on another host"),
            Miss::Incomplete => write!(
                f,
                "the cached X-Ray report predates the random-access latency curve"
            ),
        }
    }
}

/// The cache directory (see the module doc); None without any of the variables.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    var("OPCOST_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("opcost")))
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache").join("opcost")))
}

/// The entry's file for `host`: `xray-<cpu slug>-<host key>[-quick].json`.
pub fn entry_path(dir: &Path, host: &MachineInfo, quick: bool) -> PathBuf {
    dir.join(format!(
        "xray-{}-{}{}.json",
        harness::machine_slug(host),
        host.host_key(),
        if quick { "-quick" } else { "" }
    ))
}

/// The freshest usable entry for `host`: a full one, or for a quick request a quick one too.
pub fn lookup(
    dir: &Path,
    host: &MachineInfo,
    quick_ok: bool,
    now_unix_s: i64,
) -> Result<CachedReport, Miss> {
    let full = read_entry(&entry_path(dir, host, false), host, now_unix_s);
    if full.is_ok() {
        return full;
    }
    let quick = read_entry(&entry_path(dir, host, true), host, now_unix_s);
    match (full, quick) {
        (_, Ok(q)) if quick_ok => Ok(q),
        (Err(Miss::Absent), Ok(_)) => Err(Miss::OnlyQuick),
        // For a quick request, the quick entry's own fault says more than a missing full one.
        (_, Err(q)) if quick_ok && q != Miss::Absent => Err(q),
        (full, _) => full,
    }
}

fn read_entry(path: &Path, host: &MachineInfo, now_unix_s: i64) -> Result<CachedReport, Miss> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Miss::Absent),
        Err(e) => return Err(Miss::Unreadable(format!("{}: {e}", path.display()))),
    };
    let entry: CachedReport = model::parse_versioned(&text)
        .map_err(|e| Miss::Unreadable(format!("{}: {e}", path.display())))?;
    if entry.host_key != host.host_key() {
        return Err(Miss::OtherHost);
    }
    let days = (now_unix_s - entry.measured_unix_s).div_euclid(86_400);
    if days > MAX_AGE_DAYS {
        return Err(Miss::Stale { days });
    }
    if entry.report.random_latency.is_empty() {
        return Err(Miss::Incomplete);
    }
    Ok(entry)
}

/// Where a report came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Read from the cache: the file and the date it was measured.
    Cached { path: PathBuf, measured: String },
    /// Measured now (and kept in the cache when there is one).
    Measured,
}

/// This host's report: from the cache when a usable entry exists and `refresh` is false,
/// measured (and kept) otherwise. `say` hears why the cache was not used and where the new
/// entry went; a cache that cannot be written costs nothing but the message.
pub fn cached_or_measured(
    compiler: &harness::Compiler,
    options: &crate::XrayOptions,
    refresh: bool,
    progress: &mut crate::Progress,
    say: &mut dyn FnMut(&str),
) -> Result<(HardwareReport, Source), crate::XrayError> {
    let host = harness::machine_info();
    let dir = cache_dir();
    if let (Some(dir), false) = (&dir, refresh) {
        match lookup(dir, &host, options.quick, export::time::unix_now()) {
            Ok(e) => {
                let path = entry_path(dir, &host, e.quick);
                let source = Source::Cached {
                    path,
                    measured: e.measured,
                };
                return Ok((e.report, source));
            }
            Err(Miss::Absent) => {}
            Err(why) => say(&format!("{why}; measuring again")),
        }
    }
    let report = crate::measure(compiler, options, progress)?;
    if let Some(dir) = &dir {
        match store(dir, &host, options.quick, &report) {
            Ok(p) => say(&format!("X-Ray report kept in {}", p.display())),
            Err(e) => say(&format!("warning: X-Ray report not cached: {e}")),
        }
    }
    Ok((report, Source::Measured))
}

/// Keep `report` as this host's entry (written atomically); returns the file.
pub fn store(
    dir: &Path,
    host: &MachineInfo,
    quick: bool,
    report: &HardwareReport,
) -> Result<PathBuf, crate::XrayError> {
    let now_unix_s = export::time::unix_now();
    let now = export::time::Utc::from_unix(now_unix_s);
    let entry = CachedReport {
        format: CachedReport::FORMAT.into(),
        format_version: CachedReport::VERSION,
        host: host.clone(),
        host_key: host.host_key(),
        quick,
        measured: now.rfc3339(),
        measured_unix_s: now_unix_s,
        report: report.clone(),
    };
    let path = entry_path(dir, host, quick);
    let text = export::json("the X-Ray cache entry", &entry)
        .map_err(|e| crate::XrayError::Io(e.to_string()))?;
    export::write_atomic(&path, &text)
        .map_err(|e| crate::XrayError::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real report: the X-Ray section of the committed -O0 characterization.
    fn report() -> HardwareReport {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/characterizations/amd-epyc-2c--gfortran-O0.json"
        );
        let c: model::Characterization =
            model::parse_versioned(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut r = c.xray.expect("the fixture has an X-Ray section");
        r.random_latency = vec![
            model::hardware::RandomLatency {
                bytes: 16 << 10,
                ns: 1.6,
            },
            model::hardware::RandomLatency {
                bytes: 64 << 20,
                ns: 240.0,
            },
        ];
        r
    }

    #[test]
    fn an_entry_without_the_random_access_curve_is_measured_again() {
        let dir = tempfile::tempdir().unwrap();
        let host = harness::machine_info();
        let mut older = report();
        older.random_latency.clear();
        store(dir.path(), &host, false, &older).unwrap();
        assert_eq!(
            lookup(dir.path(), &host, false, now()).unwrap_err(),
            Miss::Incomplete
        );
    }

    fn now() -> i64 {
        export::time::unix_now()
    }

    #[test]
    fn a_full_entry_serves_full_and_quick_requests_of_its_host() {
        let dir = tempfile::tempdir().unwrap();
        let host = harness::machine_info();
        store(dir.path(), &host, false, &report()).unwrap();
        let e = lookup(dir.path(), &host, false, now()).unwrap();
        assert!(!e.quick);
        assert_eq!(e.report, report());
        assert!(lookup(dir.path(), &host, true, now()).is_ok());
    }

    #[test]
    fn a_quick_entry_never_serves_a_full_request() {
        let dir = tempfile::tempdir().unwrap();
        let host = harness::machine_info();
        store(dir.path(), &host, true, &report()).unwrap();
        assert_eq!(
            lookup(dir.path(), &host, false, now()).unwrap_err(),
            Miss::OnlyQuick
        );
        assert!(lookup(dir.path(), &host, true, now()).unwrap().quick);
    }

    #[test]
    fn stale_foreign_and_corrupt_entries_are_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let host = harness::machine_info();
        store(dir.path(), &host, false, &report()).unwrap();
        let later = now() + (MAX_AGE_DAYS + 2) * 86_400;
        assert!(matches!(
            lookup(dir.path(), &host, false, later),
            Err(Miss::Stale { .. })
        ));
        // Another host of the same CPU model: the entry is copied under its name.
        let mut other = host.clone();
        other.machine_id = format!("{}-other", other.machine_id);
        std::fs::copy(
            entry_path(dir.path(), &host, false),
            entry_path(dir.path(), &other, false),
        )
        .unwrap();
        assert_eq!(
            lookup(dir.path(), &other, false, now()).unwrap_err(),
            Miss::OtherHost
        );
        std::fs::write(entry_path(dir.path(), &host, false), "{ not json").unwrap();
        let why = lookup(dir.path(), &host, false, now()).unwrap_err();
        assert!(matches!(why, Miss::Unreadable(_)), "{why:?}");
        assert!(why.to_string().contains("xray-"), "{why}");
    }
}

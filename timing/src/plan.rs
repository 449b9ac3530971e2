//! A timing planned from `opcost time`'s options: the timer, method and flush contexts read
//! and checked against the spec, then the points timed in each context, and the routine timed
//! in its application beside the driver in the same sizes.

use crate::app::{AppTiming, CallGroup};
use crate::driver::{DriverConfig, FlushSet, Method};
use crate::run::{Prepared, Timer, Timing};
use crate::spec::{Alignment, Spec};
use crate::TimingError;
use model::hardware::HardwareReport;
use std::collections::BTreeMap;
use std::time::Duration;

/// `none`, `all` or a list of operands `A,B`.
pub fn parse_flush(s: &str) -> FlushSet {
    match s.to_ascii_lowercase().as_str() {
        "none" => FlushSet::None,
        "all" => FlushSet::All,
        _ => FlushSet::Operands(
            s.split(',')
                .map(|x| x.trim().to_ascii_uppercase())
                .filter(|x| !x.is_empty())
                .collect(),
        ),
    }
}

/// `wall` or `cpu`.
pub fn parse_timer(s: &str) -> Result<Timer, TimingError> {
    match s {
        "wall" => Ok(Timer::Wall),
        "cpu" => Ok(Timer::Cpu),
        t => Err(TimingError::Other(format!(
            "--timer {t}: expected wall or cpu"
        ))),
    }
}

/// `one-call` or `multi-call` [default: one-call; multi-call for a sweep].
pub fn parse_method(m: Option<&str>, sweep: bool) -> Result<Method, TimingError> {
    match m {
        None if sweep => Ok(Method::MultiCall),
        None | Some("one-call") => Ok(Method::OneCall),
        Some("multi-call") => Ok(Method::MultiCall),
        Some(m) => Err(TimingError::Other(format!(
            "--method {m}: expected one-call or multi-call"
        ))),
    }
}

/// The flush contexts to time: the one given, else all flushed for a sweep, else none and all.
pub fn flush_sets(flush: Option<&str>, sweep: bool) -> Vec<FlushSet> {
    match flush {
        Some(f) => vec![parse_flush(f)],
        None if sweep => vec![FlushSet::All],
        None => vec![FlushSet::None, FlushSet::All],
    }
}

/// Check the flush contexts against the spec's arrays; true when `all` flushes nothing (no
/// array of the spec is marked `flush`).
pub fn check_flushes(spec: &Spec, flushes: &[FlushSet]) -> Result<bool, TimingError> {
    let mut flushes_nothing = false;
    for f in flushes {
        if let FlushSet::Operands(ops) = f {
            for o in ops {
                if !spec.arrays().iter().any(|x| &x.name == o) {
                    return Err(TimingError::Other(format!(
                        "--flush {o}: not an array argument of {} (arrays: {})",
                        spec.routine,
                        spec.arrays()
                            .iter()
                            .map(|x| x.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
            }
        }
        if *f == FlushSet::All && !spec.arrays().iter().any(|x| x.flush) {
            flushes_nothing = true;
        }
    }
    Ok(flushes_nothing)
}

/// Time every point of the spec in each of `cfgs` (`rounds` times over, pooled), and with
/// `memalign` also aligned and misaligned to that many bytes (in the last context).
/// `progress(done, total)` counts contexts.
pub fn time_points(
    prep: &Prepared,
    cfgs: &[DriverConfig],
    timer: Timer,
    rounds: u32,
    memalign: Option<u64>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<Timing>, TimingError> {
    let shapes = crate::run::shapes(&prep.spec)?;
    let total = (shapes.len() * cfgs.len()) as u64;
    progress(0, total);
    let mut timings = vec![];
    for (i, shape) in shapes.iter().enumerate() {
        progress(((i + 1) * cfgs.len()) as u64, total);
        timings.extend(prep.time_rounds(shape, cfgs, timer, rounds)?);
        if let Some(b) = memalign {
            for al in [Alignment::Aligned(b), Alignment::Misaligned(b)] {
                let mut c = cfgs.last().cloned().expect("a context");
                c.align_override = Some(al);
                timings.push(prep.time(shape, &c, timer)?);
            }
        }
    }
    Ok(timings)
}

/// A call group of the application beside the driver timed in the same sizes: in cache and
/// flushed (in cache again without a flush area).
pub type MatchedGroup = (CallGroup, Timing, Timing);

/// Time the routine in its application, then the driver in the sizes of the application's
/// five most frequent call groups, one call per sample like the application (`base`: the
/// driver's settings; at least 31 samples).
pub fn in_application(
    prep: &Prepared,
    limit: Duration,
    base: &DriverConfig,
    rounds: u32,
) -> Result<(AppTiming, Vec<MatchedGroup>), TimingError> {
    let t = crate::app::time_in_application(&prep.spec, &prep.sig, &prep.compiler, limit)?;
    let mut groups = t.groups.clone();
    groups.sort_by_key(|g| std::cmp::Reverse(g.calls));
    let mut matched = vec![];
    for g in groups.into_iter().take(5) {
        let mut sizes: BTreeMap<String, i64> = prep
            .spec
            .sizes
            .iter()
            .map(|(k, v)| (k.clone(), v[0]))
            .collect();
        sizes.extend(g.sizes.clone());
        let shape = crate::check::shape(&prep.spec, &sizes)?;
        let mut c = DriverConfig {
            method: Method::OneCall,
            flush: FlushSet::None,
            samples: base.samples.max(31),
            ..base.clone()
        };
        let mut cfgs = vec![c.clone()];
        if base.flush_kb > 0 {
            c.flush = FlushSet::All;
            cfgs.push(c);
        }
        let mut both = prep.time_rounds(&shape, &cfgs, Timer::Wall, rounds)?;
        let hot = both.remove(0);
        let cold = both.pop().unwrap_or_else(|| hot.clone());
        matched.push((g, hot, cold));
    }
    Ok((t, matched))
}

/// Everything one `opcost time` measured, as `opcost time --json` writes it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TimingDocument {
    /// Always `opcost-timing`.
    pub format: String,
    /// The routine specification's file.
    pub spec: String,
    pub routine: String,
    /// The flush area, KiB (0 when nothing was flushed).
    pub flush_kb: u64,
    /// Each point in each context (empty for a sweep).
    pub timings: Vec<Timing>,
    /// The sweep's points, flushed and in cache (`--sweep`).
    pub sweep: Option<Vec<crate::run::SweepPoint>>,
    /// The routine timed inside its application (`--in-app`).
    pub in_application: Option<AppTiming>,
    /// The application's most frequent call groups beside the driver in the same sizes.
    pub in_application_driver: Vec<MatchedGroup>,
}

impl TimingDocument {
    pub const FORMAT: &'static str = "opcost-timing";
}

/// The cache levels of an X-Ray report for a sweep's chart: ("L1", bytes), ...
pub fn cache_levels(hw: Option<&HardwareReport>) -> Vec<(String, u64)> {
    hw.iter()
        .flat_map(|h| {
            h.caches
                .iter()
                .map(|c| (format!("L{}", c.level), c.capacity_bytes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_as_the_command_gives_them() {
        assert_eq!(parse_flush("none"), FlushSet::None);
        assert_eq!(parse_flush("ALL"), FlushSet::All);
        assert_eq!(
            parse_flush("a, b,"),
            FlushSet::Operands(vec!["A".into(), "B".into()])
        );
        assert_eq!(flush_sets(None, false), vec![FlushSet::None, FlushSet::All]);
        assert_eq!(flush_sets(None, true), vec![FlushSet::All]);
        assert!(matches!(parse_timer("cpu"), Ok(Timer::Cpu)));
        assert_eq!(
            parse_timer("x").unwrap_err().to_string(),
            "--timer x: expected wall or cpu"
        );
        assert_eq!(parse_method(None, true).unwrap(), Method::MultiCall);
        assert_eq!(parse_method(None, false).unwrap(), Method::OneCall);
        assert!(parse_method(Some("x"), false).is_err());
        assert!(cache_levels(None).is_empty());
    }

    #[test]
    fn the_timing_document_keeps_the_fields_of_opcost_time_json() {
        let d = TimingDocument {
            format: TimingDocument::FORMAT.into(),
            spec: "ddot.spec".into(),
            routine: "DDOT".into(),
            flush_kb: 64,
            timings: vec![],
            sweep: None,
            in_application: None,
            in_application_driver: vec![],
        };
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            serde_json::json!({
                "format": "opcost-timing",
                "spec": "ddot.spec",
                "routine": "DDOT",
                "flush_kb": 64,
                "timings": [],
                "sweep": null,
                "in_application": null,
                "in_application_driver": [],
            })
        );
    }
}

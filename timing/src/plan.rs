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
    /// The flush's effect at the smallest size timed both ways (absent without both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flush_effect: Option<FlushEffect>,
}

impl TimingDocument {
    pub const FORMAT: &'static str = "opcost-timing";
}

/// A flushed call must take at least this much longer than the same call in cache for the
/// flush to count as having evicted its operands: at the smallest size a call from memory
/// costs several times one from L1 (2.3x for DDOT N=1000 here), so 10 % is a clear floor
/// above timing noise, and less means the operands stayed in some cache.
pub const MIN_FLUSH_EFFECT: f64 = 1.10;

/// The flush's effect at the smallest size timed both flushed and in cache.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FlushEffect {
    pub sizes: BTreeMap<String, i64>,
    /// Flushed seconds / in-cache seconds (the headline statistic).
    pub ratio: f64,
    pub method: Method,
    pub flush_kb: u64,
}

impl FlushEffect {
    pub fn evident(&self) -> bool {
        self.ratio >= MIN_FLUSH_EFFECT
    }

    /// What to tell the user when the flush had no clear effect; `largest_cache_kb` is the
    /// largest cache known on this host (0 if none).
    pub fn advice(&self, largest_cache_kb: u64) -> String {
        let sizes: Vec<String> = self.sizes.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let how = match self.method {
            Method::OneCall => format!(
                "the {} KiB flush area may not evict the operands; enlarge it with --flush-kb {}",
                self.flush_kb,
                (4 * self.flush_kb).max(2 * largest_cache_kb)
            ),
            Method::MultiCall => "the multi-call working sets may not leave the cache; \
                 try --method one-call with --flush-kb"
                .to_string(),
        };
        format!(
            "the flushed call at {} is only {:.2}x the in-cache call (expected at least {:.2}x): {how}",
            sizes.join(" "),
            self.ratio,
            MIN_FLUSH_EFFECT
        )
    }
}

/// The flush's effect among `timings`: the smallest working set timed flushed that was also
/// timed in cache (the first such pair, before any alignment variants).
pub fn flush_effect(timings: &[Timing]) -> Option<FlushEffect> {
    timings
        .iter()
        .filter(|t| !t.flushed.is_empty())
        .filter_map(|cold| {
            let hot = timings.iter().find(|h| {
                h.flushed.is_empty() && h.sizes == cold.sizes && h.method == cold.method
            })?;
            Some((cold, hot))
        })
        .min_by_key(|(cold, _)| cold.working_set_bytes)
        .map(|(cold, hot)| effect(hot, cold))
}

/// The flush's effect at the smallest point: from `timings` when the point was timed both
/// ways, else timed once more in cache with the first flushed context's settings (a user who
/// asked only for flushed timings still learns whether the flush flushed). None when nothing
/// was flushed.
pub fn checked_flush_effect(
    prep: &Prepared,
    timings: &[Timing],
    cfgs: &[DriverConfig],
    timer: Timer,
) -> Result<Option<FlushEffect>, TimingError> {
    if let Some(e) = flush_effect(timings) {
        return Ok(Some(e));
    }
    let Some(cold_cfg) = cfgs.iter().find(|c| c.flush != FlushSet::None) else {
        return Ok(None);
    };
    let shapes = crate::run::shapes(&prep.spec)?;
    let Some(shape) = shapes.iter().min_by_key(|s| s.working_set) else {
        return Ok(None);
    };
    let Some(cold) = timings
        .iter()
        .find(|t| !t.flushed.is_empty() && t.sizes == shape.sizes)
    else {
        return Ok(None);
    };
    let hot_cfg = DriverConfig {
        flush: FlushSet::None,
        ..cold_cfg.clone()
    };
    let hot = prep.time(shape, &hot_cfg, timer)?;
    Ok(Some(effect(&hot, cold)))
}

/// The flush's effect at a sweep's smallest point.
pub fn sweep_flush_effect(points: &[crate::run::SweepPoint]) -> Option<FlushEffect> {
    points
        .iter()
        .min_by_key(|p| p.hot.working_set_bytes)
        .map(|p| effect(&p.hot, &p.cold))
}

fn effect(hot: &Timing, cold: &Timing) -> FlushEffect {
    FlushEffect {
        sizes: cold.sizes.clone(),
        ratio: cold.seconds / hot.seconds,
        method: cold.method,
        flush_kb: cold.flush_kb,
    }
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

    /// Calls shorter than the CPU timer's resolution give CPU samples of zero: their spread
    /// is not defined (None, never NaN), and the timing still writes and reads back.
    #[test]
    fn a_zero_cpu_median_leaves_the_spread_undefined_and_the_timing_readable() {
        let t = Timing {
            sizes: BTreeMap::new(),
            method: Method::OneCall,
            flushed: vec![],
            flush_kb: 0,
            calls_per_sample: 1,
            working_sets: 1,
            calibration_interval_s: 0.0,
            working_set_bytes: 0,
            address_mod_4096: BTreeMap::new(),
            wall_s: vec![2e-7, 3e-7, 2.5e-7],
            cpu_s: vec![0.0, 0.0, 1e-6],
            wall_min_s: 0.0,
            wall_median_s: 0.0,
            cpu_median_s: 0.0,
            wall_spread: None,
            cpu_spread: None,
            flop: None,
            mflops: None,
            timer: Timer::Cpu,
            seconds: 0.0,
        }
        .with_statistics();
        assert_eq!(t.cpu_spread, None);
        assert!((t.wall_spread.unwrap() - 0.5).abs() < 1e-9);
        let text = serde_json::to_string(&t).unwrap();
        let back: Timing = serde_json::from_str(&text).unwrap();
        assert_eq!(back.cpu_spread, None);
        assert_eq!(back.wall_spread, t.wall_spread);
    }

    #[test]
    fn flush_effect_pairs_the_smallest_flushed_point_with_its_in_cache_twin() {
        let t = |n: i64, flushed: bool, seconds: f64| Timing {
            sizes: BTreeMap::from([("N".to_string(), n)]),
            method: Method::OneCall,
            flushed: if flushed { vec!["X".into()] } else { vec![] },
            flush_kb: 1024,
            calls_per_sample: 1,
            working_sets: 1,
            calibration_interval_s: 0.0,
            working_set_bytes: 16 * n as u64,
            address_mod_4096: BTreeMap::new(),
            wall_s: vec![seconds],
            cpu_s: vec![seconds],
            wall_min_s: seconds,
            wall_median_s: seconds,
            cpu_median_s: seconds,
            wall_spread: None,
            cpu_spread: None,
            flop: None,
            mflops: None,
            timer: Timer::Wall,
            seconds,
        };
        let ts = [
            t(1000, false, 1e-6),
            t(1000, true, 1.05e-6),
            t(10, false, 2e-7),
            t(10, true, 6e-7),
        ];
        let e = flush_effect(&ts).unwrap();
        assert_eq!(e.sizes["N"], 10);
        assert!((e.ratio - 3.0).abs() < 1e-9 && e.evident());
        let weak = flush_effect(&ts[..2]).unwrap();
        assert!(!weak.evident());
        assert!(
            weak.advice(32768).contains("--flush-kb 65536"),
            "{}",
            weak.advice(32768)
        );
        assert!(flush_effect(&ts[..1]).is_none());
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
            flush_effect: None,
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

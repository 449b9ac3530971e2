//! In-application timing (Magee, Yi & Whaley section 3.1, fig. 2): a copy of the whole program, never the
//! original, in which every call of the routine records its size arguments and its wall time.
//!
//! The copy renames the routine's own unit to a name of the same length (so no line grows past
//! column 72) and adds, in a separate file (no inlining), a wrapper with the routine's
//! original name and signature that reads the clock around a call of the renamed routine and
//! writes one line per call. Callers are not touched.

use crate::check::Signature;
use crate::spec::{ArgSpec, Spec};
use crate::TimingError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Fortran unit the wrapper writes its records to.
const RECORD_UNIT: u32 = 97;
const RECORD_FILE: &str = "opcost-calls.txt";

/// One recorded call.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Call {
    pub index: u64,
    pub wall_s: f64,
    pub sizes: BTreeMap<String, i64>,
}

/// The calls of one size combination.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallGroup {
    pub sizes: BTreeMap<String, i64>,
    pub calls: u64,
    /// The first call with these sizes (cold instructions and data, Whaley & Castaldo section 5.4).
    pub first_s: f64,
    /// Median and minimum of the later calls.
    pub later_median_s: f64,
    pub later_min_s: f64,
    /// (max - min) / median of the later calls.
    pub later_spread: f64,
}

/// The result of an instrumented run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AppTiming {
    pub calls: Vec<Call>,
    pub groups: Vec<CallGroup>,
    pub run_wall_s: f64,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Replace the identifier `from` by `to` (same length) in the statement field of a line,
/// outside character constants.
fn rename_in_line(line: &str, from: &str, to: &str) -> String {
    let b = line.as_bytes();
    let mut out = line.as_bytes().to_vec();
    let n = from.len();
    let mut quoted = false;
    let end = b.len().min(72);
    let mut i = 6.min(end);
    while i < end {
        if b[i] == b'\'' {
            quoted = !quoted;
        } else if !quoted
            && i + n <= end
            && b[i..i + n].eq_ignore_ascii_case(from.as_bytes())
            && (i == 0 || !is_ident(b[i - 1]))
            && (i + n == b.len() || !is_ident(b[i + n]))
        {
            out[i..i + n].copy_from_slice(to.as_bytes());
            i += n;
            continue;
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| line.to_string())
}

/// A name of the same length as `name` that the program does not use.
fn fresh_name(name: &str, used: &HashSet<String>) -> Option<String> {
    for prefix in ["Z", "Q", "ZQ", "QZ", "ZZ", "QQ"] {
        if prefix.len() >= name.len() {
            continue;
        }
        let cand = format!("{prefix}{}", &name[prefix.len()..]);
        if !used.contains(&cand) {
            return Some(cand);
        }
    }
    None
}

/// Write the instrumented copy into `dir`; returns the files to compile.
pub fn instrument(
    spec: &Spec,
    sig: &Signature,
    dir: &std::path::Path,
) -> Result<Vec<PathBuf>, TimingError> {
    if spec.program.is_empty() {
        return Err(TimingError::Other(format!(
            "{}: in-application timing needs a `program FILE...` line (the whole application)",
            spec.path.display()
        )));
    }
    let program = analyzer::load(&spec.program, &analyzer::AnalyzeOptions::default())
        .map_err(|e| TimingError::Other(format!("cannot read the application: {e}")))?;
    if !program
        .units
        .iter()
        .any(|u| u.kind == analyzer::symbols::UnitKind::Main)
    {
        return Err(TimingError::Other(format!(
            "{}: the `program` files have no main program",
            spec.path.display()
        )));
    }
    let unit = program
        .units
        .iter()
        .find(|u| u.name.eq_ignore_ascii_case(&sig.name) && u.end > u.first)
        .ok_or_else(|| {
            TimingError::Other(format!(
                "{}: the application ({}) does not define {}",
                spec.path.display(),
                spec.program
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                sig.name
            ))
        })?;
    let mut used = HashSet::new();
    for f in &program.files {
        for l in &f.lines {
            analyzer::analysis::collect_words(&mut used, l);
        }
    }
    let renamed = fresh_name(&sig.name, &used).ok_or_else(|| {
        TimingError::Other(format!(
            "no free name of {}'s length to rename it to",
            sig.name
        ))
    })?;
    let first = program.statement(unit.first).first_line() as usize;
    let last_stmt = program.statement(unit.end - 1);
    let last = *last_stmt.lines.last().unwrap_or(&0) as usize;
    let mut files = vec![];
    for (fi, f) in program.files.iter().enumerate() {
        let mut lines = f.lines.clone();
        if fi == unit.file {
            for l in lines.iter_mut().take(last + 1).skip(first) {
                if !analyzer::source::is_comment(l) {
                    *l = rename_in_line(l, &sig.name, &renamed);
                }
            }
        }
        let stem = std::path::Path::new(&f.path)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "src.f".into());
        let out = dir.join(format!("{fi}_{stem}"));
        std::fs::write(&out, lines.join("\n") + "\n")
            .map_err(|e| TimingError::Io(out.display().to_string(), e))?;
        files.push(out);
    }
    let wrap = dir.join("opcost_wrapper.f");
    std::fs::write(&wrap, wrapper(spec, sig, &renamed))
        .map_err(|e| TimingError::Io(wrap.display().to_string(), e))?;
    files.push(wrap);
    Ok(files)
}

/// The wrapper routine: same name and arguments, clock around the renamed original.
fn wrapper(spec: &Spec, sig: &Signature, renamed: &str) -> String {
    let mut st: Vec<String> = vec![];
    let args = sig.formals.join(", ");
    let result = sig.result.map(|t| t.fortran());
    st.push(match result {
        Some(t) => format!("{t} FUNCTION {}({args})", sig.name),
        None => format!("SUBROUTINE {}({args})", sig.name),
    });
    for f in &sig.formals {
        st.push(match &spec.args[f] {
            ArgSpec::Array(a) => format!("{} {f}(*)", a.ty.fortran()),
            _ => format!("{} {f}", sig.types[f].fortran()),
        });
    }
    if let Some(t) = result {
        st.push(format!("{t} {renamed}"));
        st.push(format!("EXTERNAL {renamed}"));
    }
    st.push("INTEGER*8 OPCT0, OPCT1, OPCRT".into());
    st.push("INTEGER OPCNC".into());
    st.push("SAVE OPCNC".into());
    st.push("DATA OPCNC /0/".into());
    st.push("CALL SYSTEM_CLOCK(OPCT0, OPCRT)".into());
    st.push(match result {
        Some(_) => format!("{} = {renamed}({args})", sig.name),
        None => format!("CALL {renamed}({args})"),
    });
    st.push("CALL SYSTEM_CLOCK(OPCT1)".into());
    st.push("OPCNC = OPCNC + 1".into());
    st.push(format!(
        "IF (OPCNC .EQ. 1) OPEN (UNIT = {RECORD_UNIT}, FILE = '{RECORD_FILE}')"
    ));
    let mut w = format!("WRITE ({RECORD_UNIT}, *) OPCNC, DBLE(OPCT1 - OPCT0) / DBLE(OPCRT)");
    for f in &sig.formals {
        if matches!(spec.args[f], ArgSpec::Size(_)) {
            w.push_str(&format!(", {f}"));
        }
    }
    st.push(w);
    st.push("END".into());
    let mut o = String::from(
        "C     In-application timing wrapper written by opcost time (Magee, Yi & Whaley sec. 3.1).\n",
    );
    for s in &st {
        crate::driver::emit(&mut o, None, s);
    }
    o
}

/// Instrument, build and run the application; collect and group its calls.
pub fn time_in_application(
    spec: &Spec,
    sig: &Signature,
    compiler: &harness::Compiler,
    limit: Duration,
) -> Result<AppTiming, TimingError> {
    let dir = tempfile::tempdir().map_err(|e| TimingError::Io("temporary directory".into(), e))?;
    let files = instrument(spec, sig, dir.path())?;
    let exe = dir.path().join("app");
    compiler.build(&files, &exe, &[]).map_err(|e| {
        TimingError::Other(format!(
            "the instrumented application does not compile:\n{e}"
        ))
    })?;
    let out = harness::run_limited(Command::new(&exe).current_dir(dir.path()), limit, None)?;
    if !out.success() {
        return Err(TimingError::Other(format!(
            "the instrumented application ended with {}:\n{}",
            out.status, out.stderr
        )));
    }
    let rec = dir.path().join(RECORD_FILE);
    let text = std::fs::read_to_string(&rec).map_err(|_| {
        TimingError::Other(format!(
            "the application never called {} (no call records)",
            sig.name
        ))
    })?;
    let size_names: Vec<String> = sig
        .formals
        .iter()
        .filter(|f| matches!(spec.args[*f], ArgSpec::Size(_)))
        .cloned()
        .collect();
    let mut calls = vec![];
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() != 2 + size_names.len() {
            continue;
        }
        let (Ok(index), Ok(wall_s)) = (w[0].parse::<u64>(), w[1].parse::<f64>()) else {
            continue;
        };
        let sizes = size_names
            .iter()
            .zip(&w[2..])
            .filter_map(|(n, v)| v.parse().ok().map(|v| (n.clone(), v)))
            .collect();
        calls.push(Call {
            index,
            wall_s,
            sizes,
        });
    }
    if calls.is_empty() {
        return Err(TimingError::Other(
            "the call records are empty or damaged".into(),
        ));
    }
    let groups = group(&calls);
    Ok(AppTiming {
        calls,
        groups,
        run_wall_s: out.wall.as_secs_f64(),
    })
}

fn group(calls: &[Call]) -> Vec<CallGroup> {
    let mut by: BTreeMap<Vec<(String, i64)>, Vec<f64>> = BTreeMap::new();
    let mut order = vec![];
    for c in calls {
        let k: Vec<(String, i64)> = c.sizes.iter().map(|(a, b)| (a.clone(), *b)).collect();
        if !by.contains_key(&k) {
            order.push(k.clone());
        }
        by.entry(k).or_default().push(c.wall_s);
    }
    order
        .into_iter()
        .map(|k| {
            let v = &by[&k];
            let later = if v.len() > 1 { &v[1..] } else { &v[..] };
            let mut s = later.to_vec();
            s.sort_by(f64::total_cmp);
            let med = if s.len() % 2 == 1 {
                s[s.len() / 2]
            } else {
                (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0
            };
            CallGroup {
                sizes: k.into_iter().collect(),
                calls: v.len() as u64,
                first_s: v[0],
                later_median_s: med,
                later_min_s: s[0],
                later_spread: (s[s.len() - 1] - s[0]) / med,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_whole_identifiers_only() {
        let l = "      DDOT = DDOTX + DDOT(1) + 'DDOT'";
        assert_eq!(
            rename_in_line(l, "DDOT", "ZDOT"),
            "      ZDOT = DDOTX + ZDOT(1) + 'DDOT'"
        );
        let used: HashSet<String> = ["ZDOT".to_string()].into();
        assert_eq!(fresh_name("DDOT", &used).unwrap(), "QDOT");
    }
}

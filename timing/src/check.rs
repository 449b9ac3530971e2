//! Checks of a spec against the routine's real signature (found by the analyzer, not by another
//! parser) and against the sizes it asks for, all before anything is compiled.

use crate::spec::{ArgSpec, ElemType, Spec, SpecError};
use analyzer::symbols::UnitKind;
use analyzer::syntax::{Implicit, Stmt, TypeName};
use std::collections::{BTreeMap, HashMap};

/// Largest working set a driver may allocate (the machine is shared).
pub const MAX_WORKING_SET_BYTES: u64 = 4 << 30;

/// What the source says about the routine.
#[derive(Debug, Clone)]
pub struct Signature {
    pub name: String,
    pub is_function: bool,
    /// Type of a function's result (declared or implicit).
    pub result: Option<ElemType>,
    pub formals: Vec<String>,
    /// Declared (or implicit) type of each formal, when it is one the driver can make.
    pub types: HashMap<String, ElemType>,
    /// Formals declared with dimensions.
    pub arrays: Vec<String>,
    /// Source file and 1-based line of the routine's first statement.
    pub line: u32,
}

fn elem(t: TypeName) -> Option<ElemType> {
    match t {
        TypeName::Integer => Some(ElemType::Integer),
        TypeName::Real => Some(ElemType::Real),
        TypeName::Double => Some(ElemType::Double),
        _ => None,
    }
}

fn implicit(name: &str) -> ElemType {
    match name.as_bytes()[0] {
        b'I'..=b'N' => ElemType::Integer,
        _ => ElemType::Real,
    }
}

/// Find `routine` in `program` (a loaded analyzer program) and read its signature.
pub fn find_signature(program: &analyzer::Program, routine: &str) -> Option<Signature> {
    let unit = program.units.iter().find(|u| {
        u.name.eq_ignore_ascii_case(routine)
            && matches!(u.kind, UnitKind::Subroutine | UnitKind::Function)
    })?;
    let mut sig = Signature {
        name: unit.name.to_ascii_uppercase(),
        is_function: unit.kind == UnitKind::Function,
        result: None,
        formals: vec![],
        types: HashMap::new(),
        arrays: vec![],
        line: 0,
    };
    let mut declared_result = None;
    let mut has_implicit = false;
    for s in unit.first..unit.end {
        let Some(stmt) = &program.stmts[s].stmt else {
            continue;
        };
        match stmt {
            Stmt::Subroutine(_, args) => {
                sig.formals = args.clone();
                sig.line = program.statement(s).first_line() + 1;
            }
            Stmt::Function(t, _, args) => {
                sig.formals = args.clone();
                declared_result = t.and_then(elem);
                sig.line = program.statement(s).first_line() + 1;
            }
            Stmt::TypeDecl(t, ents) => {
                for e in ents {
                    if let Some(et) = elem(*t) {
                        sig.types.insert(e.name.clone(), et);
                    }
                    if e.dims.is_some() {
                        sig.arrays.push(e.name.clone());
                    }
                    if e.name == sig.name {
                        declared_result = elem(*t);
                    }
                }
            }
            Stmt::Dimension(ents) => sig.arrays.extend(ents.iter().map(|e| e.name.clone())),
            Stmt::Implicit(i) => has_implicit = !matches!(i, Implicit::Ranges(r) if r.is_empty()),
            _ => {}
        }
    }
    if !has_implicit {
        for f in &sig.formals {
            sig.types.entry(f.clone()).or_insert_with(|| implicit(f));
        }
    }
    if sig.is_function {
        sig.result = declared_result.or_else(|| (!has_implicit).then(|| implicit(&sig.name)));
    }
    Some(sig)
}

/// Load the spec's source with the analyzer and check the spec against the routine: it exists,
/// the argument count and names agree, arrays are arrays and scalars scalars, types agree.
pub fn check_routine(spec: &Spec) -> Result<Signature, SpecError> {
    let p = spec.path.display().to_string();
    let line = spec.lines.get("routine").copied().unwrap_or(0);
    let at = |message: String| SpecError::Syntax {
        path: p.clone(),
        line,
        message,
    };
    let program = analyzer::load(
        std::slice::from_ref(&spec.file),
        &analyzer::AnalyzeOptions::default(),
    )
    .map_err(|e| at(format!("cannot read the routine's source: {e}")))?;
    let Some(sig) = find_signature(&program, &spec.routine) else {
        let mut names: Vec<String> = program
            .units
            .iter()
            .filter(|u| matches!(u.kind, UnitKind::Subroutine | UnitKind::Function))
            .map(|u| u.name.clone())
            .collect();
        names.sort();
        return Err(at(format!(
            "unknown routine {}: {} defines {}",
            spec.routine,
            spec.file.display(),
            if names.is_empty() {
                "no subroutine or function".to_string()
            } else {
                names.join(", ")
            }
        )));
    };
    let src = format!("{}:{}", spec.file.display(), sig.line);
    if sig.formals.len() != spec.formals.len() {
        return Err(at(format!(
            "{} takes {} arguments ({}) at {src}, the spec gives {}",
            sig.name,
            sig.formals.len(),
            sig.formals.join(", "),
            spec.formals.len()
        )));
    }
    for (i, (real, given)) in sig.formals.iter().zip(&spec.formals).enumerate() {
        if real != given {
            return Err(at(format!(
                "argument {} of {} is {real} at {src}, the spec says {given}",
                i + 1,
                sig.name
            )));
        }
    }
    for f in &spec.formals {
        let ln = spec.lines.get(f).copied().unwrap_or(line);
        let at = |message: String| SpecError::Syntax {
            path: p.clone(),
            line: ln,
            message,
        };
        let is_array = sig.arrays.contains(f);
        match &spec.args[f] {
            ArgSpec::Array(a) => {
                if !is_array {
                    return Err(at(format!(
                        "{f} is a scalar in {} ({src}), not an array",
                        sig.name
                    )));
                }
                if let Some(t) = sig.types.get(f) {
                    if *t != a.ty {
                        return Err(at(format!(
                            "{f} is {} in {} ({src}), the spec says {}",
                            t.fortran(),
                            sig.name,
                            a.ty.fortran()
                        )));
                    }
                }
            }
            ArgSpec::Size(_) | ArgSpec::Scalar(_) => {
                if is_array {
                    return Err(at(format!(
                        "{f} is an array in {} ({src}); describe it with `array`",
                        sig.name
                    )));
                }
                if matches!(spec.args[f], ArgSpec::Size(_))
                    && sig.types.get(f).is_some_and(|t| *t != ElemType::Integer)
                {
                    return Err(at(format!(
                        "size {f} must be an INTEGER argument of {}",
                        sig.name
                    )));
                }
                if !sig.types.contains_key(f) {
                    return Err(at(format!("cannot tell the type of {f} in {} (declare it INTEGER, REAL or DOUBLE PRECISION)", sig.name)));
                }
            }
        }
    }
    if sig.is_function && sig.result.is_none() {
        return Err(at(format!(
            "the result type of function {} is not INTEGER, REAL or DOUBLE PRECISION",
            sig.name
        )));
    }
    Ok(sig)
}

/// The evaluated shape of one point: every array's element count and every scalar's value.
#[derive(Debug, Clone)]
pub struct Shape {
    pub sizes: BTreeMap<String, i64>,
    /// Elements of each array (formal order), with its dimensions.
    pub arrays: Vec<(String, Vec<i64>, u64)>,
    pub scalars: BTreeMap<String, f64>,
    pub flop: Option<f64>,
    /// Bytes of one working set (all arrays).
    pub working_set: u64,
}

/// Evaluate and check one point: positive dimensions, a working set that fits.
pub fn shape(spec: &Spec, sizes: &BTreeMap<String, i64>) -> Result<Shape, SpecError> {
    let p = spec.path.display().to_string();
    let point = sizes
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut arrays = vec![];
    let mut scalars = BTreeMap::new();
    // Dimensions and the flop formula see the sizes and the whole-valued scalars.
    let mut env = sizes.clone();
    for f in &spec.formals {
        if let ArgSpec::Scalar(s) = &spec.args[f] {
            if let Ok(v) = s.value.eval_int(sizes) {
                env.insert(f.clone(), v);
            }
        }
    }
    let mut working_set = 0u64;
    for f in &spec.formals {
        let ln = spec.lines.get(f).copied().unwrap_or(0);
        let at = |m: String| SpecError::Syntax {
            path: p.clone(),
            line: ln,
            message: format!("at {point}: {m}"),
        };
        match &spec.args[f] {
            ArgSpec::Size(n) => {
                scalars.insert(f.clone(), sizes[n] as f64);
            }
            ArgSpec::Scalar(s) => {
                scalars.insert(f.clone(), s.value.eval(sizes).map_err(at)?);
            }
            ArgSpec::Array(a) => {
                let mut dims = vec![];
                let mut n: u64 = 1;
                for d in &a.dims {
                    let v = d.eval_int(&env).map_err(|m| at(format!("{f}: {m}")))?;
                    if v < 1 {
                        return Err(at(format!(
                            "impossible size: dimension {v} of {f} is not positive"
                        )));
                    }
                    dims.push(v);
                    n = n.saturating_mul(v as u64);
                }
                let bytes = n.saturating_mul(a.ty.bytes());
                working_set = working_set.saturating_add(bytes);
                arrays.push((f.clone(), dims, n));
            }
        }
    }
    if working_set > MAX_WORKING_SET_BYTES {
        return Err(SpecError::Invalid {
            path: p,
            message: format!(
                "impossible size at {point}: the operands take {} MiB, more than the {} MiB a driver may use",
                working_set >> 20,
                MAX_WORKING_SET_BYTES >> 20
            ),
        });
    }
    let flop = match &spec.flop {
        Some(e) => Some(e.eval(&env).map_err(|m| SpecError::Invalid {
            path: p.clone(),
            message: format!("flop at {point}: {m}"),
        })?),
        None => None,
    };
    Ok(Shape {
        sizes: sizes.clone(),
        arrays,
        scalars,
        flop,
        working_set,
    })
}

//! The routine specification (after Magee, Yi & Whaley fig. 4): which routine, how each argument is
//! made, the sizes to time and the flop formula. One directive per line, `#` starts a comment:
//!
//! ```text
//! file    ddot.f                 # the routine's source, relative to the spec
//! routine DDOT(N, X, Y)          # name and formal arguments, in the source's order
//! size    N = 2000               # a value, a list `100, 1000`, or a range `64..65536 x2`
//! scalar  INCX = 1               # an expression of the sizes; type from the routine
//! scalar  ALPHA = 0.5 alternate  # RangeGuard: the sign flips from call to call
//! array   X double(N) random flush align 32
//! array   IPVT integer(N) zero   # init: random | zero | value V; options: flush,
//!                                #   align B (B-byte aligned), misalign B (never B-aligned)
//! flop    2*N                    # floating-point operations of one call, for MFLOPS
//! program dotapp.f               # the whole application, for in-application timing
//! ```
//!
//! Every formal argument must be described by a `size`, `scalar` or `array` line; a size is
//! passed as an INTEGER. Expressions (`+ - * / **`, parentheses) of the sizes give scalars;
//! array dimensions and the flop formula may also use scalars (`scalar LDA = N + 1` then
//! `array A real(LDA, N)`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A problem in a spec, with its place.
#[derive(Debug, Error)]
pub enum SpecError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Syntax {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

/// Element type of an array operand or a scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElemType {
    Integer,
    Real,
    Double,
}

impl ElemType {
    pub fn bytes(self) -> u64 {
        match self {
            ElemType::Integer | ElemType::Real => 4,
            ElemType::Double => 8,
        }
    }
    /// The Fortran 77 type name.
    pub fn fortran(self) -> &'static str {
        match self {
            ElemType::Integer => "INTEGER",
            ElemType::Real => "REAL",
            ElemType::Double => "DOUBLE PRECISION",
        }
    }
    fn parse(s: &str) -> Option<ElemType> {
        match s.to_ascii_lowercase().as_str() {
            "integer" => Some(ElemType::Integer),
            "real" => Some(ElemType::Real),
            "double" | "doubleprecision" => Some(ElemType::Double),
            _ => None,
        }
    }
}

/// How an array is filled before timing.
#[derive(Debug, Clone, PartialEq)]
pub enum Init {
    /// Pseudo-random values in [-0.5, 0.5) (integers: 0..99).
    Random,
    Zero,
    Value(f64),
}

/// Address placement of an operand (Whaley & Castaldo section 5.5, MemAlign).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alignment {
    /// Whatever the compiler gives (element-aligned).
    Natural,
    /// Aligned to this many bytes.
    Aligned(u64),
    /// Element-aligned but deliberately not aligned to this many bytes.
    Misaligned(u64),
}

/// An array argument.
#[derive(Debug, Clone)]
pub struct ArraySpec {
    pub name: String,
    pub ty: ElemType,
    pub dims: Vec<Expr>,
    pub init: Init,
    pub flush: bool,
    pub align: Alignment,
}

/// A scalar argument (a size is a scalar whose value is the size).
#[derive(Debug, Clone)]
pub struct ScalarSpec {
    pub name: String,
    pub value: Expr,
    /// RangeGuard (Whaley & Castaldo section 5.2): negate between calls.
    pub alternate: bool,
}

/// How one formal argument is made.
#[derive(Debug, Clone)]
pub enum ArgSpec {
    Size(String),
    Scalar(ScalarSpec),
    Array(ArraySpec),
}

/// A parsed specification (not yet checked against the source).
#[derive(Debug, Clone)]
pub struct Spec {
    pub path: PathBuf,
    /// The routine's source file, resolved against the spec's directory.
    pub file: PathBuf,
    pub routine: String,
    pub formals: Vec<String>,
    /// Size name -> values to time, in the order given.
    pub sizes: BTreeMap<String, Vec<i64>>,
    pub size_order: Vec<String>,
    pub args: BTreeMap<String, ArgSpec>,
    pub flop: Option<Expr>,
    /// Source files of the whole application (in-application timing).
    pub program: Vec<PathBuf>,
    /// Line of each directive, for messages.
    pub lines: BTreeMap<String, usize>,
}

/// An arithmetic expression over sizes.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Name(String),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Evaluate with the given sizes; `None` names an unknown variable.
    pub fn eval(&self, env: &BTreeMap<String, i64>) -> Result<f64, String> {
        Ok(match self {
            Expr::Num(v) => *v,
            Expr::Name(n) => *env
                .get(n)
                .ok_or_else(|| format!("`{n}` is not a size of this spec"))?
                as f64,
            Expr::Neg(e) => -e.eval(env)?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(env)?, b.eval(env)?);
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    '/' => {
                        if b == 0.0 {
                            return Err("division by zero".into());
                        }
                        a / b
                    }
                    _ => a.powf(b),
                }
            }
        })
    }
    /// Integer value (Fortran truncating division applies within integer operands only when
    /// both sides are whole; dimensions and scalars must come out whole).
    pub fn eval_int(&self, env: &BTreeMap<String, i64>) -> Result<i64, String> {
        let v = self.eval(env)?;
        if v.fract() != 0.0 || !v.is_finite() {
            return Err(format!("value {v} is not a whole number"));
        }
        Ok(v as i64)
    }
    fn names(&self, out: &mut Vec<String>) {
        match self {
            Expr::Name(n) => out.push(n.clone()),
            Expr::Neg(e) => e.names(out),
            Expr::Bin(_, a, b) => {
                a.names(out);
                b.names(out)
            }
            Expr::Num(_) => {}
        }
    }
}

/// Recursive-descent parser of `Expr`: sum := term (+|- term)*; term := power (*|/ power)*;
/// power := unary (** power)?; unary := -unary | atom.
struct ExprParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl ExprParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn sum(&mut self) -> Result<Expr, String> {
        let mut e = self.term()?;
        while let Some(c @ (b'+' | b'-')) = self.peek() {
            self.i += 1;
            e = Expr::Bin(c as char, Box::new(e), Box::new(self.term()?));
        }
        Ok(e)
    }
    fn term(&mut self) -> Result<Expr, String> {
        let mut e = self.power()?;
        loop {
            match self.peek() {
                Some(b'*') if self.s.get(self.i + 1) != Some(&b'*') => {
                    self.i += 1;
                    e = Expr::Bin('*', Box::new(e), Box::new(self.power()?));
                }
                Some(b'/') => {
                    self.i += 1;
                    e = Expr::Bin('/', Box::new(e), Box::new(self.power()?));
                }
                _ => return Ok(e),
            }
        }
    }
    fn power(&mut self) -> Result<Expr, String> {
        let base = self.unary()?;
        if self.peek() == Some(b'*') && self.s.get(self.i + 1) == Some(&b'*') {
            self.i += 2;
            return Ok(Expr::Bin('^', Box::new(base), Box::new(self.power()?)));
        }
        Ok(base)
    }
    fn unary(&mut self) -> Result<Expr, String> {
        match self.peek() {
            Some(b'-') => {
                self.i += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some(b'+') => {
                self.i += 1;
                self.unary()
            }
            Some(b'(') => {
                self.i += 1;
                let e = self.sum()?;
                if self.peek() != Some(b')') {
                    return Err("missing `)`".into());
                }
                self.i += 1;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.i;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_digit()
                        || self.s[self.i] == b'.'
                        || (matches!(self.s[self.i], b'e' | b'E')
                            && self.s.get(self.i + 1).is_some_and(|d| d.is_ascii_digit())))
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                t.parse()
                    .map(Expr::Num)
                    .map_err(|_| format!("`{t}` is not a number"))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let start = self.i;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                Ok(Expr::Name(t.to_ascii_uppercase()))
            }
            Some(c) => Err(format!("unexpected `{}`", c as char)),
            None => Err("expression ends too early".into()),
        }
    }
}

/// Parse an expression of sizes.
pub fn parse_expr(text: &str) -> Result<Expr, String> {
    let mut p = ExprParser {
        s: text.as_bytes(),
        i: 0,
    };
    let e = p.sum()?;
    if p.peek().is_some() {
        return Err(format!("unexpected text `{}`", &text[p.i..]));
    }
    Ok(e)
}

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic())
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Parse the values of a size: `100`, `100, 200`, `64..4096 x2` (geometric) or
/// `100..1000 +100` (arithmetic).
fn parse_size_values(t: &str) -> Result<Vec<i64>, String> {
    let num = |s: &str| -> Result<i64, String> {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("`{}` is not an integer", s.trim()))
    };
    let out: Vec<i64> = if let Some((lo, rest)) = t.split_once("..") {
        let mut parts = rest.split_whitespace();
        let hi = num(parts.next().unwrap_or(""))?;
        let lo = num(lo)?;
        let step = parts.next().unwrap_or("x2");
        if parts.next().is_some() {
            return Err("a range is `LO..HI xF` or `LO..HI +D`".into());
        }
        if lo < 1 || hi < lo {
            return Err(format!("range {lo}..{hi} is empty or not positive"));
        }
        let mut v = Vec::new();
        if let Some(f) = step.strip_prefix('x') {
            let f: f64 = f
                .parse()
                .map_err(|_| format!("`{step}`: the factor must be a number above 1"))?;
            if f <= 1.0 {
                return Err(format!("`{step}`: the factor must be above 1"));
            }
            let mut x = lo as f64;
            while x <= hi as f64 * (1.0 + 1e-9) {
                let r = x.round() as i64;
                if v.last() != Some(&r) {
                    v.push(r);
                }
                x *= f;
            }
        } else if let Some(d) = step.strip_prefix('+') {
            let d = num(d)?;
            if d < 1 {
                return Err("the step of a range must be positive".into());
            }
            let mut x = lo;
            while x <= hi {
                v.push(x);
                x += d;
            }
        } else {
            return Err(format!("`{step}`: a range step is `xF` or `+D`"));
        }
        v
    } else {
        t.split(',').map(num).collect::<Result<_, _>>()?
    };
    if out.is_empty() {
        return Err("no values".into());
    }
    if let Some(bad) = out.iter().find(|v| **v < 0) {
        return Err(format!("size {bad} is negative"));
    }
    if out.len() > 200 {
        return Err(format!("{} values; at most 200 points", out.len()));
    }
    Ok(out)
}

impl Spec {
    /// Read and parse a spec file.
    pub fn load(path: &Path) -> Result<Spec, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Spec::parse(path, &text)
    }

    /// Parse spec text; `path` names it in messages and anchors relative file names.
    pub fn parse(path: &Path, text: &str) -> Result<Spec, SpecError> {
        let p = path.display().to_string();
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut d = Directives::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            d.read(line, i + 1, dir)
                .map_err(|message| SpecError::Syntax {
                    path: p.clone(),
                    line: i + 1,
                    message,
                })?;
        }
        d.check(path)
    }

    /// Every combination of size values (the cartesian product, first size slowest).
    pub fn points(&self) -> Vec<BTreeMap<String, i64>> {
        let mut out = vec![BTreeMap::new()];
        for name in &self.size_order {
            let mut next = Vec::new();
            for p in &out {
                for v in &self.sizes[name] {
                    let mut q = p.clone();
                    q.insert(name.clone(), *v);
                    next.push(q);
                }
            }
            out = next;
        }
        out
    }

    /// The array arguments, in formal order.
    pub fn arrays(&self) -> Vec<&ArraySpec> {
        self.formals
            .iter()
            .filter_map(|f| match &self.args[f] {
                ArgSpec::Array(a) => Some(a),
                _ => None,
            })
            .collect()
    }
}

/// The directives of a spec as they are read, before the checks that need all of them.
#[derive(Default)]
struct Directives {
    file: Option<PathBuf>,
    routine: Option<(String, Vec<String>)>,
    sizes: BTreeMap<String, Vec<i64>>,
    size_order: Vec<String>,
    args: BTreeMap<String, ArgSpec>,
    flop: Option<Expr>,
    program: Vec<PathBuf>,
    lines: BTreeMap<String, usize>,
}

impl Directives {
    /// Read one directive line (comment stripped, not empty), line `ln` of the spec in `dir`.
    fn read(&mut self, line: &str, ln: usize, dir: &Path) -> Result<(), String> {
        let (key, rest) = line
            .split_once(char::is_whitespace)
            .map(|(k, r)| (k, r.trim()))
            .unwrap_or((line, ""));
        let key = key.to_ascii_lowercase();
        if rest.is_empty() {
            return Err(format!("`{key}` needs a value"));
        }
        match key.as_str() {
            "file" => self.file = Some(dir.join(rest)),
            "program" => self
                .program
                .extend(rest.split_whitespace().map(|f| dir.join(f))),
            "routine" => {
                self.routine = Some(parse_routine(rest)?);
                self.lines.insert("routine".into(), ln);
            }
            "size" | "scalar" => self.size_or_scalar(&key, rest, ln)?,
            "array" => {
                let a = parse_array(rest)?;
                if self.args.contains_key(&a.name) {
                    return Err(format!("`{}` is described twice", a.name));
                }
                self.lines.insert(a.name.clone(), ln);
                self.args.insert(a.name.clone(), ArgSpec::Array(a));
            }
            "flop" => {
                self.lines.insert("flop".into(), ln);
                self.flop = Some(parse_expr(rest).map_err(|m| format!("flop: {m}"))?)
            }
            _ => {
                return Err(format!("unknown directive `{key}` (expected file, routine, size, scalar, array, flop or program)"))
            }
        }
        Ok(())
    }

    /// `size NAME = VALUES` or `scalar NAME = EXPR [alternate]`.
    fn size_or_scalar(&mut self, key: &str, rest: &str, ln: usize) -> Result<(), String> {
        let (name, value) = rest
            .split_once('=')
            .ok_or_else(|| format!("expected `{key} NAME = VALUE`"))?;
        let name = name.trim().to_ascii_uppercase();
        if !is_name(&name) {
            return Err(format!("`{name}` is not a name"));
        }
        if self.args.contains_key(&name) {
            return Err(format!("`{name}` is described twice"));
        }
        self.lines.insert(name.clone(), ln);
        if key == "size" {
            let v = parse_size_values(value.trim()).map_err(|m| format!("size {name}: {m}"))?;
            self.sizes.insert(name.clone(), v);
            self.size_order.push(name.clone());
            self.args.insert(name.clone(), ArgSpec::Size(name));
        } else {
            let mut words: Vec<&str> = value.split_whitespace().collect();
            let alternate = words.last() == Some(&"alternate");
            if alternate {
                words.pop();
            }
            let value = parse_expr(&words.join(" ")).map_err(|m| format!("scalar {name}: {m}"))?;
            self.args.insert(
                name.clone(),
                ArgSpec::Scalar(ScalarSpec {
                    name,
                    value,
                    alternate,
                }),
            );
        }
        Ok(())
    }

    /// The spec, once every argument is described, every described name is an argument or a
    /// size, and every expression uses only sizes (and, where allowed, scalars).
    fn check(self, path: &Path) -> Result<Spec, SpecError> {
        let p = path.display().to_string();
        let err = |line: usize, message: String| SpecError::Syntax {
            path: p.clone(),
            line,
            message,
        };
        let invalid = |message: String| SpecError::Invalid {
            path: p.clone(),
            message,
        };
        let file = self
            .file
            .clone()
            .ok_or_else(|| invalid("no `file` line (the routine's source)".into()))?;
        let (routine, formals) = self
            .routine
            .clone()
            .ok_or_else(|| invalid("no `routine NAME(ARGS)` line".into()))?;
        for f in &formals {
            if !self.args.contains_key(f) {
                return Err(invalid(format!(
                    "argument {f} of {routine} is not described (add a `size`, `scalar` or `array` line)"
                )));
            }
        }
        for (name, ln) in &self.lines {
            if name != "routine"
                && name != "flop"
                && !formals.contains(name)
                && !self.sizes.contains_key(name)
            {
                return Err(err(
                    *ln,
                    format!(
                        "`{name}` is not an argument of {routine}({})",
                        formals.join(", ")
                    ),
                ));
            }
        }
        if let Some((bad, ln)) = self.name_not_a_size() {
            let msg = format!("`{bad}` is used in an expression but is not a size (declare it with `size {bad} = ...`)");
            return Err(match ln {
                Some(l) => err(l, msg),
                None => invalid(msg),
            });
        }
        Ok(Spec {
            path: path.to_path_buf(),
            file,
            routine,
            formals,
            sizes: self.sizes,
            size_order: self.size_order,
            args: self.args,
            flop: self.flop,
            program: self.program,
            lines: self.lines,
        })
    }

    /// The first name an expression uses that is not a size (nor a scalar, in array
    /// dimensions and the flop count), with the line of the expression's directive.
    fn name_not_a_size(&self) -> Option<(String, Option<usize>)> {
        let mut exprs: Vec<(&Expr, Option<usize>, bool)> = vec![];
        for (name, a) in &self.args {
            let ln = self.lines.get(name).copied();
            match a {
                ArgSpec::Array(a) => exprs.extend(a.dims.iter().map(|d| (d, ln, true))),
                ArgSpec::Scalar(s) => exprs.push((&s.value, ln, false)),
                ArgSpec::Size(_) => {}
            }
        }
        if let Some(f) = &self.flop {
            exprs.push((f, self.lines.get("flop").copied(), true));
        }
        let scalars: Vec<&String> = self
            .args
            .iter()
            .filter(|(_, a)| matches!(a, ArgSpec::Scalar(_)))
            .map(|(n, _)| n)
            .collect();
        for (e, ln, scalars_ok) in exprs {
            let mut used = Vec::new();
            e.names(&mut used);
            if let Some(bad) = used
                .iter()
                .find(|n| !(self.sizes.contains_key(*n) || (scalars_ok && scalars.contains(n))))
            {
                return Some((bad.clone(), ln));
            }
        }
        None
    }
}

/// `NAME(ARG, ...)` of a `routine` line: the routine's name and its formal arguments.
fn parse_routine(rest: &str) -> Result<(String, Vec<String>), String> {
    let (name, list) = rest
        .split_once('(')
        .ok_or("expected `routine NAME(ARG, ...)`")?;
    let list = list
        .trim()
        .strip_suffix(')')
        .ok_or("missing `)` after the arguments")?;
    let name = name.trim().to_ascii_uppercase();
    if !is_name(&name) {
        return Err(format!("`{name}` is not a routine name"));
    }
    let formals: Vec<String> = if list.trim().is_empty() {
        vec![]
    } else {
        list.split(',')
            .map(|a| a.trim().to_ascii_uppercase())
            .collect()
    };
    if let Some(bad) = formals.iter().find(|a| !is_name(a)) {
        return Err(format!("`{bad}` is not an argument name"));
    }
    Ok((name, formals))
}

fn parse_array(rest: &str) -> Result<ArraySpec, String> {
    // NAME TYPE(DIMS) INIT [OPTIONS]
    let (name, after) = rest
        .split_once(char::is_whitespace)
        .ok_or("expected `array NAME TYPE(DIMS) INIT [flush] [align B | misalign B]`")?;
    let name = name.trim().to_ascii_uppercase();
    if !is_name(&name) {
        return Err(format!("`{name}` is not a name"));
    }
    let after = after.trim();
    let open = after
        .find('(')
        .ok_or_else(|| format!("array {name}: expected TYPE(DIMS), e.g. double(N)"))?;
    let ty_text = after[..open].trim();
    let ty = ElemType::parse(ty_text).ok_or_else(|| {
        format!("array {name}: unknown type `{ty_text}` (integer, real or double)")
    })?;
    let close = matching_paren(after, open)
        .ok_or_else(|| format!("array {name}: missing `)` after the dimensions"))?;
    let dims = split_top(&after[open + 1..close])
        .iter()
        .map(|d| parse_expr(d).map_err(|m| format!("array {name}: dimension `{d}`: {m}")))
        .collect::<Result<Vec<_>, _>>()?;
    if dims.is_empty() || dims.len() > 7 {
        return Err(format!("array {name}: 1 to 7 dimensions"));
    }
    let words: Vec<&str> = after[close + 1..].split_whitespace().collect();
    let mut init = None;
    let mut flush = false;
    let mut align = Alignment::Natural;
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        let mut arg = || -> Result<&str, String> {
            i += 1;
            words
                .get(i)
                .copied()
                .ok_or_else(|| format!("array {name}: `{w}` needs a value"))
        };
        match w.as_str() {
            "random" => init = Some(Init::Random),
            "zero" => init = Some(Init::Zero),
            "value" => {
                let v = arg()?;
                init = Some(Init::Value(
                    v.parse()
                        .map_err(|_| format!("array {name}: `{v}` is not a number"))?,
                ))
            }
            "flush" => flush = true,
            "align" | "misalign" => {
                let v = arg()?;
                let b: u64 = v
                    .parse()
                    .map_err(|_| format!("array {name}: `{v}` is not a byte count"))?;
                if !b.is_power_of_two() || b < ty.bytes() || b > 4096 {
                    return Err(format!(
                        "array {name}: alignment {b} must be a power of two from {} to 4096 bytes",
                        ty.bytes()
                    ));
                }
                if w == "misalign" && b == ty.bytes() {
                    return Err(format!("array {name}: cannot misalign to the element size {b}"));
                }
                align = if w == "align" {
                    Alignment::Aligned(b)
                } else {
                    Alignment::Misaligned(b)
                };
            }
            other => return Err(format!("array {name}: unknown word `{other}` (random, zero, value V, flush, align B, misalign B)")),
        }
        i += 1;
    }
    Ok(ArraySpec {
        name,
        ty,
        dims,
        init: init.unwrap_or(Init::Random),
        flush,
        align,
    })
}

fn matching_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn split_top(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().expect("non-empty").push(c);
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(t: &str) -> Result<Spec, SpecError> {
        Spec::parse(Path::new("t.spec"), t)
    }

    const DOT: &str = "file ddot.f\nroutine DDOT(N, X, Y)\nsize N = 100, 200\n\
array X double(N) random flush align 32\narray Y double(N) random misalign 16\nflop 2*N\n";

    #[test]
    fn parses_the_dot_product() {
        let s = parse(DOT).unwrap();
        assert_eq!(s.formals, ["N", "X", "Y"]);
        assert_eq!(s.sizes["N"], [100, 200]);
        let a = s.arrays();
        assert!(a[0].flush && !a[1].flush);
        assert_eq!(a[0].align, Alignment::Aligned(32));
        assert_eq!(a[1].align, Alignment::Misaligned(16));
        assert_eq!(s.points().len(), 2);
        let env = &s.points()[1];
        assert_eq!(s.flop.unwrap().eval(env).unwrap(), 400.0);
    }

    #[test]
    fn expressions_and_ranges() {
        let env: BTreeMap<_, _> = [("N".to_string(), 10)].into();
        let e = parse_expr("2*N**3/3 + (N+1)*-2").unwrap();
        assert!((e.eval(&env).unwrap() - (2000.0 / 3.0 - 22.0)).abs() < 1e-9);
        assert_eq!(
            parse_size_values("64..1024 x2").unwrap(),
            [64, 128, 256, 512, 1024]
        );
        assert_eq!(parse_size_values("10..30 +10").unwrap(), [10, 20, 30]);
        assert!(parse_size_values("5..1").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("file a.f\nroutine DDOT(N, X)\nsize N = 10\narray X double(M) random\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.spec:4:") && e.contains("`M`"), "{e}");
        let e = parse("file a.f\nroutine DDOT(N, X)\nsize N = 10\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("argument X of DDOT is not described"), "{e}");
        let e = parse("file a.f\nroutine F(N)\nsize N = 1\nbogus 3\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.spec:4:") && e.contains("unknown directive"),
            "{e}"
        );
        let e = parse("file a.f\nroutine F(N)\nsize N = abc\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.spec:3:"), "{e}");
    }
}

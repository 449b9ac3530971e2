//! nom parsers for the squeezed text of one statement (see [`crate::source`]): expressions
//! with Fortran 77 precedence (ANSI X3.9-1978 section 6) and every statement form the
//! analyzer knows. Blanks are already gone, so `DO 10 I = 1, N` arrives as `DO10I=1,N` and
//! an assignment is recognized before keywords (`DO10I=1.5` assigns to `DO10I`).

use crate::syntax::*;
use nom::{
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::{char, digit1, satisfy},
    combinator::{all_consuming, map, opt, recognize, value},
    multi::{separated_list0, separated_list1},
    sequence::{delimited, pair, preceded, terminated, tuple},
    IResult,
};

type R<'a, T> = IResult<&'a str, T>;

/// Deepest nesting the parser follows: parentheses, function references, array elements,
/// substrings, signs, `.NOT.`, `**` and logical IFs each count one level. Deeper input is a
/// syntax error, not a stack overflow; no real program comes near it. (Unoptimized, one level
/// of nested references takes about 8 KiB of stack in the parser, and more in the walks after
/// it: 128 levels fit on a test thread's 2 MiB with room to spare; about 180 would not.)
pub const MAX_NESTING: usize = 128;

/// Deepest expression tree the parser builds (each operator, reference or parenthesis is a
/// level; `X+X+...+X` with N terms is N-1 deep, since Fortran adds left to right). Everything
/// after the parser walks trees recursively, so a deeper tree is refused here, before it is
/// built: the walks then fit on a 2 MiB thread stack (with unoptimized code).
pub const MAX_TREE_DEPTH: u32 = 500;

thread_local! {
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

type NomErr<'a> = nom::Err<nom::error::Error<&'a str>>;

/// The error of input nested or chained too deeply (see [`MAX_NESTING`], [`MAX_TREE_DEPTH`]).
fn too_deep(i: &str) -> NomErr<'_> {
    nom::Err::Failure(nom::error::Error::new(i, nom::error::ErrorKind::TooLarge))
}

/// Counts one level of recursion while alive.
struct DepthGuard;

impl DepthGuard {
    fn enter(i: &str) -> Result<DepthGuard, NomErr<'_>> {
        let d = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        let g = DepthGuard;
        if d > MAX_NESTING {
            return Err(too_deep(i));
        }
        Ok(g)
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// An expression with the depth of its tree (a leaf is 1 deep).
type Deep = (SExpr, u32);

/// `depth` if it is within [`MAX_TREE_DEPTH`], else the error at `i`.
fn within(i: &str, depth: u32) -> Result<u32, NomErr<'_>> {
    if depth > MAX_TREE_DEPTH {
        Err(too_deep(i))
    } else {
        Ok(depth)
    }
}

/// Why a statement could not be parsed: the byte offset in the squeezed text where the
/// parser stopped, and what it expected there.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub offset: usize,
    pub expected: String,
    /// The statement is nested deeper than [`MAX_NESTING`] or its expression tree is deeper
    /// than [`MAX_TREE_DEPTH`]: refused, whatever else it may hold.
    pub too_deep: bool,
}

impl Failure {
    /// What the diagnostic says about this failure.
    pub fn message(&self) -> String {
        if self.too_deep {
            format!(
                "this statement is nested or chained too deeply for the analyzer (more than \
                 {MAX_NESTING} levels of parentheses, references, signs or IFs, or an \
                 expression more than {MAX_TREE_DEPTH} operations deep, such as a sum of \
                 more than {MAX_TREE_DEPTH} terms); split it into several statements"
            )
        } else {
            format!("cannot parse this statement (expected {})", self.expected)
        }
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// A symbolic name (letters, digits, `_`, `$`; the first a letter).
pub fn name(i: &str) -> R<'_, String> {
    map(
        recognize(pair(
            satisfy(|c| c.is_ascii_alphabetic()),
            take_while(is_name_char),
        )),
        str::to_string,
    )(i)
}

pub fn label(i: &str) -> R<'_, u32> {
    let (r, d) = digit1(i)?;
    match d.parse::<u32>() {
        Ok(v) if d.len() <= 5 => Ok((r, v)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Digit,
        ))),
    }
}

const DOT_WORDS: &[&str] = &[
    "EQ", "NE", "LT", "LE", "GT", "GE", "AND", "OR", "NOT", "EQV", "NEQV", "TRUE", "FALSE",
];

/// `.WORD.` where WORD is one of the dotted operators or logical constants.
fn dot_word(i: &str) -> Option<(&str, &str)> {
    let rest = i.strip_prefix('.')?;
    let end = rest.find(|c: char| !c.is_ascii_alphabetic())?;
    let word = &rest[..end];
    if rest[end..].starts_with('.') && DOT_WORDS.contains(&word) {
        Some((word, &rest[end + 1..]))
    } else {
        None
    }
}

fn dot_op<'a>(w: &'static str) -> impl Fn(&'a str) -> R<'a, ()> {
    move |i: &'a str| match dot_word(i) {
        Some((word, rest)) if word == w => Ok((rest, ())),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        ))),
    }
}

fn exponent(i: &str) -> R<'_, (char, &str)> {
    pair(
        satisfy(|c| matches!(c, 'E' | 'D' | 'Q')),
        recognize(pair(opt(alt((char('+'), char('-')))), digit1)),
    )(i)
}

/// An unsigned integer or real literal. `1.EQ.2` is the integer 1 followed by `.EQ.`.
fn number(i: &str) -> R<'_, SExpr> {
    let start = i;
    let (mut r, int_part) = opt(digit1)(i)?;
    let mut is_real = false;
    if r.starts_with('.') && dot_word(r).is_none() {
        let (r2, frac) = take_while(|c: char| c.is_ascii_digit())(&r[1..])?;
        if int_part.is_none() && frac.is_empty() {
            return Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Digit,
            )));
        }
        r = r2;
        is_real = true;
    } else if int_part.is_none() {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Digit,
        )));
    }
    let mut double = false;
    if let Ok((r2, (e, _))) = exponent(r) {
        r = r2;
        is_real = true;
        double = e != 'E';
    }
    // Kind suffix (`1.0_8`, an extension) is accepted and ignored.
    if let Some(rest) = r.strip_prefix('_') {
        let (r2, _) = take_while1(is_name_char)(rest)?;
        r = r2;
    }
    let text = start[..start.len() - r.len()].to_string();
    if is_real {
        Ok((r, SExpr::Real { text, double }))
    } else {
        Ok((r, SExpr::Int(text)))
    }
}

/// A character constant in apostrophes or quotes (doubled to escape).
fn string(i: &str) -> R<'_, SExpr> {
    let q = match i.chars().next() {
        Some(c @ ('\'' | '"')) => c,
        _ => {
            return Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Char,
            )))
        }
    };
    let b = i.as_bytes();
    let mut k = 1;
    let mut s = String::new();
    while k < b.len() {
        if b[k] == q as u8 {
            if b.get(k + 1) == Some(&(q as u8)) {
                s.push(q);
                k += 2;
                continue;
            }
            return Ok((&i[k + 1..], SExpr::Str(s)));
        }
        let ch = i[k..].chars().next().unwrap_or('?');
        s.push(ch);
        k += ch.len_utf8();
    }
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Char,
    )))
}

/// A BOZ constant (`Z'FF'`, `O'17'`, `B'101'`, and `X'FF'` as DEC wrote it), an integer.
fn boz(i: &str) -> R<'_, SExpr> {
    let (r, text) = recognize(pair(
        satisfy(|c| matches!(c, 'B' | 'O' | 'Z' | 'X')),
        alt((
            delimited(
                char('\''),
                take_while1(|c: char| c.is_ascii_hexdigit()),
                char('\''),
            ),
            delimited(
                char('"'),
                take_while1(|c: char| c.is_ascii_hexdigit()),
                char('"'),
            ),
        )),
    ))(i)?;
    Ok((r, SExpr::Int(text.to_string())))
}

fn logical(i: &str) -> R<'_, SExpr> {
    alt((
        value(SExpr::Logical(true), dot_op("TRUE")),
        value(SExpr::Logical(false), dot_op("FALSE")),
    ))(i)
}

/// One argument inside `name( ... )`: the expression is parsed once, whatever the form.
fn arg_d(i: &str) -> R<'_, (Arg, u32)> {
    match arg_start(i) {
        Some((r, Ok(l))) => Ok((r, (Arg::AltReturn(l), 1))),
        Some((r, Err(n))) => keyword_arg(r, n),
        None => value_arg(i),
    }
}

#[inline(never)]
fn keyword_arg(r: &str, n: String) -> R<'_, (Arg, u32)> {
    let (r, (e, d)) = expr_d(r)?;
    Ok((r, (Arg::Keyword(n, e), d)))
}

/// An argument that is an expression or a range `lo:hi`.
#[inline(never)]
fn value_arg(i: &str) -> R<'_, (Arg, u32)> {
    let (r, lo) = optional(expr_d(i), i)?;
    if let Some(r) = r.strip_prefix(':') {
        let (r, hi) = optional(expr_d(r), r)?;
        let d = depth_of(&lo).max(depth_of(&hi));
        return Ok((r, (Arg::Range(lo.map(|x| x.0), hi.map(|x| x.0)), d)));
    }
    match lo {
        Some((e, d)) => Ok((r, (Arg::Expr(e), d))),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Alt,
        ))),
    }
}

/// The start of an argument: an alternate return `*label` (whole), or `NAME=` of a keyword
/// argument (its name). Kept out of [`arg_d`] so that each level of nesting takes less stack.
#[inline(never)]
fn arg_start(i: &str) -> Option<(&str, Result<u32, String>)> {
    if let Ok((r, l)) = preceded(alt((char('*'), char('&'))), label)(i) {
        return Some((r, Ok(l)));
    }
    let keyword = terminated(name, terminated(char('='), nom::combinator::not(char('='))));
    map(keyword, Err)(i).ok()
}

fn depth_of(e: &Option<Deep>) -> u32 {
    e.as_ref().map_or(0, |x| x.1)
}

/// One argument inside `name( ... )`.
pub fn arg(i: &str) -> R<'_, Arg> {
    map(arg_d, |a| a.0)(i)
}

/// `p`'s result as an option: `None` (at `i`) where `p` failed without committing. The
/// recursive parts of the expression parser use it, and plain code rather than nom's
/// combinators, so that each level of nesting takes less stack.
fn optional<'a, T>(res: R<'a, T>, i: &'a str) -> R<'a, Option<T>> {
    match res {
        Ok((r, v)) => Ok((r, Some(v))),
        Err(nom::Err::Error(_)) => Ok((i, None)),
        Err(e) => Err(e),
    }
}

fn expected(i: &str) -> NomErr<'_> {
    nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Char))
}

/// `( args )` with the depth of the deepest argument.
fn arg_list_d(i: &str) -> R<'_, (Vec<Arg>, u32)> {
    let mut r = i.strip_prefix('(').ok_or_else(|| expected(i))?;
    let _depth = DepthGuard::enter(i)?;
    let mut args = Vec::new();
    let mut d = 0;
    if let Some(r2) = r.strip_prefix(')') {
        return Ok((r2, (args, d)));
    }
    loop {
        let (r2, (a, da)) = arg_d(r)?;
        args.push(a);
        d = d.max(da);
        if let Some(r3) = r2.strip_prefix(',') {
            r = r3;
        } else {
            let r3 = r2.strip_prefix(')').ok_or_else(|| expected(r2))?;
            return Ok((r3, (args, d)));
        }
    }
}

pub fn arg_list(i: &str) -> R<'_, Vec<Arg>> {
    map(arg_list_d, |a| a.0)(i)
}

type Range = (Option<Deep>, Option<Deep>);

fn substring_range(i: &str) -> R<'_, Range> {
    let _depth = DepthGuard::enter(i)?;
    delimited(
        char('('),
        map(tuple((opt(expr_d), char(':'), opt(expr_d))), |(a, _, b)| {
            (a, b)
        }),
        char(')'),
    )(i)
}

fn designator_d(i: &str) -> R<'_, Deep> {
    let (r, n) = name(i)?;
    let (r, args) = optional(arg_list_d(r), r)?;
    let Some((args, d)) = args else {
        return Ok((r, (SExpr::Name(n), 1)));
    };
    let d = within(i, d + 1)?;
    substring_of(i, r, (SExpr::Apply(n, args), d))
}

/// `base(lo:hi)` if a substring range follows at `r`, else `base`.
#[inline(never)]
fn substring_of<'a>(i: &'a str, r: &'a str, (base, d): Deep) -> R<'a, Deep> {
    let (r, sub) = opt(substring_range)(r)?;
    let Some((lo, hi)) = sub else {
        return Ok((r, (base, d)));
    };
    let d = within(i, d.max(depth_of(&lo)).max(depth_of(&hi)) + 1)?;
    let boxed = |x: Option<Deep>| x.map(|x| Box::new(x.0));
    Ok((
        r,
        (SExpr::Substring(Box::new(base), boxed(lo), boxed(hi)), d),
    ))
}

/// `name`, `name(args)`, `name(args)(lo:hi)`: the targets of assignments and the
/// references in expressions.
pub fn designator(i: &str) -> R<'_, SExpr> {
    map(designator_d, |x| x.0)(i)
}

fn paren_or_complex(i: &str) -> R<'_, Deep> {
    let r = i.strip_prefix('(').ok_or_else(|| expected(i))?;
    let _depth = DepthGuard::enter(i)?;
    let (r, (a, da)) = expr_d(r)?;
    if let Some(r) = r.strip_prefix(',') {
        if let Ok((r2, (b, db))) = expr_d(r) {
            if let Some(r3) = r2.strip_prefix(')') {
                let d = within(i, da.max(db) + 1)?;
                return Ok((r3, (SExpr::Complex(Box::new(a), Box::new(b)), d)));
            }
        }
    }
    let r = r.strip_prefix(')').ok_or_else(|| expected(r))?;
    Ok((r, (SExpr::Paren(Box::new(a)), within(i, da + 1)?)))
}

fn primary(i: &str) -> R<'_, Deep> {
    // Constants never fail for good (nom::Err::Failure): trying them first is safe.
    if let Ok((r, e)) = alt((number, string, logical, boz))(i) {
        return Ok((r, (e, 1)));
    }
    if i.starts_with('(') {
        paren_or_complex(i)
    } else {
        designator_d(i)
    }
}

fn sign(i: &str) -> R<'_, UOp> {
    alt((value(UOp::Neg, char('-')), value(UOp::Plus, char('+'))))(i)
}

/// `l op r` as a tree one deeper than the deeper operand.
fn binary(i: &str, op: BOp, (l, dl): Deep, (r, dr): Deep) -> Result<Deep, NomErr<'_>> {
    let d = within(i, dl.max(dr) + 1)?;
    Ok((SExpr::Binary(op, Box::new(l), Box::new(r)), d))
}

/// `op x` as a tree one deeper than `x`.
fn unary(i: &str, op: UOp, (x, d): Deep) -> Result<Deep, NomErr<'_>> {
    Ok((SExpr::Unary(op, Box::new(x)), within(i, d + 1)?))
}

fn expr_d(i: &str) -> R<'_, Deep> {
    climb(i, P_EQV)
}

// Precedence levels, loosest first (ANSI X3.9-1978 section 6): each binary operator's, and
// `.NOT.`'s, a prefix.
const P_EQV: u8 = 1;
const P_OR: u8 = 2;
const P_AND: u8 = 3;
const P_NOT: u8 = 4;
const P_REL: u8 = 5;
const P_CONCAT: u8 = 6;
const P_ADD: u8 = 7;
const P_MUL: u8 = 8;
const P_POW: u8 = 9;
/// The level of an operand that is no operation (a primary).
const P_PRIMARY: u8 = 10;

/// The binary operator at the start of `i`, its precedence and the rest.
fn binary_op(i: &str) -> Option<(BOp, u8, &str)> {
    let b = i.as_bytes();
    let (op, len) = match (b.first()?, b.get(1)) {
        (b'*', Some(b'*')) => (BOp::Pow, 2),
        (b'*', _) => (BOp::Mul, 1),
        (b'/', Some(b'/')) => (BOp::Concat, 2),
        (b'/', Some(b'=')) => (BOp::Ne, 2),
        (b'/', _) => (BOp::Div, 1),
        (b'+', _) => (BOp::Add, 1),
        (b'-', _) => (BOp::Sub, 1),
        (b'=', Some(b'=')) => (BOp::Eq, 2),
        (b'<', Some(b'=')) => (BOp::Le, 2),
        (b'<', _) => (BOp::Lt, 1),
        (b'>', Some(b'=')) => (BOp::Ge, 2),
        (b'>', _) => (BOp::Gt, 1),
        (b'.', _) => {
            let (word, rest) = dot_word(i)?;
            let op = match word {
                "EQ" => BOp::Eq,
                "NE" => BOp::Ne,
                "LT" => BOp::Lt,
                "LE" => BOp::Le,
                "GT" => BOp::Gt,
                "GE" => BOp::Ge,
                "AND" => BOp::And,
                "OR" => BOp::Or,
                "EQV" => BOp::Eqv,
                "NEQV" => BOp::Neqv,
                _ => return None,
            };
            return Some((op, precedence(op), rest));
        }
        _ => return None,
    };
    Some((op, precedence(op), &i[len..]))
}

fn precedence(op: BOp) -> u8 {
    match op {
        BOp::Eqv | BOp::Neqv => P_EQV,
        BOp::Or => P_OR,
        BOp::And => P_AND,
        BOp::Eq | BOp::Ne | BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge => P_REL,
        BOp::Concat => P_CONCAT,
        BOp::Add | BOp::Sub => P_ADD,
        BOp::Mul | BOp::Div => P_MUL,
        BOp::Pow => P_POW,
    }
}

/// An expression of the operators of precedence `min` and tighter, by precedence climbing:
/// one loop per call folds a left-to-right chain, and the recursion for an operator's right
/// operand goes at most one level per precedence (a left operand is never parsed twice).
/// `**` is right to left; relational operators do not chain (`A.LT.B.LT.C` is an error).
fn climb(i: &str, min: u8) -> R<'_, Deep> {
    let (mut r, (mut acc, mut level)) = prefixed(i, min)?;
    loop {
        let Some((op, p, after)) = binary_op(r) else {
            return Ok((r, acc));
        };
        if p < min || (p == P_REL && level <= P_REL) {
            return Ok((r, acc));
        }
        let rhs = if op == BOp::Pow {
            let _depth = DepthGuard::enter(r)?;
            climb(after, P_POW)
        } else {
            climb(after, p + 1)
        };
        let (r2, x) = match rhs {
            Ok(v) => v,
            // A chain leaves an operator without its operand to the caller; a relation or a
            // power without one is an error.
            Err(nom::Err::Error(_)) if p != P_REL && p != P_POW => return Ok((r, acc)),
            Err(e) => return Err(e),
        };
        acc = binary(r, op, acc, x)?;
        level = p;
        r = r2;
    }
}

/// The first operand of [`climb`] at precedence `min`, with the precedence of its own top
/// operation: `.NOT. x` where `.NOT.` may stand, a sign (leading a sum, or before a power
/// operand as the common extension `A*-B` has it), else a primary.
fn prefixed(i: &str, min: u8) -> R<'_, (Deep, u8)> {
    let b = i.as_bytes();
    if min <= P_NOT && b.first() == Some(&b'.') && dot_op("NOT")(i).is_ok() {
        return not_prefixed(i);
    }
    if matches!(b.first(), Some(b'+' | b'-')) {
        return sign_prefixed(i, min);
    }
    let (r, x) = primary(i)?;
    Ok((r, (x, P_PRIMARY)))
}

/// `.NOT. x` (at `i`).
#[inline(never)]
fn not_prefixed(i: &str) -> R<'_, (Deep, u8)> {
    let _depth = DepthGuard::enter(i)?;
    let (r, x) = climb(&i[5..], P_NOT)?;
    Ok((r, (unary(i, UOp::Not, x)?, P_NOT)))
}

/// `+x` or `-x` (at `i`): a sum's leading sign where a sum may start, else a sign before a
/// power operand.
#[inline(never)]
fn sign_prefixed(i: &str, min: u8) -> R<'_, (Deep, u8)> {
    let (r, op) = sign(i)?;
    let _depth = DepthGuard::enter(i)?;
    let (operand, level) = if min <= P_ADD {
        (P_MUL, P_ADD)
    } else {
        (P_POW, P_POW)
    };
    let (r, x) = climb(r, operand)?;
    Ok((r, (unary(i, op, x)?, level)))
}

/// An expression (the lowest precedence level: `.EQV.` / `.NEQV.`).
pub fn expr(i: &str) -> R<'_, SExpr> {
    map(expr_d, |x| x.0)(i)
}

// ---------------------------------------------------------------- declarations

/// A length `*n`, `*(expr)` or `*(*)` (the last as the name `*`, which no constant has).
fn char_len(i: &str) -> R<'_, SExpr> {
    preceded(
        char('*'),
        alt((
            map(digit1, |d: &str| SExpr::Int(d.to_string())),
            value(SExpr::Name("*".into()), tag("(*)")),
            delimited(char('('), expr, char(')')),
        )),
    )(i)
}

/// A type keyword with its optional length (`REAL*8`, `DOUBLE PRECISION`, `CHARACTER*(*)`).
fn type_spec(i: &str) -> R<'_, TypeName> {
    map(type_spec_len, |(t, _)| t)(i)
}

/// A type keyword and the bytes of one datum when it gives them (`REAL*8`, `COMPLEX*16`,
/// `DOUBLE COMPLEX`, `CHARACTER*n`; `BYTE` is one).
fn type_spec_len(i: &str) -> R<'_, (TypeName, Option<SExpr>)> {
    let int = |n: &str| Some(SExpr::Int(n.to_string()));
    if let Some(r) = i.strip_prefix("DOUBLEPRECISION") {
        return Ok((r, (TypeName::Double, None)));
    }
    if let Some(r) = i.strip_prefix("DOUBLECOMPLEX") {
        return Ok((r, (TypeName::DoubleComplex, int("16"))));
    }
    if let Some(r) = i.strip_prefix("BYTE") {
        return Ok((r, (TypeName::Integer, int("1"))));
    }
    let (r, base) = alt((
        value(TypeName::Integer, tag("INTEGER")),
        value(TypeName::Real, tag("REAL")),
        value(TypeName::Complex, tag("COMPLEX")),
        value(TypeName::Logical, tag("LOGICAL")),
        value(TypeName::Character, tag("CHARACTER")),
    ))(i)?;
    if base == TypeName::Character {
        let (r, len) = opt(char_len)(r)?;
        return Ok((r, (base, len)));
    }
    match preceded(char('*'), digit1::<&str, nom::error::Error<&str>>)(r) {
        Ok((r2, n)) => {
            let t = match (base, n) {
                (TypeName::Real, "8" | "16") => TypeName::Double,
                (TypeName::Complex, "16" | "32") => TypeName::DoubleComplex,
                (t, _) => t,
            };
            Ok((r2, (t, int(n))))
        }
        Err(_) => Ok((r, (base, None))),
    }
}

fn bound(i: &str) -> R<'_, Option<SExpr>> {
    alt((value(None, char('*')), map(expr, Some)))(i)
}

fn dim(i: &str) -> R<'_, Dim> {
    alt((
        map(tuple((expr, char(':'), bound)), |(lo, _, hi)| Dim {
            lo: Some(lo),
            hi,
        }),
        map(bound, |hi| Dim { lo: None, hi }),
    ))(i)
}

fn dims(i: &str) -> R<'_, Vec<Dim>> {
    delimited(char('('), separated_list1(char(','), dim), char(')'))(i)
}

fn entity(i: &str) -> R<'_, Entity> {
    let (r, n) = name(i)?;
    let (r, len) = opt(char_len)(r)?;
    let (r, d) = opt(dims)(r)?;
    let (r, after) = opt(char_len)(r)?;
    Ok((
        r,
        Entity {
            name: n,
            dims: d,
            len: after.or(len),
        },
    ))
}

/// An entity of a type statement; DATA-style initial values (an extension) are skipped.
fn typed_entity(i: &str) -> R<'_, Entity> {
    terminated(
        entity,
        opt(delimited(char('/'), take_while(|c| c != '/'), char('/'))),
    )(i)
}

fn entity_list(i: &str) -> R<'_, Vec<Entity>> {
    separated_list1(char(','), entity)(i)
}

fn name_list(i: &str) -> R<'_, Vec<String>> {
    separated_list1(char(','), name)(i)
}

fn dummy_list(i: &str) -> R<'_, Vec<String>> {
    map(
        opt(delimited(
            char('('),
            separated_list0(char(','), alt((name, map(char('*'), |_| "*".to_string())))),
            char(')'),
        )),
        Option::unwrap_or_default,
    )(i)
}

fn common(i: &str) -> R<'_, Vec<(String, Vec<Entity>)>> {
    let block_name = |i| {
        delimited(
            char('/'),
            map(opt(name), Option::unwrap_or_default),
            char('/'),
        )(i)
    };
    let (mut r, first_name) = opt(block_name)(i)?;
    let mut out = Vec::new();
    let mut current = first_name.unwrap_or_default();
    loop {
        let (r2, ents) = entity_list(r)?;
        out.push((current.clone(), ents));
        r = r2;
        let (r3, _) = opt(char(','))(r)?;
        match block_name(r3) {
            Ok((r4, n)) => {
                current = n;
                r = r4;
            }
            Err(_) => break,
        }
    }
    Ok((r, out))
}

fn letter_range(i: &str) -> R<'_, (u8, u8)> {
    let (r, a) = satisfy(|c| c.is_ascii_alphabetic())(i)?;
    let (r, b) = opt(preceded(char('-'), satisfy(|c| c.is_ascii_alphabetic())))(r)?;
    Ok((r, (a as u8, b.unwrap_or(a) as u8)))
}

fn implicit(i: &str) -> R<'_, Implicit> {
    if i == "NONE" {
        return Ok(("", Implicit::None));
    }
    map(
        separated_list1(
            char(','),
            pair(
                type_spec,
                delimited(
                    char('('),
                    separated_list1(char(','), letter_range),
                    char(')'),
                ),
            ),
        ),
        Implicit::Ranges,
    )(i)
}

fn parameter(i: &str) -> R<'_, Vec<(String, SExpr)>> {
    delimited(
        char('('),
        separated_list1(
            char(','),
            map(tuple((name, char('='), expr)), |(n, _, e)| (n, e)),
        ),
        char(')'),
    )(i)
}

fn label_list(i: &str) -> R<'_, Vec<u32>> {
    delimited(char('('), separated_list1(char(','), label), char(')'))(i)
}

// ---------------------------------------------------------------- statements

fn fail(offset: usize, expected: &str) -> Failure {
    Failure {
        offset,
        expected: expected.to_string(),
        too_deep: false,
    }
}

/// The failure of a parser that stopped with `e` in `rest` (which starts at byte `base`).
fn failure(base: usize, rest: &str, what: &str, e: NomErr<'_>) -> Failure {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => Failure {
            too_deep: e.code == nom::error::ErrorKind::TooLarge,
            // The farthest point reached is the best location we have; `all_consuming`
            // reports the unconsumed tail on success-with-leftovers.
            ..fail(base + rest.len() - e.input.len(), what)
        },
        nom::Err::Incomplete(_) => fail(base + rest.len(), what),
    }
}

/// Run `p` on the whole of `rest` (which starts at byte `base` of the statement).
fn whole<'a, T>(
    base: usize,
    rest: &'a str,
    what: &str,
    p: impl FnMut(&'a str) -> R<'a, T>,
) -> Result<T, Failure> {
    all_consuming(p)(rest)
        .map(|(_, v)| v)
        .map_err(|e| failure(base, rest, what, e))
}

/// The byte offset of the top-level `=` of an assignment, if the text has one.
fn top_level_eq(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    for (k, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'=' if depth == 0 => {
                let prev = k.checked_sub(1).map(|p| b[p]);
                let next = b.get(k + 1);
                if next == Some(&b'=') || matches!(prev, Some(b'=' | b'/' | b'<' | b'>')) {
                    continue;
                }
                return Some(k);
            }
            _ => {}
        }
    }
    None
}

const IO_KEYWORDS: &[&str] = &[
    "READ",
    "WRITE",
    "PRINT",
    "OPEN",
    "CLOSE",
    "REWIND",
    "BACKSPACE",
    "ENDFILE",
    "INQUIRE",
];

/// Parse one squeezed statement.
pub fn statement(t: &str) -> Result<Stmt, Failure> {
    statement_at(t, 0)
}

fn statement_at(t: &str, base: usize) -> Result<Stmt, Failure> {
    // Assignment (or statement function) first: keywords are not reserved.
    if let Some(eq) = top_level_eq(t) {
        let lhs = designator(&t[..eq]);
        if let Err(e @ nom::Err::Failure(_)) = lhs {
            return Err(failure(base, &t[..eq], "a variable or array element", e));
        }
        if let Ok(("", lhs)) = lhs {
            let rhs_text = &t[eq + 1..];
            if let Ok(("", rhs)) = expr(rhs_text) {
                return Ok(Stmt::Assignment(lhs, rhs));
            }
            let starts_with_keyword = t.starts_with("DO") || t.starts_with("IF");
            if !starts_with_keyword {
                return Err(whole(base + eq + 1, rhs_text, "an expression", expr).unwrap_err());
            }
        }
    }
    keyword_statement(t, base)
}

/// A statement that is not an assignment, by its keyword: each kind of statement in a function of
/// its own, tried in order.
fn keyword_statement(t: &str, base: usize) -> Result<Stmt, Failure> {
    for part in [
        unit_statement,
        specification_statement,
        control_statement,
        flow_statement,
    ] {
        if let Some(s) = part(t, base)? {
            return Ok(s);
        }
    }
    for kw in IO_KEYWORDS {
        if let Some(r) = t.strip_prefix(kw) {
            if r.is_empty()
                || r.starts_with(['(', '*', ',', '\'', '"'])
                || r.starts_with(|c: char| c.is_ascii_alphanumeric())
            {
                return Ok(Stmt::Io(kw, Vec::new()));
            }
        }
    }
    Err(fail(base, "a Fortran 77 statement"))
}

/// Unit headers, END and the ends of blocks, CONTINUE, type declarations.
fn unit_statement(t: &str, base: usize) -> Result<Option<Stmt>, Failure> {
    let at = |rest: &str| base + t.len() - rest.len();
    macro_rules! rest_of {
        ($kw:expr) => {
            t.strip_prefix($kw)
        };
    }
    // Unit headers and END.
    if matches!(
        t,
        "END" | "ENDPROGRAM" | "ENDSUBROUTINE" | "ENDFUNCTION" | "ENDBLOCKDATA"
    ) || t.starts_with("ENDPROGRAM")
        || t.starts_with("ENDSUBROUTINE")
        || t.starts_with("ENDFUNCTION")
    {
        return Ok(Some(Stmt::End));
    }
    if matches!(t, "ENDIF") {
        return Ok(Some(Stmt::EndIf));
    }
    if t == "ENDDO" {
        return Ok(Some(Stmt::EndDo));
    }
    if t == "ELSE" {
        return Ok(Some(Stmt::Else));
    }
    if t == "CONTINUE" {
        return Ok(Some(Stmt::Continue));
    }
    if let Some(r) = rest_of!("PROGRAM") {
        return whole(at(r), r, "a program name", name)
            .map(Stmt::Program)
            .map(Some);
    }
    if let Some(r) = rest_of!("BLOCKDATA") {
        return whole(at(r), r, "a BLOCK DATA name", opt(name))
            .map(Stmt::BlockData)
            .map(Some);
    }
    if let Some(r) = rest_of!("SUBROUTINE") {
        return whole(
            at(r),
            r,
            "a subroutine name and dummy arguments",
            pair(name, dummy_list),
        )
        .map(|(n, a)| Stmt::Subroutine(n, a))
        .map(Some);
    }
    if let Some(r) = rest_of!("ENTRY") {
        return whole(
            at(r),
            r,
            "an entry name and dummy arguments",
            pair(name, dummy_list),
        )
        .map(|(n, a)| Stmt::Entry(n, a))
        .map(Some);
    }
    if let Some(r) = rest_of!("FUNCTION") {
        return whole(
            at(r),
            r,
            "a function name and dummy arguments",
            pair(name, dummy_list),
        )
        .map(|(n, a)| Stmt::Function(None, n, a))
        .map(Some);
    }
    if let Ok((r, (ty, ty_len))) = type_spec_len(t) {
        if let Some(f) = r.strip_prefix("FUNCTION") {
            if let Ok(("", (n, a))) = pair(name, dummy_list)(f) {
                return Ok(Some(Stmt::Function(Some(ty), n, a)));
            }
        }
        let r2 = r
            .strip_prefix("::")
            .or_else(|| r.strip_prefix(','))
            .unwrap_or(r);
        return whole(
            at(r2),
            r2,
            "a list of names to declare",
            separated_list1(char(','), typed_entity),
        )
        .map(|ents| {
            let ents = ents
                .into_iter()
                .map(|e| Entity {
                    len: e.len.or_else(|| ty_len.clone()),
                    ..e
                })
                .collect();
            Stmt::TypeDecl(ty, ents)
        })
        .map(Some);
    }
    Ok(None)
}

/// DIMENSION, COMMON, PARAMETER, IMPLICIT, EXTERNAL, INTRINSIC and the statements that cost
/// nothing.
fn specification_statement(t: &str, base: usize) -> Result<Option<Stmt>, Failure> {
    let at = |rest: &str| base + t.len() - rest.len();
    macro_rules! rest_of {
        ($kw:expr) => {
            t.strip_prefix($kw)
        };
    }
    if let Some(r) = rest_of!("DIMENSION") {
        return whole(at(r), r, "array declarators", entity_list)
            .map(Stmt::Dimension)
            .map(Some);
    }
    if let Some(r) = rest_of!("COMMON") {
        return whole(at(r), r, "a COMMON block list", common)
            .map(Stmt::Common)
            .map(Some);
    }
    if let Some(r) = rest_of!("PARAMETER") {
        return whole(at(r), r, "(NAME = constant, ...)", parameter)
            .map(Stmt::Parameter)
            .map(Some);
    }
    if let Some(r) = rest_of!("IMPLICIT") {
        return whole(at(r), r, "NONE or type (letter ranges)", implicit)
            .map(Stmt::Implicit)
            .map(Some);
    }
    if let Some(r) = rest_of!("EXTERNAL") {
        return whole(at(r), r, "a list of names", name_list)
            .map(Stmt::External)
            .map(Some);
    }
    if let Some(r) = rest_of!("INTRINSIC") {
        return whole(at(r), r, "a list of names", name_list)
            .map(Stmt::Intrinsic)
            .map(Some);
    }
    if t.starts_with("SAVE") {
        return Ok(Some(Stmt::NoCost("SAVE")));
    }
    if t.starts_with("EQUIVALENCE(") {
        return Ok(Some(Stmt::NoCost("EQUIVALENCE")));
    }
    if t.starts_with("DATA") && t.len() > 4 {
        return Ok(Some(Stmt::NoCost("DATA")));
    }
    if t.starts_with("INCLUDE'") || t.starts_with("INCLUDE\"") {
        return Ok(Some(Stmt::NoCost("INCLUDE")));
    }
    if t.starts_with("FORMAT(") {
        return Ok(Some(Stmt::Format));
    }
    Ok(None)
}

/// ASSIGN and the GO TOs.
fn control_statement(t: &str, base: usize) -> Result<Option<Stmt>, Failure> {
    let at = |rest: &str| base + t.len() - rest.len();
    macro_rules! rest_of {
        ($kw:expr) => {
            t.strip_prefix($kw)
        };
    }
    if let Some(r) = rest_of!("ASSIGN") {
        return whole(
            at(r),
            r,
            "ASSIGN label TO variable",
            tuple((label, tag("TO"), name)),
        )
        .map(|(l, _, n)| Stmt::AssignLabel(l, n))
        .map(Some);
    }
    if let Some(r) = rest_of!("GOTO") {
        if r.starts_with(|c: char| c.is_ascii_digit()) {
            return whole(at(r), r, "a statement label", label)
                .map(Stmt::Goto)
                .map(Some);
        }
        if r.starts_with('(') {
            return whole(
                at(r),
                r,
                "(labels) expression",
                tuple((label_list, opt(char(',')), expr)),
            )
            .map(|(l, _, e)| Stmt::ComputedGoto(l, e))
            .map(Some);
        }
        return whole(
            at(r),
            r,
            "a label variable",
            pair(
                name,
                map(
                    opt(preceded(opt(char(',')), label_list)),
                    Option::unwrap_or_default,
                ),
            ),
        )
        .map(|(n, l)| Stmt::AssignedGoto(n, l))
        .map(Some);
    }
    Ok(None)
}

/// The IFs, DO, CALL, RETURN, STOP and PAUSE.
fn flow_statement(t: &str, base: usize) -> Result<Option<Stmt>, Failure> {
    let at = |rest: &str| base + t.len() - rest.len();
    macro_rules! rest_of {
        ($kw:expr) => {
            t.strip_prefix($kw)
        };
    }
    if let Some(r) = rest_of!("ELSEIF(") {
        let (r2, cond) = expr(r).map_err(|e| failure(at(r), r, "a condition", e))?;
        let tail = r2.strip_prefix(')').ok_or_else(|| fail(at(r2), "`)`"))?;
        if tail != "THEN" {
            return Err(fail(at(tail), "THEN"));
        }
        return Ok(Some(Stmt::ElseIf(cond)));
    }
    if let Some(r) = rest_of!("IF(") {
        let (r2, cond) = expr(r).map_err(|e| failure(at(r), r, "a condition", e))?;
        let tail = r2.strip_prefix(')').ok_or_else(|| fail(at(r2), "`)`"))?;
        if tail == "THEN" {
            return Ok(Some(Stmt::BlockIf(cond)));
        }
        if tail.starts_with(|c: char| c.is_ascii_digit()) {
            return whole(
                at(tail),
                tail,
                "three labels",
                tuple((label, char(','), label, char(','), label)),
            )
            .map(|(a, _, b, _, c)| Stmt::ArithIf(cond, [a, b, c]))
            .map(Some);
        }
        if tail.is_empty() {
            return Err(fail(at(tail), "a statement after IF (...)"));
        }
        let off = at(tail);
        let _depth = DepthGuard::enter(tail).map_err(|e| failure(off, tail, "", e))?;
        let inner = statement_at(tail, off)?;
        if matches!(
            inner,
            Stmt::LogicalIf(..)
                | Stmt::BlockIf(_)
                | Stmt::Do(..)
                | Stmt::DoWhile(..)
                | Stmt::End
                | Stmt::EndIf
                | Stmt::EndDo
                | Stmt::Else
                | Stmt::ElseIf(_)
        ) || inner.is_specification()
            || inner.is_unit_header()
        {
            return Err(fail(off, "an executable statement allowed in a logical IF"));
        }
        return Ok(Some(Stmt::LogicalIf(cond, Box::new(inner), off)));
    }
    if let Some(r) = rest_of!("DO") {
        // DO [label[,]] WHILE (cond)   |   DO [label[,]] var = e1, e2 [, e3]
        let (r1, lab) = opt(terminated(label, opt(char(','))))(r)
            .map_err(|_: nom::Err<nom::error::Error<&str>>| fail(at(r), "a DO statement"))?;
        if let Some(w) = r1.strip_prefix("WHILE(") {
            let (r2, cond) = expr(w).map_err(|e| failure(at(w), w, "a condition", e))?;
            if r2 != ")" {
                return Err(fail(at(r2), "`)` ending the DO WHILE condition"));
            }
            return Ok(Some(Stmt::DoWhile(lab, cond)));
        }
        return whole(
            at(r1),
            r1,
            "var = start, end [, step]",
            tuple((
                name,
                char('='),
                expr,
                char(','),
                expr,
                opt(preceded(char(','), expr)),
            )),
        )
        .map(|(var, _, start, _, end, step)| {
            Stmt::Do(
                lab,
                DoControl {
                    var,
                    start,
                    end,
                    step,
                },
            )
        })
        .map(Some);
    }
    if let Some(r) = rest_of!("CALL") {
        return whole(
            at(r),
            r,
            "a subroutine name and arguments",
            pair(name, opt(arg_list)),
        )
        .map(|(n, a)| Stmt::Call(n, a.unwrap_or_default()))
        .map(Some);
    }
    if let Some(r) = rest_of!("RETURN") {
        return whole(at(r), r, "RETURN [expression]", opt(expr))
            .map(Stmt::Return)
            .map(Some);
    }
    if t.starts_with("STOP") {
        return Ok(Some(Stmt::Stop));
    }
    if t.starts_with("PAUSE") {
        return Ok(Some(Stmt::Pause));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(s: &str) -> SExpr {
        let (r, v) = expr(s).unwrap();
        assert_eq!(r, "", "left over from {s}");
        v
    }

    #[test]
    fn precedence_and_dotted_operators() {
        let v = e("A+B*C**2**K");
        let SExpr::Binary(BOp::Add, _, rhs) = v else {
            panic!()
        };
        let SExpr::Binary(BOp::Mul, _, p) = *rhs else {
            panic!()
        };
        let SExpr::Binary(BOp::Pow, _, p2) = *p else {
            panic!()
        };
        assert!(matches!(*p2, SExpr::Binary(BOp::Pow, _, _)));
        assert!(matches!(e("1.EQ.2"), SExpr::Binary(BOp::Eq, ..)));
        assert!(matches!(
            e(".NOT.L.AND.X.GT.1.5E0"),
            SExpr::Binary(BOp::And, ..)
        ));
        assert!(matches!(e("-X**2"), SExpr::Unary(UOp::Neg, _)));
        assert_eq!(
            e("1.D0"),
            SExpr::Real {
                text: "1.D0".into(),
                double: true
            }
        );
        assert!(matches!(e("(1.0,2.0)"), SExpr::Complex(..)));
        assert_eq!(e("Z'7fFF'"), SExpr::Int("Z'7fFF'".into()));
        assert!(matches!(e("B'101'+X"), SExpr::Binary(BOp::Add, ..)));
        assert!(matches!(e("S(1:N)//'x'"), SExpr::Binary(BOp::Concat, ..)));
    }

    #[test]
    fn assignments_beat_keywords() {
        assert!(matches!(statement("DO10I=1.5"), Ok(Stmt::Assignment(..))));
        assert!(matches!(statement("DO10I=1,5"), Ok(Stmt::Do(Some(10), _))));
        assert!(matches!(
            statement("IF(X.GT.0)Y=1"),
            Ok(Stmt::LogicalIf(..))
        ));
        assert!(matches!(
            statement("A(I,J)=B(I)+C"),
            Ok(Stmt::Assignment(..))
        ));
        assert!(matches!(
            statement("DOWHILE(I.LT.N)"),
            Ok(Stmt::DoWhile(None, _))
        ));
        assert!(matches!(
            statement("DO10WHILE(I.LT.N)"),
            Ok(Stmt::DoWhile(Some(10), _))
        ));
    }

    #[test]
    fn declarations() {
        assert_eq!(
            statement("REAL*8A(10,N),B"),
            Ok(Stmt::TypeDecl(
                TypeName::Double,
                vec![
                    Entity {
                        name: "A".into(),
                        dims: Some(vec![
                            Dim {
                                lo: None,
                                hi: Some(SExpr::Int("10".into()))
                            },
                            Dim {
                                lo: None,
                                hi: Some(SExpr::Name("N".into()))
                            }
                        ]),
                        len: Some(SExpr::Int("8".into()))
                    },
                    Entity {
                        name: "B".into(),
                        dims: None,
                        len: Some(SExpr::Int("8".into()))
                    }
                ]
            ))
        );
        assert!(matches!(
            statement("DOUBLEPRECISIONFUNCTIONDDOT(N,DX)"),
            Ok(Stmt::Function(Some(TypeName::Double), ..))
        ));
        let Ok(Stmt::Implicit(Implicit::Ranges(r))) = statement("IMPLICITREAL*8(A-H,O-Z)") else {
            panic!()
        };
        assert_eq!(r[0].0, TypeName::Double);
        assert_eq!(r[0].1, vec![(b'A', b'H'), (b'O', b'Z')]);
        let Ok(Stmt::Common(c)) = statement("COMMON/A/X,Y(3)/B/Z") else {
            panic!()
        };
        assert_eq!(c.len(), 2);
        let Ok(Stmt::TypeDecl(TypeName::DoubleComplex, z)) = statement("DOUBLECOMPLEXZ(4),W*8")
        else {
            panic!()
        };
        assert_eq!(z[0].len, Some(SExpr::Int("16".into())));
        assert_eq!(z[1].len, Some(SExpr::Int("8".into())));
        let Ok(Stmt::TypeDecl(TypeName::Character, c)) = statement("CHARACTER*(*)S,T*3") else {
            panic!()
        };
        assert_eq!(c[0].len, Some(SExpr::Name("*".into())));
        assert_eq!(c[1].len, Some(SExpr::Int("3".into())));
        assert!(matches!(
            statement("CHARACTER*(*)S,T*3"),
            Ok(Stmt::TypeDecl(TypeName::Character, _))
        ));
    }

    #[test]
    fn control_statements() {
        assert_eq!(statement("GOTO10"), Ok(Stmt::Goto(10)));
        assert!(matches!(
            statement("GOTO(10,20,30),I+1"),
            Ok(Stmt::ComputedGoto(..))
        ));
        assert!(matches!(
            statement("GOTOK,(10,20)"),
            Ok(Stmt::AssignedGoto(..))
        ));
        assert!(matches!(
            statement("IF(X-1.0)10,20,30"),
            Ok(Stmt::ArithIf(_, [10, 20, 30]))
        ));
        assert!(matches!(
            statement("ELSEIF(X.GT.1)THEN"),
            Ok(Stmt::ElseIf(_))
        ));
        assert!(matches!(
            statement("CALLSUB(A,*10,B(2))"),
            Ok(Stmt::Call(..))
        ));
        assert!(matches!(
            statement("WRITE(6,100)X"),
            Ok(Stmt::Io("WRITE", _))
        ));
        // A format given as a character constant.
        assert!(matches!(
            statement("PRINT'(1X,I5)',K"),
            Ok(Stmt::Io("PRINT", _))
        ));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let f = statement("X=A+*B").unwrap_err();
        assert_eq!(f.offset, 3);
        assert!(statement("IF(X.GT.)Y=1").is_err());
        assert!(statement("FROBNICATE").is_err());
    }
}

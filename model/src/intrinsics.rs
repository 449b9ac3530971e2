//! The Fortran 77 intrinsic functions (generic and specific names) and how each is counted.
//!
//! Saavedra-Barrera's catalogue has parameters for five functions in two precisions (Saavedra-Barrera's table 4.6). For the
//! others this module decides once, where the catalogue leaves a case open:
//! - COS is counted as SIN, LOG10 as LOG, inverse trigonometric functions (ATAN, ATAN2, ASIN,
//!   ACOS) as TAN, hyperbolic ones (SINH, COSH, TANH) as EXP: each is a library call of the
//!   same cost family as the parameter it borrows.
//! - ABS, SIGN and DIM cost about one addition of their type; MAX and MIN one compare per
//!   argument after the first; MOD of integers one division (by a constant, a
//!   multiplication: rule 3), MOD of reals the library's fmod (MODS, MODD); DPROD one double
//!   multiplication.
//! - CABS (and ABS of a complex, CDABS, ZABS) is the library's hypot: parameters of its own
//!   (CABS, CABD), rule 13a. CMPLX and DCMPLX only place two values side by side, AIMAG,
//!   DIMAG and DREAL only take one part: free. CONJG and DCONJG change the imaginary
//!   part's sign (a load of the sign mask and an XOR, as gfortran emits a unary minus): one
//!   addition of the part's type, like a unary minus (rule 5).
//! - The bit intrinsics of MIL-STD-1753 (IAND, IOR, IEOR, NOT, ISHFT, ISHFTC, IBSET, IBCLR,
//!   BTEST, IBITS) and gfortran's AND, OR, XOR, LSHIFT, RSHIFT are each one ALU instruction
//!   inline (IBITS a shift and a mask): counted as one integer addition (two for IBITS), like
//!   ABS, never as a call.
//! - INDEX is the library's string search: one INDX per reference and one SCAN per character
//!   position it tries, which the counting run counts (rule 23).
//! - A type conversion (INT, IFIX, IDINT, REAL, FLOAT, SNGL, DBLE, DFLOAT) between integer,
//!   REAL and DOUBLE PRECISION is one CNVT, QCNV on a chain (rule 25); of a value of its own
//!   result type it is free.
//! - NINT, IDNINT, ANINT and DNINT are calls of the C library's lround and round (gfortran
//!   at -O0 and -O2 alike): RNDS or RNDD by the argument's precision (rule 32).
//! - AINT, DINT, the conversions of a complex and the other character and complex
//!   intrinsics have no parameter: they are counted as uncharacterized, by name.

use crate::catalogue::Operation;
use crate::expr::{Expr, Type};

/// How a reference to an intrinsic is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntrinsicRule {
    /// One of the intrinsic parameters (EXP, LOG, SIN, TAN, SQRT) in the argument's precision.
    Library(Operation),
    /// Counts as `n` arithmetic operations of the given kind, `n = per_arg * (args - 1)` when
    /// `per_extra_arg`, else one.
    Arithmetic { op: Operation, per_extra_arg: bool },
    /// INDEX: a call of the library's string search (INDX) and the positions it scans
    /// (SCAN, counted by the counting run; rule 23).
    StringSearch,
    /// LGE, LGT, LLE, LLT: a call of the library's string compare (CHCM, rule 13c).
    StringCompare,
    /// A type conversion (rule 25): one CNVT when the argument is an integer, REAL or DOUBLE
    /// PRECISION value of another type than the result, free for one of the result's type; of
    /// a complex argument, its real part as such (rule 13a: `DBLE(Z)` of a DOUBLE COMPLEX Z
    /// is free, `REAL(Z)` of one a conversion).
    Conversion,
    /// CONJG, DCONJG: the imaginary part's sign changed, counted as a unary minus of the
    /// part's type (rule 5).
    Conjugate,
    /// No parameter: counted as uncharacterized, by name.
    Uncharacterized,
    /// Costs nothing: the compiler only moves the arguments into place.
    Free,
}

/// The result type of an intrinsic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultType {
    /// Same type as the (first) argument: generic names.
    OfArgument,
    Fixed(Type),
}

/// One intrinsic name.
#[derive(Debug, Clone, Copy)]
pub struct IntrinsicDef {
    pub name: &'static str,
    pub result: ResultType,
    pub rule: IntrinsicRule,
}

use IntrinsicRule::*;
use Operation as O;
use ResultType::*;

const fn lib(name: &'static str, result: ResultType, op: Operation) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result,
        rule: Library(op),
    }
}
const fn arith(name: &'static str, result: ResultType, op: Operation, per: bool) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result,
        rule: Arithmetic {
            op,
            per_extra_arg: per,
        },
    }
}
const fn conv(name: &'static str, result: Type) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result: Fixed(result),
        rule: Conversion,
    }
}
const fn free(name: &'static str, result: ResultType) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result,
        rule: Free,
    }
}
const fn string_compare(name: &'static str) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result: Fixed(Type::Logical),
        rule: StringCompare,
    }
}
const fn conjugate(name: &'static str, result: ResultType) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result,
        rule: Conjugate,
    }
}
const fn unch(name: &'static str, result: ResultType) -> IntrinsicDef {
    IntrinsicDef {
        name,
        result,
        rule: Uncharacterized,
    }
}

/// Every intrinsic of Fortran 77 (ANSI X3.9-1978 table 5), plus DFLOAT, the DOUBLE COMPLEX
/// ones every compiler has (DCMPLX, DREAL, DIMAG, DCONJG, CDABS/ZABS, CDSQRT/ZSQRT, ...) and
/// the bit functions of MIL-STD-1753 and gfortran that Fortran 77 codes use.
pub static INTRINSICS: &[IntrinsicDef] = &[
    lib("EXP", OfArgument, O::Exp),
    lib("DEXP", Fixed(Type::Double), O::Exp),
    lib("LOG", OfArgument, O::Log),
    lib("ALOG", Fixed(Type::Real), O::Log),
    lib("DLOG", Fixed(Type::Double), O::Log),
    lib("LOG10", OfArgument, O::Log),
    lib("ALOG10", Fixed(Type::Real), O::Log),
    lib("DLOG10", Fixed(Type::Double), O::Log),
    lib("SIN", OfArgument, O::Sin),
    lib("DSIN", Fixed(Type::Double), O::Sin),
    lib("COS", OfArgument, O::Sin),
    lib("DCOS", Fixed(Type::Double), O::Sin),
    lib("TAN", OfArgument, O::Tan),
    lib("DTAN", Fixed(Type::Double), O::Tan),
    lib("ATAN", OfArgument, O::Tan),
    lib("DATAN", Fixed(Type::Double), O::Tan),
    lib("ATAN2", OfArgument, O::Tan),
    lib("DATAN2", Fixed(Type::Double), O::Tan),
    lib("ASIN", OfArgument, O::Tan),
    lib("DASIN", Fixed(Type::Double), O::Tan),
    lib("ACOS", OfArgument, O::Tan),
    lib("DACOS", Fixed(Type::Double), O::Tan),
    lib("SINH", OfArgument, O::Exp),
    lib("DSINH", Fixed(Type::Double), O::Exp),
    lib("COSH", OfArgument, O::Exp),
    lib("DCOSH", Fixed(Type::Double), O::Exp),
    lib("TANH", OfArgument, O::Exp),
    lib("DTANH", Fixed(Type::Double), O::Exp),
    lib("SQRT", OfArgument, O::Sqrt),
    lib("DSQRT", Fixed(Type::Double), O::Sqrt),
    arith("ABS", OfArgument, O::Add, false),
    arith("IABS", Fixed(Type::Integer), O::Add, false),
    arith("DABS", Fixed(Type::Double), O::Add, false),
    arith("SIGN", OfArgument, O::Add, false),
    arith("ISIGN", Fixed(Type::Integer), O::Add, false),
    arith("DSIGN", Fixed(Type::Double), O::Add, false),
    arith("DIM", OfArgument, O::Add, false),
    arith("IDIM", Fixed(Type::Integer), O::Add, false),
    arith("DDIM", Fixed(Type::Double), O::Add, false),
    arith("MOD", OfArgument, O::Divide, false),
    arith("AMOD", Fixed(Type::Real), O::Divide, false),
    arith("DMOD", Fixed(Type::Double), O::Divide, false),
    arith("DPROD", Fixed(Type::Double), O::Multiply, false),
    arith("IAND", OfArgument, O::Add, false),
    arith("IOR", OfArgument, O::Add, false),
    arith("IEOR", OfArgument, O::Add, false),
    arith("NOT", OfArgument, O::Add, false),
    arith("ISHFT", OfArgument, O::Add, false),
    arith("ISHFTC", OfArgument, O::Add, false),
    arith("IBSET", OfArgument, O::Add, false),
    arith("IBCLR", OfArgument, O::Add, false),
    arith("IBITS", OfArgument, O::Add, true),
    arith("BTEST", Fixed(Type::Logical), O::Add, false),
    arith("AND", OfArgument, O::Add, false),
    arith("OR", OfArgument, O::Add, false),
    arith("XOR", OfArgument, O::Add, false),
    arith("LSHIFT", OfArgument, O::Add, false),
    arith("RSHIFT", OfArgument, O::Add, false),
    arith("MAX", OfArgument, O::Compare, true),
    arith("MAX0", Fixed(Type::Integer), O::Compare, true),
    arith("AMAX1", Fixed(Type::Real), O::Compare, true),
    arith("DMAX1", Fixed(Type::Double), O::Compare, true),
    arith("AMAX0", Fixed(Type::Real), O::Compare, true),
    arith("MAX1", Fixed(Type::Integer), O::Compare, true),
    arith("MIN", OfArgument, O::Compare, true),
    arith("MIN0", Fixed(Type::Integer), O::Compare, true),
    arith("AMIN1", Fixed(Type::Real), O::Compare, true),
    arith("DMIN1", Fixed(Type::Double), O::Compare, true),
    arith("AMIN0", Fixed(Type::Real), O::Compare, true),
    arith("MIN1", Fixed(Type::Integer), O::Compare, true),
    conv("INT", Type::Integer),
    conv("IFIX", Type::Integer),
    conv("IDINT", Type::Integer),
    lib("NINT", Fixed(Type::Integer), O::Round),
    lib("IDNINT", Fixed(Type::Integer), O::Round),
    conv("REAL", Type::Real),
    conv("FLOAT", Type::Real),
    conv("SNGL", Type::Real),
    conv("DBLE", Type::Double),
    conv("DFLOAT", Type::Double),
    unch("AINT", OfArgument),
    unch("DINT", Fixed(Type::Double)),
    lib("ANINT", OfArgument, O::Round),
    lib("DNINT", Fixed(Type::Double), O::Round),
    free("CMPLX", Fixed(Type::Complex)),
    free("DCMPLX", Fixed(Type::DoubleComplex)),
    free("AIMAG", Fixed(Type::Real)),
    free("DIMAG", Fixed(Type::Double)),
    free("DREAL", Fixed(Type::Double)),
    conjugate("CONJG", OfArgument),
    conjugate("DCONJG", Fixed(Type::DoubleComplex)),
    lib("CABS", Fixed(Type::Real), O::ComplexAbs),
    lib("CDABS", Fixed(Type::Double), O::ComplexAbs),
    lib("ZABS", Fixed(Type::Double), O::ComplexAbs),
    unch("CSQRT", Fixed(Type::Complex)),
    unch("CEXP", Fixed(Type::Complex)),
    unch("CLOG", Fixed(Type::Complex)),
    unch("CSIN", Fixed(Type::Complex)),
    unch("CCOS", Fixed(Type::Complex)),
    unch("CDSQRT", Fixed(Type::DoubleComplex)),
    unch("ZSQRT", Fixed(Type::DoubleComplex)),
    unch("CDEXP", Fixed(Type::DoubleComplex)),
    unch("ZEXP", Fixed(Type::DoubleComplex)),
    unch("CDLOG", Fixed(Type::DoubleComplex)),
    unch("ZLOG", Fixed(Type::DoubleComplex)),
    unch("CDSIN", Fixed(Type::DoubleComplex)),
    unch("ZSIN", Fixed(Type::DoubleComplex)),
    unch("CDCOS", Fixed(Type::DoubleComplex)),
    unch("ZCOS", Fixed(Type::DoubleComplex)),
    // Rule 13c: a character's code is its byte, loaded where the argument is read; CHAR's
    // byte is what its store keeps; a length is a constant or the hidden argument's value.
    free("ICHAR", Fixed(Type::Integer)),
    free("CHAR", Fixed(Type::Character)),
    free("LEN", Fixed(Type::Integer)),
    IntrinsicDef {
        name: "INDEX",
        result: Fixed(Type::Integer),
        rule: StringSearch,
    },
    string_compare("LGE"),
    string_compare("LGT"),
    string_compare("LLE"),
    string_compare("LLT"),
];

/// The definition of an intrinsic by name (case-insensitive).
pub fn lookup(name: &str) -> Option<&'static IntrinsicDef> {
    INTRINSICS
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
}

/// How a reference to intrinsic `name` whose (first) argument has type `arg` is counted: the
/// generic ABS of a complex is CABS.
pub fn rule_for(name: &str, arg: Type) -> Option<IntrinsicRule> {
    if arg.complex_part().is_some() && name.eq_ignore_ascii_case("ABS") {
        return Some(Library(O::ComplexAbs));
    }
    lookup(name).map(|d| d.rule)
}

/// The type of a reference to intrinsic `name` with `args`.
pub fn result_type(name: &str, args: &[Expr]) -> Type {
    if let Some(Fixed(t)) = lookup(name).map(|d| d.result) {
        return t;
    }
    // Generic: the promoted type of the arguments (MAX(I, X) is not standard, but promotion
    // is the least surprising answer). Each argument's type is computed once: nested
    // references would otherwise cost two walks a level.
    let promoted = args
        .iter()
        .map(Expr::ty)
        .reduce(Type::promote)
        .unwrap_or(Type::Real);
    // ABS of a complex is its modulus, a real of the parts' precision.
    match promoted.complex_part() {
        Some(part) if name.eq_ignore_ascii_case("ABS") => part,
        _ => promoted,
    }
}

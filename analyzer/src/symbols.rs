//! The symbol table of one program unit (ANSI X3.9-1978 sections 4, 8, 15): implicit typing,
//! declared types, PARAMETER constants, COMMON members (Saavedra-Barrera's *global* storage class),
//! dummy arguments, arrays, EXTERNAL/INTRINSIC names and statement functions.

use crate::syntax::{BOp, Dim, Implicit, SExpr, TypeName, UOp};
use model::expr::Type;
use std::collections::HashMap;

/// What the unit knows about one name.
#[derive(Debug, Clone, Default)]
pub struct Symbol {
    pub declared: Option<Type>,
    /// Number of dimensions, for arrays.
    pub rank: Option<usize>,
    /// The declared bounds, for arrays (rule 18 needs the size).
    pub dims: Vec<Dim>,
    /// Bytes of one datum when the type statement gives them (`CHARACTER*8`, `COMPLEX*16`).
    pub len: Option<SExpr>,
    /// The COMMON block holding it.
    pub common: Option<String>,
    pub dummy: bool,
    pub parameter: Option<SExpr>,
    pub external: bool,
    pub intrinsic: bool,
    /// Statement function: dummy names and body.
    pub statement_function: Option<(Vec<String>, SExpr)>,
}

/// The kind of a program unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    Main,
    Subroutine,
    Function,
    BlockData,
}

/// Symbol table of one program unit.
#[derive(Debug, Clone)]
pub struct Symbols {
    pub implicit: [Option<Type>; 26],
    pub names: HashMap<String, Symbol>,
}

impl Default for Symbols {
    fn default() -> Self {
        let mut implicit = [Some(Type::Real); 26];
        for t in implicit
            .iter_mut()
            .take((b'N' - b'A' + 1) as usize)
            .skip((b'I' - b'A') as usize)
        {
            *t = Some(Type::Integer);
        }
        Symbols {
            implicit,
            names: HashMap::new(),
        }
    }
}

impl Symbols {
    pub fn entry(&mut self, name: &str) -> &mut Symbol {
        self.names.entry(name.to_string()).or_default()
    }

    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.names.get(name)
    }

    pub fn apply_implicit(&mut self, imp: &Implicit) {
        match imp {
            Implicit::None => self.implicit = [None; 26],
            Implicit::Ranges(specs) => {
                for (ty, ranges) in specs {
                    for &(a, b) in ranges {
                        let (a, b) = (a.to_ascii_uppercase(), b.to_ascii_uppercase());
                        for l in a..=b {
                            if l.is_ascii_uppercase() {
                                self.implicit[(l - b'A') as usize] = Some(ty.model());
                            }
                        }
                    }
                }
            }
        }
    }

    /// The type of `name`: declared, else implicit. `None` under IMPLICIT NONE for an
    /// undeclared name.
    pub fn type_of(&self, name: &str) -> Option<Type> {
        if let Some(t) = self.names.get(name).and_then(|s| s.declared) {
            return Some(t);
        }
        let first = name.as_bytes().first()?.to_ascii_uppercase();
        if first.is_ascii_uppercase() {
            self.implicit[(first - b'A') as usize]
        } else {
            None
        }
    }

    pub fn is_array(&self, name: &str) -> bool {
        self.names.get(name).is_some_and(|s| s.rank.is_some())
    }

    pub fn is_global(&self, name: &str) -> bool {
        self.names.get(name).is_some_and(|s| s.common.is_some())
    }

    pub fn declare_type(&mut self, name: &str, ty: TypeName) {
        self.entry(name).declared = Some(ty.model());
    }

    /// `name` is an array with these bounds.
    pub fn declare_dims(&mut self, name: &str, dims: &[Dim]) {
        let s = self.entry(name);
        s.rank = Some(dims.len());
        s.dims = dims.to_vec();
    }

    /// The value of an integer constant expression: literals, PARAMETER constants and
    /// + - * / ** on them (the bounds of arrays, ANSI X3.9-1978 section 5.1.1.1).
    pub fn constant_int(&self, e: &SExpr) -> Option<i64> {
        self.constant_int_within(e, 0)
    }

    fn constant_int_within(&self, e: &SExpr, depth: usize) -> Option<i64> {
        if depth > 32 {
            return None; // a PARAMETER defined through itself
        }
        let value = |x: &SExpr| self.constant_int_within(x, depth + 1);
        match e {
            SExpr::Int(t) => t.parse().ok(),
            SExpr::Name(n) => value(self.names.get(n)?.parameter.as_ref()?),
            SExpr::Paren(x) | SExpr::Unary(UOp::Plus, x) => value(x),
            SExpr::Unary(UOp::Neg, x) => value(x)?.checked_neg(),
            SExpr::Binary(op, a, b) => {
                let (a, b) = (value(a)?, value(b)?);
                match op {
                    BOp::Add => a.checked_add(b),
                    BOp::Sub => a.checked_sub(b),
                    BOp::Mul => a.checked_mul(b),
                    BOp::Div => a.checked_div(b),
                    BOp::Pow => a.checked_pow(u32::try_from(b).ok()?),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The bytes `name` occupies when it is an array whose bounds are all constant (not
    /// assumed-size, not adjustable); None otherwise, or for CHARACTER.
    pub fn array_bytes(&self, name: &str) -> Option<u64> {
        let s = self.names.get(name)?;
        s.rank?;
        let element: u64 = match self.type_of(name)? {
            Type::Integer | Type::Logical | Type::Real => 4,
            Type::Double | Type::Complex => 8,
            Type::DoubleComplex => 16,
            Type::Character => return None,
        };
        s.dims.iter().try_fold(element, |bytes, d| {
            let lo = d.lo.as_ref().map_or(Some(1), |e| self.constant_int(e))?;
            let hi = self.constant_int(d.hi.as_ref()?)?;
            let extent = u64::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
            bytes.checked_mul(extent)
        })
    }
}

impl Symbols {
    /// Bytes of one element of `name` (ANSI X3.9-1978 section 4; the usual sizes of the
    /// extensions): 4 for INTEGER, REAL and LOGICAL, 8 for DOUBLE PRECISION and COMPLEX, 16
    /// for DOUBLE COMPLEX (`COMPLEX*16`), n for `CHARACTER*n` (1 without a length) or `REAL*n`;
    /// None when the length is not a constant (`CHARACTER*(*)`) or the name has no type.
    pub fn element_bytes(&self, name: &str) -> Option<u32> {
        let ty = self.type_of(name)?;
        match self.names.get(name).and_then(|s| s.len.as_ref()) {
            Some(len) => u32::try_from(self.constant_int(len)?)
                .ok()
                .filter(|&n| n > 0),
            None => Some(match ty {
                Type::Integer | Type::Logical | Type::Real => 4,
                Type::Double | Type::Complex => 8,
                Type::DoubleComplex => 16,
                Type::Character => 1,
            }),
        }
    }

    /// The extent (elements) of each dimension of array `name`, None where a bound is not a
    /// constant (an adjustable or assumed-size dummy's).
    pub fn extents(&self, name: &str) -> Vec<Option<i64>> {
        let Some(s) = self.names.get(name) else {
            return Vec::new();
        };
        s.dims
            .iter()
            .map(|d| {
                let lo = d.lo.as_ref().map_or(Some(1), |e| self.constant_int(e))?;
                let hi = self.constant_int(d.hi.as_ref()?)?;
                hi.checked_sub(lo)?.checked_add(1).filter(|&n| n >= 0)
            })
            .collect()
    }

    /// The bytes array `name` occupies by its declaration (CHARACTER included, with the
    /// element sizes of [`Symbols::element_bytes`]); None when a bound or the length is not a
    /// constant, or `name` is not an array.
    pub fn declared_bytes(&self, name: &str) -> Option<u64> {
        self.bytes_with_extents(name, self.extents(name))
    }

    /// The bytes array `name` occupies with `extents` (elements per dimension, as
    /// [`Symbols::extents`] gives them or a run measured them); None when one is None, the
    /// length is not a constant, or `name` is not an array.
    pub fn bytes_with_extents(&self, name: &str, extents: Vec<Option<i64>>) -> Option<u64> {
        self.names.get(name)?.rank?;
        extents
            .into_iter()
            .try_fold(u64::from(self.element_bytes(name)?), |bytes, n| {
                bytes.checked_mul(u64::try_from(n?).ok()?)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_rules() {
        let mut s = Symbols::default();
        assert_eq!(s.type_of("I"), Some(Type::Integer));
        assert_eq!(s.type_of("X"), Some(Type::Real));
        s.apply_implicit(&Implicit::Ranges(vec![(
            TypeName::Double,
            vec![(b'A', b'H'), (b'O', b'Z')],
        )]));
        assert_eq!(s.type_of("X"), Some(Type::Double));
        assert_eq!(s.type_of("K"), Some(Type::Integer));
        s.declare_type("X", TypeName::Integer);
        assert_eq!(s.type_of("X"), Some(Type::Integer));
        s.apply_implicit(&Implicit::None);
        assert_eq!(s.type_of("Y"), None);
    }

    #[test]
    fn array_bytes_from_constant_bounds() {
        let mut s = Symbols::default();
        let int = |v: &str| SExpr::Int(v.into());
        let name = |v: &str| SExpr::Name(v.into());
        s.entry("NMAX").parameter = Some(SExpr::Binary(
            BOp::Mul,
            Box::new(int("6")),
            Box::new(int("10000")),
        ));
        s.declare_type("ISPRIM", TypeName::Logical);
        s.declare_dims(
            "ISPRIM",
            &[Dim {
                lo: None,
                hi: Some(name("NMAX")),
            }],
        );
        assert_eq!(s.array_bytes("ISPRIM"), Some(240_000));
        // DOUBLE PRECISION D(0:9, -2:2): 10 x 5 x 8 bytes.
        s.declare_type("D", TypeName::Double);
        s.declare_dims(
            "D",
            &[
                Dim {
                    lo: Some(int("0")),
                    hi: Some(int("9")),
                },
                Dim {
                    lo: Some(SExpr::Unary(UOp::Neg, Box::new(int("2")))),
                    hi: Some(int("2")),
                },
            ],
        );
        assert_eq!(s.array_bytes("D"), Some(400));
        // Assumed-size and adjustable arrays have no known size; nor has a scalar.
        s.declare_dims("A", &[Dim { lo: None, hi: None }]);
        assert_eq!(s.array_bytes("A"), None);
        s.declare_dims(
            "B",
            &[Dim {
                lo: None,
                hi: Some(name("N")),
            }],
        );
        assert_eq!(s.array_bytes("B"), None);
        assert_eq!(s.array_bytes("NMAX"), None);
    }
}

//! The symbol table of one program unit (ANSI X3.9-1978 sections 4, 8, 15): implicit typing,
//! declared types, PARAMETER constants, COMMON members (the seed's *global* storage class),
//! dummy arguments, arrays, EXTERNAL/INTRINSIC names and statement functions.

use crate::syntax::{Implicit, SExpr, TypeName};
use model::expr::Type;
use std::collections::HashMap;

/// What the unit knows about one name.
#[derive(Debug, Clone, Default)]
pub struct Symbol {
    pub declared: Option<Type>,
    /// Number of dimensions, for arrays.
    pub rank: Option<usize>,
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
}

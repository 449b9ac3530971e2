//! The typed statement vocabulary that both sides count with: the analyzer builds these from
//! parsed source, the characterizer builds them to generate its test bodies. `Display` renders
//! them as Fortran 77, so a generated test body and its counts come from one value.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Fortran 77 data types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Type {
    Integer,
    Real,
    Double,
    Complex,
    /// `DOUBLE COMPLEX` or `COMPLEX*16` (an extension every compiler has).
    DoubleComplex,
    Logical,
    Character,
}

impl Type {
    /// Mixed-mode promotion of arithmetic operands (Fortran 77 section 6.1.4):
    /// integer < real < double precision; complex wins over all, and complex with double
    /// precision is double complex (gfortran's extension of the standard's rule).
    pub fn promote(a: Type, b: Type) -> Type {
        use Type::*;
        match (a, b) {
            (Character, _) | (_, Character) => Character,
            (DoubleComplex, _) | (_, DoubleComplex) => DoubleComplex,
            (Complex, Double) | (Double, Complex) => DoubleComplex,
            (Complex, _) | (_, Complex) => Complex,
            (Double, _) | (_, Double) => Double,
            (Real, _) | (_, Real) => Real,
            (Logical, _) | (_, Logical) => Logical,
            _ => Integer,
        }
    }

    /// The real type of a complex type's parts (rule 13a); None for the other types.
    pub fn complex_part(self) -> Option<Type> {
        match self {
            Type::Complex => Some(Type::Real),
            Type::DoubleComplex => Some(Type::Double),
            _ => None,
        }
    }

    /// The Fortran declaration keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Type::Integer => "INTEGER",
            Type::Real => "REAL",
            Type::Double => "DOUBLE PRECISION",
            Type::Complex => "COMPLEX",
            Type::DoubleComplex => "DOUBLE COMPLEX",
            Type::Logical => "LOGICAL",
            Type::Character => "CHARACTER",
        }
    }
}

/// A named data object: a scalar variable or an array, with its type and storage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operand {
    pub name: String,
    pub ty: Type,
    /// In a COMMON block (Saavedra-Barrera's "global" storage class).
    pub global: bool,
    /// A dummy argument: reached through the address the caller passed (rule 16).
    #[serde(default)]
    pub dummy: bool,
    /// A local or COMMON array larger than [`crate::rules::LARGE_ARRAY_BYTES`] (rule 18).
    #[serde(default)]
    pub large: bool,
    /// Characters of a CHARACTER datum whose length the compiler knows (`CHARACTER*8`;
    /// None for `CHARACTER*(*)` and other types): rule 13c tells single characters, which
    /// gfortran handles inline, from strings, which it hands to the library.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
}

impl Operand {
    pub fn local(name: &str, ty: Type) -> Self {
        Operand {
            name: name.to_string(),
            ty,
            global: false,
            dummy: false,
            large: false,
            length: None,
        }
    }
    pub fn global(name: &str, ty: Type) -> Self {
        Operand {
            name: name.to_string(),
            ty,
            global: true,
            dummy: false,
            large: false,
            length: None,
        }
    }
    pub fn dummy(name: &str, ty: Type) -> Self {
        Operand {
            name: name.to_string(),
            ty,
            global: false,
            dummy: true,
            large: false,
            length: None,
        }
    }
    /// The same CHARACTER datum, `length` characters long (rule 13c).
    pub fn with_length(self, length: u32) -> Self {
        Operand {
            length: Some(length),
            ..self
        }
    }
    /// The same array, marked larger than [`crate::rules::LARGE_ARRAY_BYTES`] (rule 18).
    pub fn large(self) -> Self {
        Operand {
            large: true,
            ..self
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Concat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogicOp {
    And,
    Or,
    Eqv,
    Neqv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
}

/// A typed expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    /// A literal or a PARAMETER constant: known at compile time.
    Constant {
        text: String,
        ty: Type,
    },
    /// A scalar variable, or a whole array passed as an argument.
    Variable(Operand),
    /// An array element; `array.ty` is the element type.
    Element {
        array: Operand,
        subscripts: Vec<Expr>,
    },
    /// A character substring or anything else the vocabulary has no finer shape for; it
    /// is counted as one uncharacterized operation of `kind`.
    Opaque {
        kind: String,
        ty: Type,
        parts: Vec<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Arith {
        op: ArithOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Compare {
        op: RelOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Logic {
        op: LogicOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A reference to an intrinsic function, by its Fortran name (generic or specific).
    Intrinsic {
        name: String,
        args: Vec<Expr>,
    },
    /// A reference to a user function (external or statement function lowered by the caller).
    Call {
        name: String,
        ty: Type,
        args: Vec<Expr>,
    },
    Paren(Box<Expr>),
}

impl Expr {
    pub fn var(o: &Operand) -> Expr {
        Expr::Variable(o.clone())
    }
    pub fn int(v: i64) -> Expr {
        Expr::Constant {
            text: v.to_string(),
            ty: Type::Integer,
        }
    }
    pub fn elem(a: &Operand, subscripts: Vec<Expr>) -> Expr {
        Expr::Element {
            array: a.clone(),
            subscripts,
        }
    }
    pub fn arith(op: ArithOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Arith {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }
    pub fn compare(op: RelOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Compare {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }
    pub fn logic(op: LogicOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Logic {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }
    pub fn intrinsic(name: &str, args: Vec<Expr>) -> Expr {
        Expr::Intrinsic {
            name: name.to_string(),
            args,
        }
    }

    /// The expression with any enclosing parentheses removed.
    pub fn unparen(&self) -> &Expr {
        match self {
            Expr::Paren(e) => e.unparen(),
            e => e,
        }
    }

    /// The type of the value (Fortran 77 rules; intrinsics per `crate::intrinsics`).
    pub fn ty(&self) -> Type {
        match self {
            Expr::Constant { ty, .. } | Expr::Opaque { ty, .. } | Expr::Call { ty, .. } => *ty,
            Expr::Variable(o) | Expr::Element { array: o, .. } => o.ty,
            Expr::Unary { op, operand } => match op {
                UnaryOp::Not => Type::Logical,
                _ => operand.ty(),
            },
            Expr::Arith { op, lhs, rhs } => match op {
                ArithOp::Concat => Type::Character,
                _ => Type::promote(lhs.ty(), rhs.ty()),
            },
            Expr::Compare { .. } | Expr::Logic { .. } => Type::Logical,
            Expr::Intrinsic { name, args } => crate::intrinsics::result_type(name, args),
            Expr::Paren(e) => e.ty(),
        }
    }

    /// A leaf that reads memory: a variable or an array element.
    pub fn operand(&self) -> Option<&Operand> {
        match self.unparen() {
            Expr::Variable(o) | Expr::Element { array: o, .. } => Some(o),
            _ => None,
        }
    }

    /// A copy in which `f` replaces every node it returns `Some` for (without visiting that
    /// node's parts); every other node is copied with its parts rebuilt the same way.
    pub fn rebuild(&self, f: &impl Fn(&Expr) -> Option<Expr>) -> Expr {
        if let Some(e) = f(self) {
            return e;
        }
        let boxed = |x: &Expr| Box::new(x.rebuild(f));
        let all = |xs: &[Expr]| xs.iter().map(|x| x.rebuild(f)).collect();
        match self {
            Expr::Constant { .. } | Expr::Variable(_) => self.clone(),
            Expr::Element { array, subscripts } => Expr::Element {
                array: array.clone(),
                subscripts: all(subscripts),
            },
            Expr::Opaque { kind, ty, parts } => Expr::Opaque {
                kind: kind.clone(),
                ty: *ty,
                parts: all(parts),
            },
            Expr::Unary { op, operand } => Expr::Unary {
                op: *op,
                operand: boxed(operand),
            },
            Expr::Arith { op, lhs, rhs } => Expr::Arith {
                op: *op,
                lhs: boxed(lhs),
                rhs: boxed(rhs),
            },
            Expr::Compare { op, lhs, rhs } => Expr::Compare {
                op: *op,
                lhs: boxed(lhs),
                rhs: boxed(rhs),
            },
            Expr::Logic { op, lhs, rhs } => Expr::Logic {
                op: *op,
                lhs: boxed(lhs),
                rhs: boxed(rhs),
            },
            Expr::Intrinsic { name, args } => Expr::Intrinsic {
                name: name.clone(),
                args: all(args),
            },
            Expr::Call { name, ty, args } => Expr::Call {
                name: name.clone(),
                ty: *ty,
                args: all(args),
            },
            Expr::Paren(x) => Expr::Paren(boxed(x)),
        }
    }

    /// Known at compile time (a literal, a PARAMETER, or an expression of them).
    pub fn is_constant(&self) -> bool {
        match self {
            Expr::Constant { .. } => true,
            Expr::Paren(e) => e.is_constant(),
            Expr::Unary { operand, .. } => operand.is_constant(),
            Expr::Arith { lhs, rhs, .. } => lhs.is_constant() && rhs.is_constant(),
            _ => false,
        }
    }
}

fn fmt_operand_expr(f: &mut fmt::Formatter<'_>, e: &Expr) -> fmt::Result {
    match e {
        Expr::Arith { .. } | Expr::Compare { .. } | Expr::Logic { .. } | Expr::Unary { .. } => {
            write!(f, "({e})")
        }
        _ => write!(f, "{e}"),
    }
}

fn fmt_list(f: &mut fmt::Formatter<'_>, items: &[Expr]) -> fmt::Result {
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{a}")?;
    }
    Ok(())
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Constant { text, .. } => f.write_str(text),
            Expr::Variable(o) => f.write_str(&o.name),
            Expr::Element { array, subscripts } => {
                write!(f, "{}(", array.name)?;
                fmt_list(f, subscripts)?;
                f.write_str(")")
            }
            Expr::Opaque { kind, parts, .. } => {
                write!(f, "<{kind}>(")?;
                fmt_list(f, parts)?;
                f.write_str(")")
            }
            Expr::Unary { op, operand } => {
                f.write_str(match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Plus => "+",
                    UnaryOp::Not => ".NOT.",
                })?;
                fmt_operand_expr(f, operand)
            }
            Expr::Arith { op, lhs, rhs } => {
                fmt_operand_expr(f, lhs)?;
                f.write_str(match op {
                    ArithOp::Add => "+",
                    ArithOp::Sub => "-",
                    ArithOp::Mul => "*",
                    ArithOp::Div => "/",
                    ArithOp::Pow => "**",
                    ArithOp::Concat => "//",
                })?;
                fmt_operand_expr(f, rhs)
            }
            Expr::Compare { op, lhs, rhs } => {
                fmt_operand_expr(f, lhs)?;
                f.write_str(match op {
                    RelOp::Eq => " .EQ. ",
                    RelOp::Ne => " .NE. ",
                    RelOp::Lt => " .LT. ",
                    RelOp::Le => " .LE. ",
                    RelOp::Gt => " .GT. ",
                    RelOp::Ge => " .GE. ",
                })?;
                fmt_operand_expr(f, rhs)
            }
            Expr::Logic { op, lhs, rhs } => {
                fmt_operand_expr(f, lhs)?;
                f.write_str(match op {
                    LogicOp::And => " .AND. ",
                    LogicOp::Or => " .OR. ",
                    LogicOp::Eqv => " .EQV. ",
                    LogicOp::Neqv => " .NEQV. ",
                })?;
                fmt_operand_expr(f, rhs)
            }
            Expr::Intrinsic { name, args } | Expr::Call { name, args, .. } => {
                write!(f, "{name}(")?;
                fmt_list(f, args)?;
                f.write_str(")")
            }
            Expr::Paren(e) => write!(f, "({e})"),
        }
    }
}

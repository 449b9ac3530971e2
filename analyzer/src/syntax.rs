//! The syntax tree of one statement, before names are resolved against the symbol table
//! (`A(I)` may be an array element, a function reference or a statement function).

/// An expression as written.
#[derive(Debug, Clone, PartialEq)]
pub enum SExpr {
    Int(String),
    /// A real literal; `double` when it has a D exponent.
    Real {
        text: String,
        double: bool,
    },
    Logical(bool),
    Str(String),
    /// `(re, im)`.
    Complex(Box<SExpr>, Box<SExpr>),
    Name(String),
    /// `name(args)`: array element, function reference or substring of a scalar.
    Apply(String, Vec<Arg>),
    /// `designator(lo:hi)` after an array element.
    Substring(Box<SExpr>, Option<Box<SExpr>>, Option<Box<SExpr>>),
    Unary(UOp, Box<SExpr>),
    Binary(BOp, Box<SExpr>, Box<SExpr>),
    Paren(Box<SExpr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UOp {
    Neg,
    Plus,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Eqv,
    Neqv,
}

/// One argument inside `name( ... )`.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Expr(SExpr),
    /// `lo:hi` (a substring range; either side may be absent).
    Range(Option<SExpr>, Option<SExpr>),
    /// `*label` or `&label`: an alternate return.
    AltReturn(u32),
    /// `NAME=value` (I/O control lists only).
    Keyword(String, SExpr),
}

/// A declared type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeName {
    Integer,
    Real,
    Double,
    Complex,
    /// `DOUBLE COMPLEX`, `COMPLEX*16`.
    DoubleComplex,
    Logical,
    Character,
}

impl TypeName {
    pub fn model(self) -> model::expr::Type {
        use model::expr::Type;
        match self {
            TypeName::Integer => Type::Integer,
            TypeName::Real => Type::Real,
            TypeName::Double => Type::Double,
            TypeName::Complex => Type::Complex,
            TypeName::DoubleComplex => Type::DoubleComplex,
            TypeName::Logical => Type::Logical,
            TypeName::Character => Type::Character,
        }
    }
}

/// One array bound `lo:hi` (`lo` absent means 1; `hi` absent means `*`).
#[derive(Debug, Clone, PartialEq)]
pub struct Dim {
    pub lo: Option<SExpr>,
    pub hi: Option<SExpr>,
}

/// A name in a declaration, with optional dimensions.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub name: String,
    pub dims: Option<Vec<Dim>>,
    /// Bytes of one datum, when the declaration gives them (`CHARACTER*8`, `REAL*8`, `X*4`,
    /// `DOUBLE COMPLEX`): a type statement's length, or the entity's own. `*(*)` is the name
    /// `*`, which no constant has.
    pub len: Option<SExpr>,
}

/// One IMPLICIT specification: a type for letter ranges (or NONE).
#[derive(Debug, Clone, PartialEq)]
pub enum Implicit {
    None,
    Ranges(Vec<(TypeName, Vec<(u8, u8)>)>),
}

/// The DO loop control `var = start, end [, step]`.
#[derive(Debug, Clone, PartialEq)]
pub struct DoControl {
    pub var: String,
    pub start: SExpr,
    pub end: SExpr,
    pub step: Option<SExpr>,
}

/// One statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Program(String),
    Subroutine(String, Vec<String>),
    Function(Option<TypeName>, String, Vec<String>),
    BlockData(Option<String>),
    Entry(String, Vec<String>),
    End,
    TypeDecl(TypeName, Vec<Entity>),
    Dimension(Vec<Entity>),
    Common(Vec<(String, Vec<Entity>)>),
    Parameter(Vec<(String, SExpr)>),
    Implicit(Implicit),
    External(Vec<String>),
    Intrinsic(Vec<String>),
    /// DATA, SAVE, EQUIVALENCE, INCLUDE: no run-time cost; the keyword is kept.
    NoCost(&'static str),
    Format,
    Assignment(SExpr, SExpr),
    AssignLabel(u32, String),
    Goto(u32),
    ComputedGoto(Vec<u32>, SExpr),
    AssignedGoto(String, Vec<u32>),
    ArithIf(SExpr, [u32; 3]),
    /// `IF (cond) stmt`; the offset is where `stmt` starts in the squeezed text.
    LogicalIf(SExpr, Box<Stmt>, usize),
    BlockIf(SExpr),
    ElseIf(SExpr),
    Else,
    EndIf,
    Do(Option<u32>, DoControl),
    DoWhile(Option<u32>, SExpr),
    EndDo,
    Continue,
    Call(String, Vec<Arg>),
    Return(Option<SExpr>),
    Stop,
    Pause,
    /// READ, WRITE, PRINT, OPEN, CLOSE, REWIND, BACKSPACE, ENDFILE, INQUIRE, with the
    /// expressions of its control and data lists.
    Io(&'static str, Vec<Arg>),
}

impl Stmt {
    /// Statements that may appear only before the first executable statement.
    pub fn is_specification(&self) -> bool {
        matches!(
            self,
            Stmt::TypeDecl(..)
                | Stmt::Dimension(_)
                | Stmt::Common(_)
                | Stmt::Parameter(_)
                | Stmt::Implicit(_)
                | Stmt::External(_)
                | Stmt::Intrinsic(_)
        ) || matches!(self, Stmt::NoCost(k) if *k != "DATA")
    }

    /// Statements that begin a program unit.
    pub fn is_unit_header(&self) -> bool {
        matches!(
            self,
            Stmt::Program(_) | Stmt::Subroutine(..) | Stmt::Function(..) | Stmt::BlockData(_)
        )
    }
}

//! opcost's shared vocabulary. The analyzer and the characterizer meet only here:
//! the parameter catalogue of Saavedra-Barrera's table 4.11 ([`catalogue`]), the
//! typed statement vocabulary ([`expr`]) and the counting rules both sides apply to it
//! ([`rules`], [`intrinsics`]), and the versioned file schemas ([`Characterization`],
//! [`ProgramStats`]); the statistics every crate shares ([`stats`]). No I/O, no timing.
//!
//! ```
//! use model::{expr::*, rules, Param};
//! let x = Operand::local("X", Type::Real);
//! let c = rules::count_assignment(&Expr::var(&x),
//!     &Expr::arith(ArithOp::Add, Expr::var(&x), Expr::var(&x)));
//! assert_eq!(c.get(Param::SRSL), 1);
//! assert_eq!(c.get(Param::ARSL), 1);
//! ```

pub mod catalogue;
pub mod characterization;
pub mod counts;
pub mod estimate;
pub mod expr;
pub mod files;
pub mod hardware;
pub mod intrinsics;
pub mod program_stats;
pub mod rules;
pub mod stats;

pub use catalogue::{Param, ParamDef, Region};
pub use characterization::Characterization;
pub use counts::OpCounts;
pub use estimate::Estimate;
pub use files::{load_versioned, parse_versioned, FormatError, LoadError, Versioned};
pub use program_stats::ProgramStats;

//! The column vocabulary of every CSV opcost writes (docs/exports.md): a column of this name
//! means the same in every command's export.

/// The part of a program a row belongs to (the program, a unit, a region).
pub const PART: &str = "part";
/// What kind of part: program, unit or region.
pub const PART_KIND: &str = "part_kind";
/// A program's name.
pub const PROGRAM: &str = "program";
/// A parameter's mnemonic from the catalogue (ARSL), TOTAL on a part's summary row, empty
/// for an operation outside the catalogue.
pub const MNEMONIC: &str = "mnemonic";
/// A parameter's number in the catalogue.
pub const NUMBER: &str = "number";
/// What an operation is, in words ("real (single) addition"), or what a row stands for.
pub const DESCRIPTION: &str = "description";
/// The catalogue's region of a parameter.
pub const REGION: &str = "region";
/// How many times an operation was counted (executions, or occurrences for static counts).
pub const COUNT: &str = "count";
/// Occurrences of an operation in the program's text.
pub const STATIC_COUNT: &str = "static_count";
/// Executions of an operation in a counting run.
pub const DYNAMIC_COUNT: &str = "dynamic_count";

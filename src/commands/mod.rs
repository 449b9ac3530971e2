//! One module per subcommand: parse-level arguments in, crate calls, printed report out.

pub mod characterize;

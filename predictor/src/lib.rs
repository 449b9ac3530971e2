//! The execution predictor (Saavedra-Barrera's sections 3.3, 6 and 7): combines a machine
//! characterization and a program's statistics into a run-time estimate with its variance
//! ([`predict`]), checks estimates against real runs ([`validate`]), and compares systems
//! ([`compare`]), with SVG charts ([`plot`]).

pub mod compare;
pub mod corpus;
pub mod inlining;
pub mod issue;
pub mod plot;
pub mod predict;
pub mod stats;
pub mod validate;

pub use predict::{predict, predict_program, PredictError, Prediction};

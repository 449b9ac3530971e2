//! The system characterizer.

//! The execution predictor (seed 004 section 6): filled by issue 5.

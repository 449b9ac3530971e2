//! The program analyzer (seed 004 section 5): filled by issue 4.

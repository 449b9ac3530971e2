//! X-Ray (seeds 002, 000): filled by issue 6.

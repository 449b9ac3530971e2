//! Operation counts: how often each parameter (and each uncharacterized kind of operation)
//! occurs in a statement, a test body, a basic block or a whole program run.

use crate::catalogue::Param;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::AddAssign;

/// Counts per parameter plus counts of operations outside the catalogue, by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpCounts {
    pub params: BTreeMap<Param, u64>,
    /// Operations the catalogue has no parameter for, by kind (e.g. "I/O statement",
    /// "complex arithmetic"); reported, never dropped.
    pub uncharacterized: BTreeMap<String, u64>,
}

impl OpCounts {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn one(p: Param) -> Self {
        let mut c = Self::new();
        c.add(p, 1);
        c
    }

    pub fn add(&mut self, p: Param, n: u64) {
        if n > 0 {
            *self.params.entry(p).or_insert(0) += n;
        }
    }

    pub fn add_uncharacterized(&mut self, kind: &str, n: u64) {
        if n > 0 {
            *self.uncharacterized.entry(kind.to_string()).or_insert(0) += n;
        }
    }

    pub fn get(&self, p: Param) -> u64 {
        self.params.get(&p).copied().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.params.is_empty() && self.uncharacterized.is_empty()
    }

    /// Every count multiplied by `n` (a statement executed n times).
    pub fn scaled(&self, n: u64) -> OpCounts {
        OpCounts {
            params: self
                .params
                .iter()
                .filter(|(_, &c)| c * n > 0)
                .map(|(&p, &c)| (p, c * n))
                .collect(),
            uncharacterized: self
                .uncharacterized
                .iter()
                .filter(|(_, &c)| c * n > 0)
                .map(|(k, &c)| (k.clone(), c * n))
                .collect(),
        }
    }

    /// These counts less `other`'s, never below zero (a body less its baseline body).
    pub fn minus(&self, other: &OpCounts) -> OpCounts {
        let mut out = OpCounts::new();
        for (&p, &n) in &self.params {
            out.add(p, n.saturating_sub(other.get(p)));
        }
        for (k, &n) in &self.uncharacterized {
            let o = other.uncharacterized.get(k).copied().unwrap_or(0);
            out.add_uncharacterized(k, n.saturating_sub(o));
        }
        out
    }

    pub fn total_characterized(&self) -> u64 {
        self.params.values().sum()
    }

    pub fn total_uncharacterized(&self) -> u64 {
        self.uncharacterized.values().sum()
    }
}

impl AddAssign<&OpCounts> for OpCounts {
    fn add_assign(&mut self, rhs: &OpCounts) {
        for (&p, &n) in &rhs.params {
            self.add(p, n);
        }
        for (k, &n) in &rhs.uncharacterized {
            self.add_uncharacterized(k, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_and_adding() {
        let mut a = OpCounts::one(Param::ARSL);
        a.add_uncharacterized("I/O statement", 1);
        let mut b = a.scaled(3);
        b += &OpCounts::one(Param::ARSL);
        assert_eq!(b.get(Param::ARSL), 4);
        assert_eq!(b.uncharacterized["I/O statement"], 3);
        assert_eq!(a.scaled(0), OpCounts::new());
    }
}

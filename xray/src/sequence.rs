//! Address sequences (X-Ray section 3): `<m0, S, N>` is N addresses S bytes apart, and a
//! sequence of sequences nests them. Here a sequence is a list of dimensions (stride, count),
//! innermost first; its addresses are every sum of `k_d * stride_d` with `k_d < count_d`,
//! relative to a 2 MiB aligned `m0`. The generated chase program walks exactly these.

/// What X-Ray knows about a measured cache level, as the constructions need it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    pub capacity_bytes: u64,
    pub associativity: u64,
    pub block_bytes: u64,
}

impl Geometry {
    /// The cache stride T = C / A: addresses T apart map to the same set (X-Ray lemma 1).
    pub fn way_bytes(&self) -> u64 {
        self.capacity_bytes / self.associativity.max(1)
    }
}

/// A sequence of sequences, innermost dimension first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence {
    pub dims: Vec<(u64, u64)>,
}

impl Sequence {
    /// `<m0, S, N>`.
    pub fn strided(stride: u64, count: u64) -> Self {
        Sequence {
            dims: vec![(stride, count)],
        }
    }

    pub fn elements(&self) -> u64 {
        self.dims.iter().map(|d| d.1).product()
    }

    /// Bytes from m0 to the end of the last element (8-byte elements).
    pub fn extent_bytes(&self) -> u64 {
        self.dims
            .iter()
            .map(|&(s, n)| s * n.saturating_sub(1))
            .sum::<u64>()
            + 8
    }

    /// Every byte offset of the sequence (for checks; the chase program computes its own).
    pub fn offsets(&self) -> Vec<u64> {
        let mut out = vec![0u64];
        for &(stride, count) in &self.dims {
            out = (0..count)
                .flat_map(|k| out.iter().map(move |o| o + k * stride))
                .collect();
        }
        out
    }

    /// The query line of the chase program (see chase.f90).
    pub fn query_line(&self, samples: usize, target_ns: u64) -> String {
        let mut line = format!("{samples} {target_ns} {}", self.dims.len());
        for (s, n) in &self.dims {
            line.push_str(&format!(" {s} {n}"));
        }
        line
    }

    /// Prepend inner copies `<m0, s, n>` (identity when n == 1).
    fn with_copies(mut self, copies: Option<(u64, u64)>) -> Self {
        if let Some((s, n)) = copies.filter(|c| c.1 > 1) {
            self.dims.insert(0, (s, n));
        }
        self
    }
}

/// The inner copies `<m0, s, n>` that make a sequence whose outer part has stride `stride` and
/// count `count` non-compact for every level in `upper` while leaving it unchanged for the
/// level below them (X-Ray section 5.2, lemma 6): s = min T_i and
/// n = max ceil((A_i + 1) / N) * T_i / s over the levels i with T_i < S.
pub fn upper_level_copies(upper: &[Geometry], stride: u64, count: u64) -> Option<(u64, u64)> {
    let inside: Vec<&Geometry> = upper.iter().filter(|g| g.way_bytes() < stride).collect();
    let s = inside.iter().map(|g| g.way_bytes()).min()?;
    let n = inside
        .iter()
        .map(|g| (g.associativity + 1).div_ceil(count.max(1)) * (g.way_bytes() / s))
        .max()?;
    Some((s, n))
}

/// `W*` of X-Ray section 5.2 for `W = <m0, S, N>` measured at the level below `upper`.
pub fn level_sequence(upper: &[Geometry], stride: u64, count: u64) -> Sequence {
    Sequence::strided(stride, count).with_copies(upper_level_copies(upper, stride, count))
}

/// The block-size probe of X-Ray figure 8, `<<m0, T, A>, C + delta, 2>`, with the copies
/// that defeat the upper levels (the same construction as [`level_sequence`], with N = A and
/// S = T).
pub fn block_sequence(level: &Geometry, upper: &[Geometry], delta: u64) -> Sequence {
    let t = level.way_bytes();
    Sequence {
        dims: vec![(t, level.associativity), (level.capacity_bytes + delta, 2)],
    }
    .with_copies(upper_level_copies(upper, t, level.associativity))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const L1: Geometry = Geometry {
        capacity_bytes: 32 << 10,
        associativity: 8,
        block_bytes: 64,
    };
    const L2: Geometry = Geometry {
        capacity_bytes: 1 << 20,
        associativity: 8,
        block_bytes: 64,
    };

    /// Addresses grouped by set for a cache: set index of a block address.
    fn per_set(offsets: &[u64], g: &Geometry) -> std::collections::HashMap<u64, HashSet<u64>> {
        let sets = g.way_bytes() / g.block_bytes;
        let mut m: std::collections::HashMap<u64, HashSet<u64>> = Default::default();
        for o in offsets {
            let block = o / g.block_bytes;
            m.entry(block % sets).or_default().insert(block);
        }
        m
    }
    fn compact(offsets: &[u64], g: &Geometry) -> bool {
        per_set(offsets, g)
            .values()
            .all(|b| b.len() as u64 <= g.associativity)
    }
    fn non_compact(offsets: &[u64], g: &Geometry) -> bool {
        per_set(offsets, g)
            .values()
            .all(|b| b.len() as u64 > g.associativity)
    }

    #[test]
    fn strided_sequence_has_theorem_1_thresholds() {
        // N_c = A * ceil(T / S), N_nc = (A + 1) * ceil(T / S).
        for s in [64u64, 512, 4096, 8192] {
            let per = L1.way_bytes().div_ceil(s).max(1);
            let nc = L1.associativity * per;
            assert!(compact(&Sequence::strided(s, nc).offsets(), &L1));
            assert!(!compact(&Sequence::strided(s, nc + 1).offsets(), &L1));
            assert!(non_compact(&Sequence::strided(s, nc + per).offsets(), &L1));
        }
    }

    #[test]
    fn level_sequence_keeps_lower_level_and_defeats_upper() {
        // Lemma 6: for every stride and count the algorithms use at L2.
        let mut s = 2 * L1.way_bytes();
        while s <= 2 * L2.way_bytes() {
            for n in 1..=40u64 {
                if (n - 1) * s < 2 * L1.capacity_bytes {
                    continue;
                }
                let w = Sequence::strided(s, n).offsets();
                let ws = level_sequence(&[L1], s, n).offsets();
                let distinct: HashSet<u64> = ws.iter().copied().collect();
                assert_eq!(distinct.len(), ws.len(), "S={s} N={n}: overlapping copies");
                assert_eq!(compact(&w, &L2), compact(&ws, &L2), "S={s} N={n}");
                assert!(non_compact(&ws, &L1), "S={s} N={n}");
            }
            s *= 2;
        }
    }

    #[test]
    fn block_probe_is_compact_exactly_from_the_block_size() {
        let up = [L1];
        for delta in [8u64, 16, 32, 64, 128] {
            let w = block_sequence(&L2, &up, delta).offsets();
            let distinct: HashSet<u64> = w.iter().copied().collect();
            assert_eq!(distinct.len(), w.len());
            assert_eq!(compact(&w, &L2), delta >= L2.block_bytes, "delta {delta}");
            assert!(non_compact(&w, &L1));
        }
    }

    #[test]
    fn extent_covers_the_last_offset() {
        let w = level_sequence(&[L1], 1 << 18, 9);
        assert_eq!(*w.offsets().iter().max().unwrap() + 8, w.extent_bytes());
        assert_eq!(w.elements() as usize, w.offsets().len());
    }
}

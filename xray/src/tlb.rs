//! The first-level data TLB (X-Ray section 6), measured as a cache of pages with the
//! algorithm of figure 6 on ordinary (not super) pages. Element k of `<m0, S, N>` is moved to
//! `k (S + B1)`: each lands in a different L1 set, so the sequence stays compact in L1 (the
//! X-Ray's staggering by the L1 block) and only TLB misses can slow it. As in figure 6, N
//! doubles at the first stride until the sequence is not compact, then S doubles and
//! bisection finds the smallest non-compact N at each S. While S is below the page size P
//! several elements share a page and N halves with each doubling; from S = P on every element
//! has its own page. The stop rule is therefore "N no longer halves" (N(2S) > 3/4 N(S)) rather
//! than X-Ray's "N unchanged": past the page size this CPU's TLB holds a few entries fewer
//! (AMD's TLBs coalesce neighbouring pages, and the L1 way predictor aliases), which the exact
//! rule would mistake for the halving of a set-associative TLB. Entries = N(P) - 1, page = P;
//! associativity is reported as the entries (fully associative, as first-level DTLBs are).

use crate::caches::{Chaser, Level};
use crate::decide::HitReference;
use crate::sequence::{Geometry, Sequence};
use crate::XrayError;
use model::hardware::TlbInfo;

/// Measure the first-level DTLB. `l1` is the measured L1 data cache (for the staggering and
/// the bound on N: more elements than L1 blocks would measure L1, not the TLB).
pub fn measure(
    chaser: &Chaser,
    l1: &Geometry,
    hit: &HitReference,
) -> Result<Option<TlbInfo>, XrayError> {
    let mut small = chaser.without_huge_pages();
    let max_elements = l1.capacity_bytes / l1.block_bytes.max(8);
    let block = l1.block_bytes.max(8);
    let mut level = Level::new(&mut small, &[], hit.clone());
    let mut compact_c =
        |stride: u64, count: u64, confirm: bool| -> Result<Option<bool>, XrayError> {
            if count <= 1 {
                return Ok(Some(true));
            }
            if count > max_elements {
                return Ok(None); // beyond what L1 can hold: no TLB answer
            }
            Ok(Some(level.is_compact_seq(
                &Sequence::strided(stride + block, count),
                confirm,
            )?))
        };
    let mut compact = |stride: u64, count: u64| compact_c(stride, count, false);
    let mut stride = 2048u64;
    let mut count = 1u64;
    loop {
        match compact(stride, count)? {
            None => return Ok(None),
            Some(true) => count *= 2,
            Some(false) => break,
        }
    }
    let (entries, page) = loop {
        let old = count;
        stride *= 2;
        if stride > 1 << 24 {
            return Ok(None);
        }
        let (mut lo, mut hi) = (1u64, old);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            match compact(stride, mid)? {
                None => return Ok(None),
                Some(true) => lo = mid,
                Some(false) => hi = mid,
            }
        }
        count = hi;
        if 4 * count > 3 * old {
            break (old - 1, stride / 2);
        }
    };
    // Noise only ever makes a compact sequence look non-compact: check upwards with
    // confirmed (three-round) decisions.
    let mut entries = entries;
    while entries < count + 8 && compact_c(page, entries + 1, true)? == Some(true) {
        entries += 1;
    }
    // The miss penalty: twice the entries, one per page.
    let beyond = Sequence::strided(page + block, (2 * entries).min(max_elements));
    let miss = small.time_one(&beyond, 1)?.min();
    Ok(Some(TlbInfo {
        entries: entries as u32,
        associativity: entries as u32,
        page_bytes: page,
        miss_penalty_ns: (miss - hit.latency_ns).max(0.0),
    }))
}

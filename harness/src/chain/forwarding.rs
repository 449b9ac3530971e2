//! Rule 31b: a chain carried through memory. At -O2 the compiler keeps a value in memory when
//! it cannot prove nothing else writes there: a seed updated through a dummy argument beside a
//! CHARACTER store (which may alias it) is loaded and stored back on every pass, as is a
//! counter in a dummy array. The stored value reaches the next load through the store buffer,
//! in about an L1 hit's time, so the loop's recurrence runs through that store and load. A
//! store and a load are linked when both run on every path of the pass, they name the same
//! base and index registers, and their addresses, followed through the constant steps the
//! pass gives those registers, are equal: in the same pass (the store first) or a pass apart
//! (the load first, its address plus the pass's step being the store's). Each linked address
//! is one more register of the chain: the store writes it, the load waits for it. A link on
//! some paths only is left out: whenever another path runs the chain breaks, and out-of-order
//! execution overlaps the pieces (an LCS table's `MAX(C(I-1,J), C(I,J-1))` through memory runs
//! 10 cycles a pass when no match breaks it, 3.2 when one pass in six matches).

use super::{register, Step, GPRS, MEMORY_SLOTS, REGS};
use crate::loops::{address_registers, increment, loads_and_stores, parse_int, Insn};
use std::collections::BTreeMap;

/// Where a memory operand points but for its constant part: its symbol, and its base and
/// index registers each with the factor it moves the address by.
type Place = (String, Vec<(u8, i64)>);

/// Each general-purpose register's offset from its value at the head (None: not a constant
/// offset on every path there).
type Offsets = [Option<i64>; GPRS];

/// One memory operand of one instruction.
struct Access {
    position: usize,
    place: Place,
    offset: i64,
    /// What a pass adds to the address (None: a register not stepped by a constant).
    step: Option<i64>,
    stores: bool,
    loads: bool,
}

/// Link the stores and loads of `insns` (whose dependences are `steps`, with the same
/// control edges) that pass a value through memory, as registers `REGS - MEMORY_SLOTS`
/// onwards.
pub(super) fn link(insns: &[&Insn], steps: &mut [Step]) {
    let Some((before, per_pass)) = offsets(insns, steps) else {
        return;
    };
    let every_pass = on_every_pass(steps);
    let accesses: Vec<Access> = insns
        .iter()
        .enumerate()
        .filter(|(k, _)| every_pass[*k])
        .flat_map(|(k, insn)| accesses(k, insn, &before[k], &per_pass))
        .collect();
    let mut slots: BTreeMap<(Place, i64), u8> = BTreeMap::new();
    let mut links: Vec<(usize, u8)> = Vec::new();
    for load in accesses.iter().filter(|a| a.loads) {
        for store in accesses
            .iter()
            .filter(|a| a.stores && a.place == load.place)
        {
            let same_pass = store.position < load.position && store.offset == load.offset;
            let pass_apart = store.position >= load.position
                && load.step.is_some_and(|s| load.offset + s == store.offset);
            if !(same_pass || pass_apart) {
                continue;
            }
            let next = (REGS - MEMORY_SLOTS + slots.len()) as u8;
            let key = (store.place.clone(), store.offset);
            if !slots.contains_key(&key) && slots.len() == MEMORY_SLOTS {
                continue;
            }
            let slot = *slots.entry(key).or_insert(next);
            links.push((load.position, slot));
        }
    }
    for (position, slot) in links {
        steps[position].address.push(slot);
    }
    for store in accesses.iter().filter(|a| a.stores) {
        if let Some(&slot) = slots.get(&(store.place.clone(), store.offset)) {
            let s = &mut steps[store.position];
            if !store.loads {
                // A plain store: the value is its data register, handed on as it is (the
                // load that takes it pays the forwarding).
                s.address.clear();
                s.loads = false;
                s.latency = super::Latency::Free;
            }
            let data = insns[store.position]
                .operands
                .split_last()
                .map(|(_, src)| src);
            s.reads
                .extend(data.into_iter().flatten().filter_map(|o| register(o)));
            s.writes.push(slot);
        }
    }
}

/// Whether each instruction runs on every path from the head back to it: the paths through
/// it are all the paths of a pass.
fn on_every_pass(steps: &[Step]) -> Vec<bool> {
    let n = steps.len();
    let mut to = vec![0u128; n];
    if let Some(head) = to.first_mut() {
        *head = 1;
    }
    for k in 0..n {
        for &j in &steps[k].next {
            to[j] = to[j].saturating_add(to[k]);
        }
    }
    let mut from = vec![0u128; n];
    for k in (0..n).rev() {
        let later = steps[k].next.iter().map(|&j| from[j]);
        from[k] = later.fold(u128::from(steps[k].latch), u128::saturating_add);
    }
    // Too many paths to count (saturated): none is known to be on all of them.
    let all = from.first().copied().filter(|&a| a > 0 && a < u128::MAX);
    (0..n)
        .map(|k| all.is_some_and(|a| to[k].saturating_mul(from[k]) == a))
        .collect()
}

/// The registers' offsets from the head before each instruction, and what a pass adds to
/// each (the same on every path back to the head, or None). None for an empty body or one
/// with no way back to its head.
fn offsets(insns: &[&Insn], steps: &[Step]) -> Option<(Vec<Offsets>, Offsets)> {
    let n = insns.len();
    let mut incoming: Vec<Option<Offsets>> = vec![None; n];
    *incoming.first_mut()? = Some([Some(0); GPRS]);
    let mut before = vec![[None; GPRS]; n];
    let mut end: Option<Offsets> = None;
    let merge = |into: &mut Option<Offsets>, from: &Offsets| match into {
        Some(v) => v.iter_mut().zip(from).for_each(|(a, b)| {
            if *a != *b {
                *a = None;
            }
        }),
        None => *into = Some(*from),
    };
    for k in 0..n {
        let Some(mut state) = incoming[k].take() else {
            continue;
        };
        before[k] = state;
        let stepped = increment(insns[k]).and_then(|(r, by)| Some((followed(&r)?, by)));
        for &w in steps[k].writes.iter().filter(|&&w| (w as usize) < GPRS) {
            state[w as usize] = match stepped {
                Some((r, by)) if r == w => state[w as usize].map(|o| o + by),
                _ => None,
            };
        }
        for &j in &steps[k].next {
            merge(&mut incoming[j], &state);
        }
        if steps[k].latch {
            merge(&mut end, &state);
        }
    }
    Some((before, end?))
}

/// A general-purpose register (64-bit name, no `%`) as the chain follows it; None for one it
/// does not follow.
fn followed(name: &str) -> Option<u8> {
    register(&format!("%{name}")).filter(|&r| (r as usize) < GPRS)
}

/// The memory operands of the k-th instruction whose addresses are known relative to the
/// head, each loaded and stored as [`loads_and_stores`] says of its instruction (x86 has one
/// memory operand an instruction; only the last operand is stored). Pushes, pops, calls and
/// jumps reach memory no chain is followed through.
fn accesses(k: usize, insn: &Insn, before: &Offsets, per_pass: &Offsets) -> Vec<Access> {
    let (m, ops) = (insn.mnemonic.as_str(), insn.operands.as_slice());
    if ["push", "pop", "call", "j"]
        .iter()
        .any(|p| m.starts_with(p))
    {
        return Vec::new();
    }
    let (loads, stores) = loads_and_stores(m, ops);
    if !(loads || stores) {
        return Vec::new();
    }
    let last = ops.len().saturating_sub(1);
    ops.iter()
        .enumerate()
        .filter_map(|(i, operand)| {
            let (place, offset, step) = address(operand, before, per_pass)?;
            let stores = stores && i == last;
            Some(Access {
                position: k,
                place,
                offset,
                step,
                stores,
                loads,
            })
        })
        .collect()
}

/// A memory operand's place, its offset from the head and its step a pass; None for a
/// register or immediate operand, or an address through a register whose offset is unknown.
fn address(
    operand: &str,
    before: &Offsets,
    per_pass: &Offsets,
) -> Option<(Place, i64, Option<i64>)> {
    let (disp, _) = operand.trim().split_once('(')?;
    // A register not followed (a segment, a mask) leaves the address unknown.
    let registers: Vec<(u8, i64)> = address_registers(operand)
        .into_iter()
        .map(|(name, factor)| Some((followed(&name)?, factor)))
        .collect::<Option<_>>()?;
    // `x_+8` or `-8`: a symbol and a number.
    let (symbol, number) = match disp.rfind(['+', '-']).filter(|&p| p > 0) {
        Some(p) => (&disp[..p], parse_int(disp[p..].trim_start_matches('+'))?),
        None => match parse_int(disp) {
            Some(n) => ("", n),
            None => (disp, 0),
        },
    };
    let moved = |offsets: &Offsets| -> Option<i64> {
        registers
            .iter()
            .map(|&(r, factor)| Some(factor * offsets[r as usize]?))
            .sum()
    };
    let offset = number + moved(before)?;
    let step = moved(per_pass);
    Some(((symbol.to_string(), registers), offset, step))
}

//! Shared test helpers: edge values and element strategies.
#![allow(dead_code)]

use gfpf_field::{Element, Field};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rug::Integer;
use rug::ops::Pow;

/// The edge values of DESIGN §4 (0, 1, p-1, r-1, r, r^i, p-r, ...), as integers.
pub fn edge_integers<const K: usize>(f: &Field<K>) -> Vec<Integer> {
    let p = f.p().clone();
    let r = Integer::from(f.r());
    let mut v = vec![
        Integer::ZERO,
        Integer::from(1),
        Integer::from(2),
        Integer::from(&p - 1u32),
        Integer::from(&p - 2u32),
        Integer::from(&r - 1u32),
        r.clone(),
        Integer::from(&r + 1u32),
        Integer::from(&p - &r),
        Integer::from(&p - 1u32) / 2u32,
        Integer::from(u64::MAX),
        // top digit r - 1, all others 0
        Integer::from(&r - 1u32) * r.clone().pow(K as u32 - 1),
        // top digit 1 (the smallest value with a top digit)
        r.clone().pow(K as u32 - 1),
    ];
    for i in 2..K as u32 {
        v.push(r.clone().pow(i));
    }
    v
}

pub fn edge_elements<const K: usize>(f: &Field<K>) -> Vec<Element<K>> {
    edge_integers(f)
        .iter()
        .map(|x| f.from_integer(x).expect("edge values are below p"))
        .collect()
}

/// The edge values with the powers r^i (2 ≤ i < k) spread out from k = 64:
/// those next to the ends and to each multiple of k/16, 34 powers in all
/// (every power below that). For tests that take every pair: at k = 128 the
/// full list's 139 values made 19 321 pairs (13 s of the field tests).
pub fn spread_edge_elements<const K: usize>(f: &Field<K>) -> Vec<Element<K>> {
    const BASE: usize = 13;
    let step = (K / 16).max(1);
    let edges = edge_elements(f);
    debug_assert_eq!(
        edges.len(),
        BASE + K - 2,
        "the powers r^2 … r^(k−1) follow the base values"
    );
    let kept = |i: usize| i < 4 || i % step <= 1 || i + 2 >= K;
    edges
        .iter()
        .enumerate()
        .filter(|&(at, _)| at < BASE || kept(at - BASE + 2))
        .map(|(_, x)| *x)
        .collect()
}

/// Elements: edge values, uniform values, and digit vectors built from
/// carry-prone digits (0, 1, r-1, r-2) mixed with random ones.
pub fn arb_element<const K: usize>(f: &'static Field<K>) -> BoxedStrategy<Element<K>> {
    let r = f.r();
    let digit = prop_oneof![Just(0u64), Just(1u64), Just(r - 1), Just(r - 2), (0..r)];
    prop_oneof![
        1 => proptest::sample::select(edge_elements(f)),
        2 => any::<u64>().prop_map(move |seed| f.random(&mut StdRng::seed_from_u64(seed))),
        1 => proptest::collection::vec(digit, K).prop_map(move |d| {
            f.element(d.try_into().expect("K digits")).expect("digits below r")
        }),
    ]
    .boxed()
}

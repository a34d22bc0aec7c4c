//! The time model's instruction charges for the word-size NTT's kernels
//! (kernels/gfpf_ntt.cu): a round's group, its butterflies, a data word's
//! access to device memory, the tensor cores' tile, each beside its
//! shared-memory words, which the model charges apart (2 instructions a
//! word). `cargo xtask gpu-model` charges them, and `cargo xtask kernels
//! --probe --preset ntt` prints them beside what probe kernels' loops give
//! in machine code ([`crate::probes::count_ntt`]); a test holds them to it.

// The probes (`cargo xtask kernels --probe --preset ntt`, NVRTC 12.9 with
// `--device-int128`, sm_90, nvdisasm 13.5, 2026-11-30): a loop's
// instructions an iteration, and each charge's fit to them with the
// shared-memory words the emulator counts (2 instructions each), which
// differ from the machine code's where ptxas pairs two of w16's words in
// one load.

/// SASS instructions of a word-size NTT butterfly on 32-bit words in
/// registers with its share of its round's twiddles (kernels/gfpf_ntt.cu,
/// `gfpf_ntt_round_stage`), inverse: an add and a VIADDMNMX for the sum
/// and the difference each, a Montgomery product (three IMAD, a
/// VIADDMNMX), a Shoup product a twiddle. A round's group from the tile to
/// the tile is 431 instructions at radix 16 (54 shared words counted) and
/// 189 at radix 8 (24): 9.1 a butterfly and [`NTT_GROUP_INSTRUCTIONS`] a
/// group (radix 4: 83 counted, 88 charged). A pointwise product is counted
/// as one.
pub const NTT_BUTTERFLY_INSTRUCTIONS: f64 = 9.1;

/// [`NTT_BUTTERFLY_INSTRUCTIONS`] forward, whose difference offset by q
/// goes to the product unreduced: radix 16 399 instructions, radix 8 177.
pub const NTT_FORWARD_BUTTERFLY_INSTRUCTIONS: f64 = 8.1;

/// SASS instructions of a word-size NTT round's group on 32-bit words
/// beside its butterflies and shared words: its rows' places, its
/// twiddles' base (a table read and a product), the loop (same probes,
/// forward and inverse alike).
pub const NTT_GROUP_INSTRUCTIONS: f64 = 31.8;

/// SASS instructions of a word-size NTT's data word read from or written to
/// device memory by its group, as a shared word takes: its address (one
/// IMAD.WIDE.U32 from the group's first, `GfpfNttRows`) and the access.
/// The 32-bit kernel's groups take that (kernels/gfpf_ntt.cu, NVRTC 12.9,
/// sm_90, nvdisasm 13.5, 2026-11-30); the 64-bit and FP64 kernels', which
/// index from the transform's first word, take more: a floor for them. A
/// pointwise product's second word is charged so (its load and its
/// pointer's step).
// The time model's alone: no probe runs a group from device memory.
#[cfg_attr(not(feature = "model"), allow(dead_code))]
pub const NTT_GLOBAL_WORD_INSTRUCTIONS: f64 = 2.0;

/// SASS instructions of a word-size NTT's data word (32-bit) moved between
/// device memory and the tile in a loop of its own (`gfpf_ntt_tile_in`,
/// `gfpf_ntt_tile_out`: a pointer's step, the access, the tile word's
/// place, the loop's share), beside its shared word: in 10 instructions a
/// word, out 8 (a loop of four words).
pub const NTT_TILE_WORD_INSTRUCTIONS: f64 = 7.0;

/// [`NTT_TILE_WORD_INSTRUCTIONS`] for 64-bit words, whose loops make each
/// word's place from the tile's (`t.at(w)`): in 15, out 13.5.
pub const NTT62_TILE_WORD_INSTRUCTIONS: f64 = 12.0;

/// [`NTT_TILE_WORD_INSTRUCTIONS`] in FP64, each word converted as it moves
/// too: in 17, out 19.75.
pub const NTT50_TILE_WORD_INSTRUCTIONS: f64 = 16.5;

/// [`NTT_BUTTERFLY_INSTRUCTIONS`] for 64-bit words (primes c·2^32 + 1
/// below 2^62, Harvey's lazy butterflies on values in [0, 2q)), inverse:
/// a 64-bit add reduced against 2q, a difference offset by 2q and reduced,
/// a Montgomery product word by word left in [0, 2q) (a 64 × 64-bit
/// product in four IMAD.WIDE, two 32 × 30-bit steps), its share of its
/// round's Shoup twiddles. A group is 731 instructions at radix 8 and 281
/// at radix 4 (the kernel's rounds; at radix 16 ptxas spilled 216 bytes
/// within 64 registers): 52.75 a butterfly and
/// [`NTT62_GROUP_INSTRUCTIONS`] a group.
pub const NTT62_BUTTERFLY_INSTRUCTIONS: f64 = 52.75;

/// [`NTT62_BUTTERFLY_INSTRUCTIONS`] forward, the difference not reduced:
/// radix 8 659 instructions, radix 4 258.
pub const NTT62_FORWARD_BUTTERFLY_INSTRUCTIONS: f64 = 46.6;

/// [`NTT_GROUP_INSTRUCTIONS`] for 64-bit words (same probes: 50 inverse,
/// 51.5 forward).
pub const NTT62_GROUP_INSTRUCTIONS: f64 = 51.0;

/// [`NTT_BUTTERFLY_INSTRUCTIONS`] in FP64 (primes c·2^32 + 1 below 2^50,
/// signed values in (−q, q)), inverse: a product of six DMUL, DFMA and
/// DADD, the sum and the difference each reduced by an FMA's rounding, its
/// share of its round's twiddles. A group is 280 instructions at radix 8
/// and 114 at radix 4 (at radix 16 ptxas spilled 316 bytes within 64
/// registers): 17.25 a butterfly and [`NTT50_GROUP_INSTRUCTIONS`] a group.
/// About a 31-bit butterfly's cost a bit of the prime, a third of a 62-bit
/// one's.
pub const NTT50_BUTTERFLY_INSTRUCTIONS: f64 = 17.25;

/// [`NTT50_BUTTERFLY_INSTRUCTIONS`] forward, the difference not reduced:
/// radix 8 244 instructions, radix 4 102.
pub const NTT50_FORWARD_BUTTERFLY_INSTRUCTIONS: f64 = 14.25;

/// [`NTT_GROUP_INSTRUCTIONS`] in FP64 (same probes).
pub const NTT50_GROUP_INSTRUCTIONS: f64 = 25.0;

/// SASS instructions of a lane's share of a tensor-core DFT_16 of 8 groups
/// (`gfpf_ntt_mma_round`: eight IMMA, the recombination and Montgomery
/// reduction of four outputs, the addresses, the loop and its `__syncwarp`)
/// beside its shared-memory accesses (4 words in, 4 out, 8 16-byte loads of
/// the left operands: [`NTT_MMA_TILE_SHARED_WORDS`] the emulator counts).
/// Its loop is 70 instructions: 8.75 an element, against 27 for a group of
/// a round of radix 16 in registers.
pub const NTT_MMA_TILE_INSTRUCTIONS: f64 = 38.0;

/// The shared-memory words the emulator counts for a lane's share of a
/// tensor-core DFT_16 of 8 groups: a 16-byte load one.
pub const NTT_MMA_TILE_SHARED_WORDS: f64 = 16.0;

/// The word a kernel computes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NttWordKind {
    /// Primes below 2^31 in 32-bit words (`gfpf_ntt31_stages`).
    Bits31,
    /// Primes below 2^62 in 64-bit words (`gfpf_ntt62_stages`).
    Bits62,
    /// Primes below 2^50 in FP64 (`gfpf_ntt50_stages`).
    Fp50,
}

impl NttWordKind {
    /// A butterfly's charge, forward or inverse.
    pub fn butterfly(self, inverse: bool) -> f64 {
        match self {
            NttWordKind::Bits31 if inverse => NTT_BUTTERFLY_INSTRUCTIONS,
            NttWordKind::Bits31 => NTT_FORWARD_BUTTERFLY_INSTRUCTIONS,
            NttWordKind::Bits62 if inverse => NTT62_BUTTERFLY_INSTRUCTIONS,
            NttWordKind::Bits62 => NTT62_FORWARD_BUTTERFLY_INSTRUCTIONS,
            NttWordKind::Fp50 if inverse => NTT50_BUTTERFLY_INSTRUCTIONS,
            NttWordKind::Fp50 => NTT50_FORWARD_BUTTERFLY_INSTRUCTIONS,
        }
    }

    /// A word's charge moved through the tile in a loop of its own.
    pub fn tile_word(self) -> f64 {
        match self {
            NttWordKind::Bits31 => NTT_TILE_WORD_INSTRUCTIONS,
            NttWordKind::Bits62 => NTT62_TILE_WORD_INSTRUCTIONS,
            NttWordKind::Fp50 => NTT50_TILE_WORD_INSTRUCTIONS,
        }
    }

    /// A group's charge beside its butterflies and words.
    pub fn group(self) -> f64 {
        match self {
            NttWordKind::Bits31 => NTT_GROUP_INSTRUCTIONS,
            NttWordKind::Bits62 => NTT62_GROUP_INSTRUCTIONS,
            NttWordKind::Fp50 => NTT50_GROUP_INSTRUCTIONS,
        }
    }

    fn of_bits(bits: &str) -> Option<NttWordKind> {
        Some(match bits {
            "31" => NttWordKind::Bits31,
            "62" => NttWordKind::Bits62,
            "50" => NttWordKind::Fp50,
            _ => return None,
        })
    }
}

/// A loop of the stage kernels that a probe kernel runs alone
/// (xtask/src/ntt_probes.cu), one iteration of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NttLoop {
    /// A round's group of 2^`log2_rows` rows from the tile to the tile.
    Group {
        /// The word.
        word: NttWordKind,
        /// log2 of the group's rows (the round's stages).
        log2_rows: u32,
        /// The inverse's butterflies, else the forward's.
        inverse: bool,
    },
    /// A word read from device memory into the tile.
    TileIn(NttWordKind),
    /// A word read from device memory times its twin there (the pointwise
    /// product), into the tile.
    Pointwise(NttWordKind),
    /// A word written from the tile to device memory.
    TileOut(NttWordKind),
    /// The tensor cores' DFT_16 of 8 groups (32-bit words).
    MmaTile,
}

/// How a probe's count and the model's charge must agree
/// ([`NttLoop::agreement`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Agreement {
    /// Within this fraction of the charge.
    Within(f64),
    /// The charge is a ceiling: the machine code takes at most it.
    Ceiling,
}

impl NttLoop {
    /// The loop a probe kernel runs, by its name less `gfpf_probe_`
    /// (`ntt31_radix4_forward`, `ntt62_pointwise`, `ntt50_tile_out`,
    /// `ntt31_mma`).
    pub fn of_probe(name: &str) -> Option<NttLoop> {
        let rest = name.strip_prefix("ntt")?;
        let (bits, what) = rest.split_once('_')?;
        if what == "mma" {
            return (bits == "31").then_some(NttLoop::MmaTile);
        }
        let word = NttWordKind::of_bits(bits)?;
        match what {
            "pointwise" => return Some(NttLoop::Pointwise(word)),
            "tile_in" => return Some(NttLoop::TileIn(word)),
            "tile_out" => return Some(NttLoop::TileOut(word)),
            _ => {}
        }
        let (radix, direction) = what.strip_prefix("radix")?.split_once('_')?;
        Some(NttLoop::Group {
            word,
            log2_rows: radix.parse().ok().filter(|r| (1..=4).contains(r))?,
            inverse: match direction {
                "forward" => false,
                "inverse" => true,
                _ => return None,
            },
        })
    }

    /// What the model charges an iteration beside its shared-memory words:
    /// a group its constant and its butterflies (2^(r−1)·r); a word moved
    /// through the tile its word's charge ([`NttWordKind::tile_word`]), and
    /// with its pointwise product its twin's too and a product, counted as
    /// an inverse butterfly (as `GfpfNttPointwise::load` counts them); the
    /// tensor cores' tile its constant.
    pub fn charge(self) -> f64 {
        match self {
            NttLoop::Group {
                word,
                log2_rows,
                inverse,
            } => {
                let butterflies = f64::from((1u32 << (log2_rows - 1)) * log2_rows);
                word.group() + butterflies * word.butterfly(inverse)
            }
            NttLoop::TileIn(word) | NttLoop::TileOut(word) => word.tile_word(),
            NttLoop::Pointwise(word) => 2.0 * word.tile_word() + word.butterfly(true),
            NttLoop::MmaTile => NTT_MMA_TILE_INSTRUCTIONS,
        }
    }

    /// The shared-memory words the emulator counts an iteration: a group
    /// its 2^r rows in and out and two words of each of w16's powers its
    /// stages take (2^r − 1 − r of them); a word through the tile one; the
    /// tensor cores' tile [`NTT_MMA_TILE_SHARED_WORDS`].
    pub fn shared_words(self) -> f64 {
        match self {
            NttLoop::Group { log2_rows, .. } => {
                let rows = 1u32 << log2_rows;
                f64::from(2 * rows + 2 * (rows - 1 - log2_rows))
            }
            NttLoop::TileIn(_) | NttLoop::Pointwise(_) | NttLoop::TileOut(_) => 1.0,
            NttLoop::MmaTile => NTT_MMA_TILE_SHARED_WORDS,
        }
    }

    /// The model's instructions an iteration: its charge and 2 a shared word.
    pub fn instructions(self) -> f64 {
        self.charge() + 2.0 * self.shared_words()
    }

    /// How the probe's instructions an iteration must agree with
    /// [`NttLoop::instructions`]: a group within 7% (the kernels' two
    /// largest radices fit the butterflies' and groups' charges, the 32-bit
    /// radix 4 lands 5% from them and radix 2 7%); a word through the tile,
    /// alone or with its pointwise product, within 15% (in and out share a
    /// charge; the 32-bit twin's load is cheaper than a word alone); FP64's
    /// pointwise product, one product where the integers' take two, a
    /// ceiling.
    pub fn agreement(self) -> Agreement {
        match self {
            NttLoop::Group { .. } | NttLoop::MmaTile => Agreement::Within(0.07),
            NttLoop::Pointwise(NttWordKind::Fp50) => Agreement::Ceiling,
            NttLoop::TileIn(_) | NttLoop::TileOut(_) | NttLoop::Pointwise(_) => Agreement::Within(0.15),
        }
    }

    /// The model's iterations in one of the probe's loop's, whose body has
    /// `global_stores` stores to device memory: a loop of stores that ptxas
    /// unrolled moves a word a store (four at 32 bits), the others one.
    pub fn iterations(self, global_stores: u64) -> f64 {
        match self {
            NttLoop::TileOut(_) => global_stores.max(1) as f64,
            _ => 1.0,
        }
    }

    /// Whether the probe's `instructions` an iteration agree with the model.
    pub fn agrees(self, instructions: f64) -> bool {
        let model = self.instructions();
        match self.agreement() {
            Agreement::Within(fraction) => (instructions - model).abs() <= fraction * model,
            Agreement::Ceiling => instructions <= model,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_name_the_loops_they_run() {
        assert_eq!(
            NttLoop::of_probe("ntt31_radix4_forward"),
            Some(NttLoop::Group {
                word: NttWordKind::Bits31,
                log2_rows: 4,
                inverse: false
            })
        );
        assert_eq!(
            NttLoop::of_probe("ntt50_pointwise"),
            Some(NttLoop::Pointwise(NttWordKind::Fp50))
        );
        assert_eq!(
            NttLoop::of_probe("ntt62_tile_out"),
            Some(NttLoop::TileOut(NttWordKind::Bits62))
        );
        assert_eq!(NttLoop::of_probe("ntt31_mma"), Some(NttLoop::MmaTile));
        for name in [
            "ntt62_mma",
            "ntt31_radix4_sideways",
            "ntt31_radix5_forward",
            "ntt40_pointwise",
            "tile_mul",
        ] {
            assert_eq!(NttLoop::of_probe(name), None, "{name}");
        }
    }

    /// A radix-16 group of 32-bit words: 32 butterflies, 16 rows in and
    /// out, w16's 11 powers (7 + 3 + 1) two words each.
    #[test]
    fn a_group_is_charged_its_butterflies_and_words() {
        let group = NttLoop::of_probe("ntt31_radix4_forward").unwrap();
        assert_eq!(group.shared_words(), 54.0);
        let want = NTT_GROUP_INSTRUCTIONS + 32.0 * NTT_FORWARD_BUTTERFLY_INSTRUCTIONS + 108.0;
        assert!((group.instructions() - want).abs() < 1e-9);
        assert!(group.agrees(want * 1.06) && !group.agrees(want * 1.08));
        let ceiling = NttLoop::Pointwise(NttWordKind::Fp50);
        assert!(ceiling.agrees(ceiling.instructions() / 2.0) && !ceiling.agrees(ceiling.instructions() + 1.0));
    }
}

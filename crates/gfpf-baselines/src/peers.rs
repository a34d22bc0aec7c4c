//! NTL and FLINT side by side with gfpf: the C++ harness `peers/peers.cpp`
//! (embedded in this crate), how to build and run it, and the inputs and
//! checksum it shares with gfpf. Used by the `peers` bench and by `gfpf
//! bench`.
//!
//! The harness is built with the system C++ compiler (`$CXX`, else `g++`)
//! against the Debian/Ubuntu packages `libflint-dev libntl-dev` (GMP comes
//! with them). Where they are missing, [`Harness::build`] returns an error
//! that says so, and callers skip the comparison with that message.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use gfpf_field::{Element, Field};
use rug::Integer;
use rug::integer::Order;

/// The harness source, written next to the program it compiles to, so
/// that an installed `gfpf` needs no checkout.
const SOURCE: &str = include_str!("../peers/peers.cpp");

/// Start of the generator states (see [`inputs`]); the same constant as the harness.
const SEED: u64 = 0x5EED_0000_0000_0000;

/// The point at which products are evaluated for [`checksum`].
const CHECK_POINT: u64 = 0x9E37_79B9_7F4A_7C15;

/// What to install where the harness cannot be built.
pub const INSTALL_HINT: &str = "apt-get install -y g++ libflint-dev libntl-dev";

/// SplitMix64 (Steele, Lea, Flood), the generator both sides use for inputs.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The two operands of the n × n product the harness times: coefficient i
/// of each is the next `bits(p)/64 + 2` SplitMix64 words (little-endian)
/// reduced mod p, from state `SEED ^ 2n` for a and `SEED ^ (2n + 1)` for b.
pub fn inputs<const K: usize>(field: &Field<K>, n: usize) -> (Vec<Element<K>>, Vec<Element<K>>) {
    let words = field.bits() as usize / 64 + 2;
    let poly = |mut state: u64| -> Vec<Element<K>> {
        let mut buf = vec![0u64; words];
        (0..n)
            .map(|_| {
                buf.iter_mut().for_each(|w| *w = splitmix64(&mut state));
                field.from_integer_reduced(&Integer::from_digits(&buf, Order::Lsf))
            })
            .collect()
    };
    let n64 = n as u64;
    (poly(SEED ^ (2 * n64)), poly(SEED ^ (2 * n64 + 1)))
}

/// The product evaluated at a fixed point mod p (Horner), in decimal: what
/// the harness prints for each library's product, so a run confirms that
/// all of them computed the same thing.
pub fn checksum<const K: usize>(field: &Field<K>, coefficients: &[Element<K>]) -> String {
    let p = field.p();
    let t = Integer::from(CHECK_POINT);
    let mut h = Integer::new();
    for c in coefficients.iter().rev() {
        h *= &t;
        h += field.to_integer(c);
        h %= p;
    }
    h.to_string()
}

/// One library's timing of one product size, as the harness reports it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PeerTiming {
    /// "NTL" or "FLINT".
    pub library: String,
    /// The library's version string.
    pub version: String,
    /// The GMP version it ran on.
    pub gmp: String,
    /// Coefficients per operand.
    pub n: usize,
    /// Threads the library was allowed.
    pub threads: usize,
    /// Timed repetitions.
    pub reps: usize,
    /// Median time in milliseconds.
    pub median_ms: f64,
    /// Fastest time in milliseconds.
    pub min_ms: f64,
    /// [`checksum`] of the library's product.
    pub checksum: String,
}

/// A library the harness can time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerLibrary {
    /// NTL's `ZZ_pX` `mul`.
    Ntl,
    /// FLINT's `fmpz_mod_poly_mul`.
    Flint,
}

impl PeerLibrary {
    /// The harness's `--only=` value.
    fn flag(self) -> &'static str {
        match self {
            PeerLibrary::Ntl => "--only=ntl",
            PeerLibrary::Flint => "--only=flint",
        }
    }
}

/// The built harness program.
#[derive(Debug, Clone)]
pub struct Harness {
    program: PathBuf,
    /// `Some` to time one library only.
    only: Option<PeerLibrary>,
}

impl Harness {
    /// Compiles the harness into `out_dir` (rebuilding only when the source is
    /// newer). The error says what is missing and how to install it.
    ///
    /// Safe to call from several threads and processes at once: builds in one
    /// process are serialised, and each compiles to a private file that is
    /// renamed into place, so nobody executes a half-written program (which
    /// fails with "Text file busy").
    pub fn build(out_dir: &Path) -> Result<Self, String> {
        Self::build_against(out_dir, None)
    }

    /// The harness linked against the FLINT installed under `prefix` (for
    /// instance a FLINT 3 built from source with `./configure --enable-avx2
    /// --prefix=…`, found through `FLINT_PREFIX`), NTL and GMP from the system.
    /// Its FLINT timings report FLINT's own version string.
    pub fn build_with_flint(out_dir: &Path, prefix: &Path) -> Result<Self, String> {
        Self::build_against(out_dir, Some(prefix))
    }

    fn build_against(out_dir: &Path, flint_prefix: Option<&Path>) -> Result<Self, String> {
        static BUILDING: Mutex<()> = Mutex::new(());
        let _guard = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        std::fs::create_dir_all(out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
        // The source on disk is rewritten only when it changed, so that an
        // unchanged harness is not compiled again.
        let source = out_dir.join("peers.cpp");
        if std::fs::read_to_string(&source).ok().as_deref() != Some(SOURCE) {
            // Renamed into place, so that another process never compiles a
            // half-written source.
            let private = out_dir.join(format!("peers.cpp.{}.tmp", std::process::id()));
            std::fs::write(&private, SOURCE)
                .and_then(|()| std::fs::rename(&private, &source))
                .map_err(|e| format!("cannot write {}: {e}", source.display()))?;
        }
        let program = out_dir.join(if flint_prefix.is_some() {
            "peers-flint-prefix"
        } else {
            "peers"
        });
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        if let (Some(built), Some(src)) = (modified(&program), modified(&source))
            && built >= src
        {
            return Ok(Self { program, only: None });
        }
        let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
        let private = out_dir.join(format!("peers.{}.tmp", std::process::id()));
        let mut command = Command::new(&cxx);
        command.args(["-O2", "-std=c++17", "-o"]).arg(&private).arg(&source);
        if let Some(prefix) = flint_prefix {
            let (include, lib) = (prefix.join("include"), prefix.join("lib"));
            command
                .arg(format!("-I{}", include.display()))
                .arg(format!("-L{}", lib.display()))
                .arg(format!("-Wl,-rpath,{}", lib.display()));
        }
        let output = command
            .args(["-lflint", "-lntl", "-lgmp", "-lpthread"])
            .output()
            .map_err(|e| format!("cannot run the C++ compiler `{cxx}` ({e}); install it: {INSTALL_HINT}"))?;
        if !output.status.success() {
            let _ = std::fs::remove_file(&private);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let first = stderr.lines().find(|l| l.contains("error")).unwrap_or("").trim();
            return Err(format!(
                "cannot build the NTL/FLINT harness ({first}); install the libraries: {INSTALL_HINT}"
            ));
        }
        std::fs::rename(&private, &program)
            .map_err(|e| format!("cannot move the harness into {}: {e}", program.display()))?;
        Ok(Self { program, only: None })
    }

    /// The same harness timing `library` only (for a second FLINT, whose
    /// NTL would repeat the first harness's timings).
    pub fn only(mut self, library: PeerLibrary) -> Self {
        self.only = Some(library);
        self
    }

    /// Times n × n products (n = 2^m for each m in `log2_sizes`) with NTL and
    /// FLINT (or the library [`Self::only`] named) on `threads` threads, each
    /// repeated for at least `min_seconds`.
    pub fn run(
        &self,
        p: &Integer,
        threads: usize,
        min_seconds: f64,
        log2_sizes: &[u32],
    ) -> Result<Vec<PeerTiming>, String> {
        let output = Command::new(&self.program)
            .args(self.only.map(PeerLibrary::flag))
            .arg(p.to_string())
            .arg(threads.to_string())
            .arg(min_seconds.to_string())
            .args(log2_sizes.iter().map(u32::to_string))
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.program.display()))?;
        if !output.status.success() {
            return Err(format!(
                "the NTL/FLINT harness failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).map_err(|e| format!("harness output `{line}`: {e}")))
            .collect()
    }
}

/// Where benchmark artefacts go: `$CARGO_TARGET_DIR`, else the workspace's `target/`.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// Where the `gfpf` program builds the harness: `$XDG_CACHE_HOME/gfpf/peers`,
/// else `~/.cache/gfpf/peers`, else the system's temporary directory.
pub fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("gfpf").join("peers")
}
